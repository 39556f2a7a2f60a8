/**
 * Seed 000 replayed: the worker dies right after the blog created the post
 * and before the receipt is stored; a new process resumes, settles the
 * UNKNOWN publish by looking the post up by its key, and the blog shows
 * exactly one post.
 */
import path from "node:path";
import { spawnService } from "../remote/spawn.js";
import { readInvocations, countPerUnit, INVOCATION_LOG_ENV } from "../handlers/invocation-log.js";
import { writeCorpus } from "../handlers/corpus.js";
import { SPEC, TOOLS, UNITS, VERIFIERS } from "./paths.js";
import { blogPosts, blogStats } from "./remote-view.js";
import type { Report } from "./report.js";
import { describeExit, resumeTokenIn, shown, taskspec, taskspecJson } from "./taskspec-cli.js";

const RUN = "post-1";

interface EffectsView {
  unknownEffects: Array<{ unit: string; tool: string; key?: string; state: string }>;
}

export async function publishPostScenario(work: string, report: Report): Promise<void> {
  report.section("Part 1 - seed 000: the blog agent that published twice after a crash");
  const spec = SPEC("publish-post");
  const store = `sqlite:${path.join(work, "publish-post.db")}`;
  const log = path.join(work, "publish-post.invocations.jsonl");
  writeCorpus(path.join(work, "pages"));

  report.begin("Start the blog: a separate process on 127.0.0.1 with its own storage");
  const blog = await spawnService("blog", { dataDir: path.join(work, "blog-data") });
  try {
    report.say(`blog at ${blog.url} (pid ${blog.child.pid}), storage ${path.join(work, "blog-data")}`);
    const env = {
      TASKSPEC_BLOG_URL: blog.url,
      TASKSPEC_PAGES_DIR: path.join(work, "pages"),
      TASKSPEC_WORKSPACE_DIR: path.join(work, "workspace"),
      [INVOCATION_LOG_ENV]: log,
    };

    report.begin("Compile the contract: taskspec check specs/publish-post.task.yaml");
    const check = await taskspec(["check", spec]);
    report.say(shown(check));
    report.check("taskspec check exit code", check.code, 0);

    report.begin("Run it; the publish unit waits at its human approval gate");
    const first = await taskspec(
      [
        "run",
        spec,
        "--handlers",
        UNITS("publish-post"),
        "--tools",
        TOOLS("publish-post"),
        "--verifiers",
        VERIFIERS("publish-post"),
        "--store",
        store,
        "--run",
        RUN,
      ],
      env,
    );
    report.say(shown(first));

    report.begin("A person approves the publish gate");
    const approve = await taskspec(["approve", RUN, "publish", "--token", resumeTokenIn(first, "publish"), "--store", store], env);
    report.say(shown(approve));
    report.check("taskspec approve exit code", approve.code, 0);

    report.begin("Resume, armed to SIGKILL right after the blog created the post, before its receipt is stored");
    const crashed = await taskspec(["resume", RUN, "--store", store], {
      ...env,
      TASKSPEC_CRASH_AT: "after-effect-before-receipt@publish/create_post",
    });
    report.say(shown(crashed));
    report.check("the worker process", describeExit(crashed), "killed by SIGKILL");
    report.check("posts online right after the crash (asked from the blog)", (await blogPosts(blog.url)).length, 1);
    const open = (await taskspecJson<EffectsView>(["status", RUN, "--store", store])).unknownEffects;
    for (const effect of open)
      report.say(
        `ledger: ${effect.tool} of ${effect.unit}, key ${effect.key}, state ${effect.state}: the outcome is not known to the runtime`,
      );
    report.check(
      "effects whose outcome the runtime does not know",
      open.map((effect) => effect.tool),
      ["create_post"],
    );

    report.begin("Resume in a new process: reconcile the UNKNOWN publish by lookup, then continue");
    const resumed = await taskspec(["resume", RUN, "--store", store], env);
    report.say(shown(resumed));
    report.check("taskspec resume exit code", resumed.code, 0);
    report.check(
      "effects with an unknown outcome after the lookup",
      (await taskspecJson<EffectsView>(["status", RUN, "--store", store])).unknownEffects.length,
      0,
    );

    report.begin("Ask the blog itself");
    const posts = await blogPosts(blog.url);
    const stats = await blogStats(blog.url);
    for (const post of posts) report.say(`${post.id}  ${post.status}  ${post.url}  key=${post.key}`);
    report.say(`blog stats: ${JSON.stringify(stats.counters)}; create calls per key: ${JSON.stringify(stats.callsPerKey)}`);
    report.check("posts online", posts.length, 1);
    report.check("posts the blog ever created", stats.counters.creations ?? 0, 1);
    report.check(
      "create_post calls that reached the blog (the resume looked up instead of posting again)",
      Object.values(stats.callsPerKey),
      [1],
    );
    report.check("lookups by key at the blog (recovery and the live check)", (stats.counters.lookups ?? 0) >= 1, true);
    report.say("publish ran twice: a1 was killed after its call; a2 got the receipt the lookup adopted, without calling the blog.");
    const counts = countPerUnit(readInvocations(log));
    report.check("handler invocations per unit", Object.fromEntries(counts), {
      research: 1,
      write: 1,
      build: 1,
      publish: 2,
      "check-live": 1,
    });
  } finally {
    await blog.stop();
  }
}
