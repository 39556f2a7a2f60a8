/**
 * Time and identity from the database, with real worker processes on one
 * PostgreSQL run: a worker whose host clock is a minute ahead, and two
 * workers in their own UTS and pid namespaces with the same hostname and the
 * same pid, each join a run whose one unit another worker holds under a
 * short, renewed lease. Neither takes the live lease for expired nor its
 * owner for dead: the unit runs once. A person approving a gate from a host
 * whose clock is an hour behind (libfaketime) grants the approval for as long
 * as asked, by the store's clock, and the worker sends. Needs TASKSPEC_PG_URL
 * (scripts/with-postgres.sh); the namespaces case needs `unshare`, the
 * approval case `faketime` (Debian's faketime package; .ci/run installs it).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { FIXTURES, tokenOf } from "./runtime-harness.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 120_000 });

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const url = process.env.TASKSPEC_PG_URL;

const CONTRACT = `contract: 1
task:
  id: held
  version: 1
  goal: one unit held past several lease renewals
  outputs: [out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 10
  tool_calls: 10
  tokens: 1000
  retries: 2
units:
  slow:
    produces: [out]
`;

// each invocation logs "<unit> <host> <pid>", then holds the unit for TASKSPEC_TEST_HOLD_MS
const HANDLERS = `import { appendFileSync } from "node:fs";
import { hostname } from "node:os";
export default {
  units: {
    slow: async (ctx) => {
      appendFileSync(process.env.TASKSPEC_TEST_LOG, "slow " + hostname() + " " + process.pid + "\\n");
      await new Promise((r) => setTimeout(r, Number(process.env.TASKSPEC_TEST_HOLD_MS)));
      await ctx.write("out", "{}");
      return {};
    },
  },
  tools: {},
};
`;

/** A store schema of its own, the held unit's contract and handlers, and what every process of a case shares. */
function workspace(): { dir: string; log: string; schema: string; env: NodeJS.ProcessEnv; common: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-clock-"));
  writeFileSync(join(dir, "held.task.yaml"), CONTRACT);
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const log = join(dir, "invocations.log");
  writeFileSync(log, "");
  const schema = `c_${process.pid}_${Date.now()}`;
  const store = `${url}?schema=${schema}`;
  // the unit holds 5 s under a 2 s lease, so it lives only by renewals
  const env = { ...process.env, TASKSPEC_ISOLATION: "none", TASKSPEC_TEST_LOG: log, TASKSPEC_TEST_HOLD_MS: "5000", TASKSPEC_CRASH_AT: "" };
  return { dir, log, schema, env, common: ["--store", store, "--lease-ttl", "2s"] };
}

interface Proc {
  child: ChildProcess;
  done: Promise<number | null>;
  err: () => string;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  child.stdout!.resume();
  return { child, done: new Promise((r) => child.on("close", (code) => r(code))), err: () => err };
}

const invocations = (log: string) => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);

async function waitFor(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 1200 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(pred()).toBe(true);
}

/** The run ended done, its one unit ran once, and no lease was broken or taken over. */
async function expectRanOnce(schema: string, log: string, procs: Proc[]): Promise<void> {
  const codes = await Promise.all(procs.map((p) => p.done));
  expect(codes, procs.map((p) => p.err()).join("\n---\n")).toEqual(procs.map(() => 0));
  expect(invocations(log)).toHaveLength(1);
  const s = new PostgresStore({ connectionString: url!, schema });
  try {
    expect((await s.getRun("R"))?.status).toBe("done");
    expect(await s.listEvents("R", { type: "lease-broken" })).toEqual([]);
    expect(await s.listEvents("R", { type: "lease-taken-over" })).toEqual([]);
    expect((await s.listEvents("R", { type: "leased" })).length).toBe(1);
  } finally {
    await s.close();
  }
}

const unshareWorks = () =>
  spawnSync("unshare", ["--uts", "--pid", "--fork", "--mount-proc", "true"], { stdio: "ignore" }).status === 0
    ? undefined
    : "unshare --uts --pid --mount-proc (needs root or user namespaces)";

