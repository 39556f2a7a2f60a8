/**
 * The publish-post contract in real processes against a blog that misbehaves
 * the way networks do (its fault knobs): whatever happens to the create call,
 * exactly one post ends up online, and a create call is repeated only after
 * the lookup confirmed nothing exists under the key. And a web page that
 * changes while the run waits for approval makes its evidence stale: the
 * research re-runs, and the approval given for the old draft does not
 * release the new one.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnService, type ServiceProcess } from "../dist/remote/spawn.js";
import { writeCorpus } from "../src/handlers/corpus.js";
import { countPerUnit, INVOCATION_LOG_ENV, readInvocations } from "../src/handlers/invocation-log.js";
import { HANDLERS, SPEC, VERIFIERS } from "../src/demo/paths.js";
import { resumeTokenIn, taskspec } from "../src/demo/taskspec-cli.js";
import { tempDir } from "./temp-dir.js";

const services: ServiceProcess[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop();
});

const KEY = "task:publish-post:publish:v1";

/** `taskspec run` of the publish-post example as run "p" on `store`. */
const runArgs = (store: string) => [
  "run",
  SPEC("publish-post"),
  "--handlers",
  HANDLERS("publish-post"),
  "--verifiers",
  VERIFIERS("publish-post"),
  "--store",
  store,
  "--run",
  "p",
];

describe("publish-post against a faulty blog", () => {
  it.each([
    { fault: "dropNext", why: "the post is created but the response is lost (UNKNOWN)", createCalls: 1 },
    { fault: "failNext", why: "the blog refuses before any effect (503)", createCalls: 2 },
    { fault: "delayMs", why: "the blog is slow", createCalls: 1 },
  ])(
    "$fault: $why -> one post, $createCalls create call(s)",
    async ({ fault, createCalls }) => {
      const work = tempDir();
      const blog = await spawnService("blog", { dataDir: path.join(work, "blog"), faults: { [fault]: fault === "delayMs" ? 300 : 1 } });
      services.push(blog);
      writeCorpus(path.join(work, "pages"));
      const env = {
        TASKSPEC_BLOG_URL: blog.url,
        TASKSPEC_PAGES_DIR: path.join(work, "pages"),
        TASKSPEC_WORKSPACE_DIR: path.join(work, "ws"),
      };
      const store = `sqlite:${path.join(work, "store.db")}`;

      const first = await taskspec(runArgs(store), env);
      expect((await taskspec(["approve", "p", "publish", "--token", resumeTokenIn(first, "publish"), "--store", store], env)).code).toBe(0);
      const done = await taskspec(["resume", "p", "--store", store], env);
      expect(done.code, done.stdout + done.stderr).toBe(0);

      const posts = (await (await fetch(`${blog.url}/posts`)).json()) as unknown[];
      const stats = (await (await fetch(`${blog.url}/stats`)).json()) as {
        counters: Record<string, number>;
        callsPerKey: Record<string, number>;
      };
      expect(posts).toHaveLength(1);
      expect(stats.counters.creations).toBe(1);
      expect(stats.callsPerKey).toEqual({ [KEY]: createCalls });
    },
    300_000,
  );
});

describe("publish-post when the web changes while the run waits at the gate", () => {
  it("drops the stale research, re-runs what read it, and does not reuse the old approval", async () => {
    const work = tempDir();
    const blog = await spawnService("blog", { dataDir: path.join(work, "blog") });
    services.push(blog);
    const pages = path.join(work, "pages");
    writeCorpus(pages);
    const log = path.join(work, "invocations.jsonl");
    const env = {
      TASKSPEC_BLOG_URL: blog.url,
      TASKSPEC_PAGES_DIR: pages,
      TASKSPEC_WORKSPACE_DIR: path.join(work, "ws"),
      [INVOCATION_LOG_ENV]: log,
    };
    const store = `sqlite:${path.join(work, "store.db")}`;

    const first = await taskspec(runArgs(store), env);
    expect((await taskspec(["approve", "p", "publish", "--token", resumeTokenIn(first, "publish"), "--store", store], env)).code).toBe(0);
    const page = path.join(pages, "web-03.md");
    fs.writeFileSync(
      page,
      fs.readFileSync(page, "utf8").replace(/Finding: .*/, "Finding: keys expire after a day, so a late retry can still duplicate."),
    );

    const again = await taskspec(["resume", "p", "--store", store], env);
    expect(again.stdout).toMatch(/blocked publish: approval/);
    expect(Object.fromEntries(countPerUnit(readInvocations(log)))).toEqual({ research: 2, write: 2, build: 2 });
    expect(((await (await fetch(`${blog.url}/posts`)).json()) as unknown[]).length).toBe(0);

    // the old approval does not apply to the new research; the resume that blocked again issued a new token
    expect((await taskspec(["approve", "p", "publish", "--token", resumeTokenIn(again, "publish"), "--store", store], env)).code).toBe(0);
    const done = await taskspec(["resume", "p", "--store", store], env);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    const posts = (await (await fetch(`${blog.url}/posts`)).json()) as Array<{ body: string }>;
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toContain("expire after a day");
  }, 300_000);
});
