/**
 * A frozen host: a `taskspec run` and a `taskspec worker`, each in its own
 * mount and UTS namespace (test/simulated-hosts.ts), drive one run whose
 * artifacts live in PostgreSQL (`pg:`); every unit publishes a post on the
 * examples' blog under its effect key. The worker is frozen (SIGSTOP) right
 * after its post, while its lease has a minute left: the other host takes
 * the unit over once the frozen worker's heartbeat has been silent past
 * `--dead-after` (not at the lease's expiry), settles the post by lookup and
 * finishes the run. Resumed (SIGCONT), the frozen worker's late commit is
 * fenced. The blog, not the store, counts the effects: one post per key.
 * Needs TASKSPEC_PG_URL (scripts/with-postgres.sh) and `unshare` (root);
 * skips loudly without them.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { CLI, onHost, unshareMissing, waitFor } from "./simulated-hosts.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 120_000 });

const url = process.env["TASKSPEC_PG_URL"];
const missing = postgresMissing() ?? unshareMissing();
const UNITS = 6;

function contract(): string {
  const units = Array.from({ length: UNITS }, (_, i) => `  u${i}:\n    uses: [create_post]\n    produces: [out-${i}]\n    verify: [ok]`);
  const outputs = Array.from({ length: UNITS }, (_, i) => `out-${i}`).join(", ");
  return `contract: 1\ntask:\n  id: frozen\n  version: 1\n  goal: posts published from several hosts, one frozen\n  timeout: 10m\n  outputs: [${outputs}]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\nbudgets:\n  model_calls: 100\n  tool_calls: 100\n  tokens: 1000\n  retries: 2\ntools:\n  create_post:\n    class: dedup\n    key: "post:\${run.id}:\${unit.id}"\n    lookup: find_post\n    result: { post_id: string, url: string }\n  find_post: { class: read }\nverifiers:\n  ok: { kind: rule, check: "result.ok == true" }\nunits:\n${units.join("\n")}\n`;
}

// "<unit> <host> posted" is logged after the unit's post; TASKSPEC_TEST_HOLD_MS holds the process's
// first unit that long after its post, so the test freezes it between its effect and its commit.
const HANDLERS = `import { appendFileSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
async function http(method, path, body, meta = {}) {
  const headers = { "content-type": "application/json" };
  if (meta.key !== undefined) headers["Idempotency-Key"] = meta.key;
  if (meta.fencingToken !== undefined) headers["X-Fencing-Token"] = String(meta.fencingToken);
  const res = await fetch(process.env.TASKSPEC_BLOG_URL + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json();
  if (res.status === 404 && method === "GET") return null;
  if (!res.ok) throw new Error("blog " + method + " " + path + ": " + res.status + " " + (json.error ?? ""));
  return json;
}
const post = (p) => p && { post_id: p.id, url: p.url };
const tools = {
  create_post: { call: async (args, meta) => post(await http("POST", "/posts", args, meta)) },
  find_post: { call: async ({ key }, meta) => post(await http("GET", "/posts?key=" + encodeURIComponent(key), undefined, { fencingToken: meta.fencingToken })) },
};
let held = false;
const units = {};
for (let i = 0; i < ${UNITS}; i++) units["u" + i] = async (ctx) => {
  // TASKSPEC_TEST_AFTER=<host>: this process's first unit waits (up to 30 s) until that host has posted
  for (let t = 0; !held && process.env.TASKSPEC_TEST_AFTER && t < 300; t++) {
    if (readFileSync(process.env.TASKSPEC_TEST_LOG, "utf8").includes(process.env.TASKSPEC_TEST_AFTER + " posted")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const receipt = await ctx.tool("create_post", { title: "u" + i, body: "the same request from any host" });
  appendFileSync(process.env.TASKSPEC_TEST_LOG, "u" + i + " " + hostname() + " posted\\n");
  const hold = !held && Number(process.env.TASKSPEC_TEST_HOLD_MS || 0);
  held = true;
  await new Promise((r) => setTimeout(r, hold || 300));
  await ctx.write("out-" + i, JSON.stringify(receipt));
  return { ok: true, i };
};
export default { units, tools };
`;

describeIfAvailable("a host frozen past its heartbeat, artifacts in PostgreSQL (real processes)", missing, () => {
  it("its unit is taken over before its lease expires, its late commit is fenced, and the blog holds one post per key", async () => {
    const { spawnService } = (await import("../examples/dist/remote/spawn.js")) as typeof import("../examples/src/remote/spawn.js");
    const dir = mkdtempSync(join(tmpdir(), "taskspec-frozen-"));
    const blog = await spawnService("blog", { dataDir: join(dir, "blog") });
    writeFileSync(join(dir, "c.task.yaml"), contract());
    writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
    const log = join(dir, "invocations.log");
    writeFileSync(log, "");
    const schema = `fz_${process.pid}_${Date.now()}`;
    const store = `${url}?schema=${schema}`;
    // a lease of a minute: only the heartbeat's silence (1.5 s) can explain a takeover within the test
    const common = ["--store", store, "--concurrency", "1", "--lease-ttl", "60s", "--heartbeat", "300ms", "--dead-after", "1500ms"];
    const env = { TASKSPEC_TEST_LOG: log, TASKSPEC_BLOG_URL: blog.url };
    const lines = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
    const hostDir = (h: string) => {
      const d = join(dir, h);
      mkdirSync(d, { recursive: true });
      return d;
    };
    const run = onHost(
      "host-a",
      ["run", join(dir, "c.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R", "--artifacts", "pg:", ...common],
      hostDir("a"),
      { ...env, TASKSPEC_TEST_AFTER: "host-b" },
    );
    // host-a's first unit waits for host-b's post: host-b starts once the run exists, and claims a unit
    expect(await waitFor(() => run.err().includes("run R started"), 30_000), run.err()).toBe(true);
    const frozen = onHost("host-b", ["worker", "--run", "R", "--poll", "200ms", ...common], hostDir("b"), {
      ...env,
      TASKSPEC_TEST_HOLD_MS: "3000",
    });
    const s = new PostgresStore({ connectionString: url!, schema });
    try {
      expect(
        await waitFor(() => lines().some((l) => l.endsWith(" host-b posted")), 30_000),
        `${frozen.err()}\n${run.err()}\n${lines().join("\n")}`,
      ).toBe(true);
      frozen.child.kill("SIGSTOP");
      const unit = lines()
        .find((l) => l.endsWith(" host-b posted"))!
        .split(" ")[0]!;

      const deadline = setTimeout(() => [run, frozen].forEach((p) => p.child.kill("SIGKILL")), 60_000);
      expect(await run.done, run.err()).toBe(0);
      // the operator's view while it is still frozen: silent, its lease taken
      const listed = spawnSync(
        process.execPath,
        [CLI, "workers", "--store", store, "--dead-after", "1500ms", "--all", "--format", "json"],
        {
          encoding: "utf8",
        },
      );
      expect(listed.status, listed.stderr).toBe(0);
      const workers = (JSON.parse(listed.stdout) as { workers: Array<{ host: string; state: string; leases: unknown[] }> }).workers;
      expect(workers.map((w) => [w.host, w.state, w.leases.length]).sort()).toEqual([
        ["host-a", "stopped", 0],
        ["host-b", "silent", 0],
      ]);
      frozen.child.kill("SIGCONT");
      expect(await frozen.done, frozen.err()).toBe(0);
      clearTimeout(deadline);

      expect((await s.getRun("R"))?.status).toBe("done");
      const events = await s.listEvents("R");
      const broken = events.filter((e) => e.type === "lease-broken" && e.unit === unit);
      expect(broken.map((e) => e.data?.why)).toEqual(["owner heartbeat stopped"]);
      const late = events.filter(
        (e) => e.unit === unit && e.attempt === 1 && (e.type === "stale-commit-rejected" || e.type === "stale-attempt-discarded"),
      );
      expect(late.length, "the frozen worker's late commit is fenced").toBeGreaterThan(0);
      const current = await s.getRecords("R", { status: "current" });
      expect(current.map((r) => r.unit).sort()).toEqual(Array.from({ length: UNITS }, (_, i) => `u${i}`).sort());
      expect((await s.getRecords("R")).filter((r) => r.status === "superseded")).toEqual([]);
      expect(await s.listArtifacts("R", { status: "corrupt" })).toEqual([]);
      // the service's own storage: exactly one post per effect key
      const posts = (await (await fetch(`${blog.url}/posts`)).json()) as Array<{ key: string }>;
      expect(posts.map((p) => p.key).sort()).toEqual(Array.from({ length: UNITS }, (_, i) => `post:R:u${i}`).sort());
    } finally {
      [run, frozen].forEach((p) => p.child.exitCode === null && p.child.kill("SIGKILL"));
      await s.close();
      await blog.stop();
    }
  });
});