describeIfAvailable("time and identity from PostgreSQL (real processes)", postgresMissing(), () => {
  // Lease 2 s, renewed as the unit runs 5 s: a worker whose clock is 60 s ahead reads an
  // expiry 58 s in its past unless it judges by the store's clock.
  it("a worker whose host clock is 60 s ahead leaves a live lease alone: the unit runs once", async () => {
    const { dir, log, schema, env, common } = workspace();
    const runner = start(
      process.execPath,
      [
        CLI,
        "run",
        join(dir, "held.task.yaml"),
        "--handlers",
        join(dir, "handlers.mjs"),
        "--run",
        "R",
        "--artifacts",
        join(dir, "a"),
        ...common,
      ],
      env,
    );
    await waitFor(() => invocations(log).length > 0);
    const ahead = start(process.execPath, [CLI, "worker", "--run", "R", "--poll", "200ms", ...common], {
      ...env,
      TASKSPEC_TEST_CLOCK_SKEW_MS: "60000",
    });
    await expectRanOnce(schema, log, [runner, ahead]);
  });

  // Each process is pid 1 of its own pid namespace, on a host named "same": by hostname and
  // pid, each takes the other's lease for one of its own dead processes.
  const noUnshare = unshareWorks();
  it.skipIf(noUnshare !== undefined)(
    `two workers with the same hostname and pid in their own namespaces: neither breaks the other's lease${noUnshare ? ` (skipped: ${noUnshare})` : ""}`,
    async () => {
      const { dir, log, schema, env, common } = workspace();
      const inNamespaces = (args: string[]) =>
        start(
          "unshare",
          ["--uts", "--pid", "--fork", "--mount-proc", "sh", "-c", 'hostname same && exec "$@"', "sh", process.execPath, CLI, ...args],
          env,
        );
      const runner = inNamespaces([
        "run",
        join(dir, "held.task.yaml"),
        "--handlers",
        join(dir, "handlers.mjs"),
        "--run",
        "R",
        "--artifacts",
        join(dir, "a"),
        ...common,
      ]);
      await waitFor(() => invocations(log).length > 0);
      expect(invocations(log)[0]).toBe("slow same 1");
      const twin = inNamespaces(["worker", "--run", "R", "--poll", "200ms", ...common]);
      await expectRanOnce(schema, log, [runner, twin]);
    },
  );

  // Without the store's clock the approval would be stamped an hour early: granted for 30 min,
  // it would have expired half an hour before it was made, and the worker would send nothing.
  const noFaketime =
    spawnSync("faketime", ["-f", "+0", "true"], { stdio: "ignore" }).status === 0 ? undefined : "faketime (Debian's faketime package)";
  it.skipIf(noFaketime !== undefined)(
    `an approval made on a host an hour behind holds for as long as asked, by the store's clock${noFaketime ? ` (skipped: ${noFaketime})` : ""}`,
    () => {
      const dir = mkdtempSync(join(tmpdir(), "taskspec-clock-approve-"));
      const sends = join(dir, "sends.log");
      writeFileSync(sends, "");
      writeFileSync(
        join(dir, "gate-handlers.mjs"),
        `import { appendFileSync } from "node:fs";
export default {
  units: {
    a: async (ctx) => (await ctx.write("a-out", "A"), { ok: true }),
    b: async (ctx) => (await ctx.write("b-out", "B"), { ok: true }),
    gate: async (ctx) => { const r = await ctx.tool("send", { to: "x" }); await ctx.write("sent", { r }); return { sent: true }; },
  },
  tools: { send: { call: async () => (appendFileSync(${JSON.stringify(sends)}, "sent\\n"), { id: "m1" }) } },
};
`,
      );
      const schema = `a_${process.pid}_${Date.now()}`;
      const store = ["--store", `${url}?schema=${schema}`];
      const env = { ...process.env, TASKSPEC_ISOLATION: "none", TASKSPEC_CRASH_AT: "" };
      const cli = (args: string[], prefix: string[] = []) => {
        const [cmd, ...rest] = [...prefix, process.execPath, CLI, ...args, ...store];
        const r = spawnSync(cmd!, rest, { env, encoding: "utf8" });
        return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
      };
      const blocked = cli([
        "run",
        join(FIXTURES, "gate.task.yaml"),
        "--handlers",
        join(dir, "gate-handlers.mjs"),
        "--run",
        "G",
        "--artifacts",
        join(dir, "a"),
      ]);
      expect(blocked.stdout, blocked.stderr).toMatch(/blocked gate: approval/);
      const approved = cli(
        ["approve", "G", "gate", "--token", tokenOf(blocked, "gate"), "--by", "behind", "--expires", "30m"],
        ["faketime", "-f", "-1h"],
      );
      expect(approved.code, approved.stderr).toBe(0);
      const until = Date.parse(/until ([0-9T:.-]+Z)/.exec(approved.stdout)![1]!);
      expect(Math.abs(until - (Date.now() + 30 * 60_000))).toBeLessThan(5 * 60_000);
      const resumed = cli(["resume", "G"]);
      expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
      expect(readFileSync(sends, "utf8")).toBe("sent\n");
    },
  );
});
