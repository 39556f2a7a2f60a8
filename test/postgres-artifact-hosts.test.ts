/**
 * Hosts without a shared disk: a `taskspec run` and a `taskspec worker` in its
 * own mount and UTS namespace (another hostname, a private tmpfs for its
 * scratch space) drive one run whose artifacts live in PostgreSQL (`pg:`) or
 * in S3-compatible storage (the s3rver scripts/with-postgres.sh starts). Each
 * host reads the other's artifacts; the run records no host path; `status`
 * and `handoff` from a third directory see every artifact current, none
 * corrupt, no orphan. Needs TASKSPEC_PG_URL and TASKSPEC_S3_URL and
 * `unshare` (root); skips loudly without them.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 180_000 });

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const url = process.env["TASKSPEC_PG_URL"];
const s3 = process.env["TASKSPEC_S3_URL"];
const WIDE = 6;

const unshareMissing = (): string | undefined =>
  spawnSync("unshare", ["--mount", "--uts", "true"]).status === 0 ? undefined : "unshare --mount --uts is not permitted here (needs root)";
const missing =
  postgresMissing() ?? (s3 ? undefined : "TASKSPEC_S3_URL is not set (scripts/with-postgres.sh starts an S3 server)") ?? unshareMissing();

function contract(): string {
  const wide = Array.from({ length: WIDE }, (_, i) => `  w${i}:\n    produces: [part-${i}]`);
  const needs = Array.from({ length: WIDE }, (_, i) => `w${i}: content`).join(", ");
  return `contract: 1\ntask:\n  id: hosts\n  version: 1\n  goal: parts made on several hosts, joined on one\n  outputs: [joined]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\nbudgets:\n  model_calls: 100\n  tool_calls: 100\n  tokens: 1000\n  retries: 1\nunits:\n${wide.join("\n")}\n  join:\n    needs: { ${needs} }\n    produces: [joined]\n`;
}

// each part records the host that made it; the join reads every part, wherever it was written. The
// first part on each host waits (up to 30 s) until both hosts have started one, so both make parts.
const HANDLERS = `import { appendFileSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
const units = {};
const seen = process.env.TASKSPEC_TEST_HOSTS;
for (let i = 0; i < ${WIDE}; i++) units["w" + i] = async (ctx) => {
  appendFileSync(seen, hostname() + "\\n");
  for (let t = 0; t < 300 && new Set(readFileSync(seen, "utf8").split("\\n").filter(Boolean)).size < 2; t++)
    await new Promise((r) => setTimeout(r, 100));
  await ctx.write("part-" + i, JSON.stringify({ i, host: hostname() }));
  return { host: hostname() };
};
units.join = async (ctx) => {
  const parts = [];
  for (let i = 0; i < ${WIDE}; i++) parts.push(JSON.parse(new TextDecoder().decode(await ctx.read("part-" + i))));
  await ctx.write("joined", JSON.stringify(parts));
  return { host: hostname(), hosts: [...new Set(parts.map((p) => p.host))].sort() };
};
export default { units, tools: {} };
`;

function cli(
  args: string[],
  o: { cwd: string; env?: NodeJS.ProcessEnv; host?: string },
): Promise<{ code: number | null; out: string; err: string }> {
  // another host: its own hostname, and its scratch space (TMPDIR) on a tmpfs no other process sees
  const [cmd, argv] = o.host
    ? [
        "unshare",
        [
          "--mount",
          "--uts",
          "--propagation",
          "private",
          "sh",
          "-c",
          `hostname ${o.host} && mkdir -p "$TMPDIR" && mount -t tmpfs none "$TMPDIR" && exec "$0" "$@"`,
          process.execPath,
          CLI,
          ...args,
        ],
      ]
    : [process.execPath, [CLI, ...args]];
  return new Promise((resolve) => {
    const child = spawn(cmd, argv as string[], {
      cwd: o.cwd,
      env: {
        ...process.env,
        TASKSPEC_CRASH_AT: "",
        TASKSPEC_ISOLATION: "none",
        TASKSPEC_TEST_HOSTS: join(o.cwd, "..", "hosts.log"),
        ...o.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describeIfAvailable("hosts without a shared disk: artifacts in PostgreSQL or S3 (real processes)", missing, () => {
  it.each([
    ["pg:", () => "pg:"],
    ["s3://", () => s3!.replace("s3://taskspec", `s3://taskspec/hosts-${process.pid}-${Date.now()}`)],
  ])("artifacts in %s: two hosts each read the other's parts; status and handoff elsewhere see them all", async (_kind, locationOf) => {
    const location = locationOf();
    const dir = mkdtempSync(join(tmpdir(), "taskspec-hosts-"));
    writeFileSync(join(dir, "hosts.task.yaml"), contract());
    writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
    writeFileSync(join(dir, "hosts.log"), "");
    const schema = `h_${process.pid}_${Date.now()}`;
    const store = `${url}?schema=${schema}`;
    const [hostA, hostB, elsewhere] = ["a", "b", "elsewhere"].map((h) => {
      const d = join(dir, h);
      mkdirSync(join(d, "tmp"), { recursive: true });
      return d;
    });
    const common = ["--store", store, "--concurrency", "1", "--lease-ttl", "5s"];
    const run = cli(
      ["run", join(dir, "hosts.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R", "--artifacts", location, ...common],
      {
        cwd: hostA!,
        env: { TMPDIR: join(hostA!, "tmp") },
      },
    );
    // the worker joins once the run exists; it keeps polling until the run ends
    const pg = new PostgresStore({ connectionString: url!, schema });
    try {
      for (let i = 0; i < 600; i++) {
        if (await pg.getRun("R").catch(() => undefined)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const worker = cli(["worker", "--run", "R", "--poll", "200ms", ...common], {
        cwd: hostB!,
        host: "other-host",
        env: { TMPDIR: join(hostB!, "tmp") },
      });
      const [ran, worked] = await Promise.all([run, worker]);
      expect(ran.code, ran.err).toBe(0);
      expect(worked.code, worked.err).toBe(0);

      const r = await pg.getRun("R");
      expect(r?.status).toBe("done");
      expect(r?.origin.artifactRoot).toBe(location);
      const records = await pg.getRecords("R", { status: "current" });
      const hostOf = (unit: string) => (records.find((x) => x.unit === unit)?.result as { host: string }).host;
      const partHosts = new Set(Array.from({ length: WIDE }, (_, i) => hostOf(`w${i}`)));
      expect(partHosts.has("other-host"), "the worker in its own namespace made parts").toBe(true);
      expect(partHosts.size, "both hosts made parts").toBe(2);
      // the join read every part, the ones made on the other host included
      expect((records.find((x) => x.unit === "join")?.result as { hosts: string[] }).hosts).toEqual([...partHosts].sort());

      const status = await cli(["status", "R", "--store", store, "--format", "json"], { cwd: elsewhere! });
      expect(status.code, status.err).toBe(0);
      const s = JSON.parse(status.out) as { status: string; artifacts: { current: number; corrupt: number; orphan: number } };
      expect(s.status).toBe("done");
      expect(s.artifacts).toMatchObject({ current: WIDE + 1, corrupt: 0, orphan: 0 });
      const handoff = await cli(["handoff", "R", "--store", store], { cwd: elsewhere! });
      expect(handoff.code, handoff.err).toBe(0);
      expect(handoff.out).toContain(`- Artifacts: ${WIDE + 1} current, 0 superseded, 0 orphan, 0 corrupt`);
    } finally {
      await pg.close();
    }
  });
});
