/**
 * Misbehaving handlers against the real CLI:
 * each unit of one contract tries something a handler must not do, in a
 * handler process (`--isolation process`, the default). Each case fails
 * without its guard: the probes report "ALLOWED" when they get through, and
 * the crash cases take the worker down (or hang it) when handlers run in the
 * worker's process. Four small runs go in parallel to keep the file short.
 */
import { createServer, type Server } from "node:http";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli, tempRunDir, type CliResult } from "./runtime-harness.js";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import { fileURLToPath } from "node:url";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const HANDLERS = join(ROOT, "test/fixtures/isolation/misbehaving.mjs");
const { dir, store } = tempRunDir("taskspec-isolation-");
const db = join(dir, "store.db");
const outside = join(dir, "outside.txt");
const secretFile = join(dir, "secret.txt");
const keysFile = join(dir, "keys.log");
const SECRET = "s3cr3t-value-the-handler-must-not-see";

let server: Server;
let requests = 0;
let main: CliResult;
let none: CliResult;
let noNet: CliResult;
let pkg: CliResult;
let exitZero: CliResult;

const probeUnits = ["p_write", "p_read_store", "p_read_other", "p_spawn", "p_worker", "p_fetch", "p_env", "p_inputs"];

function contract(remote: string): string {
  const unit = (id: string, extra = "") => `  ${id}: { produces: [${id}-out], verify: [ok]${extra} }`;
  return `contract: 1
task:
  id: isolation
  version: 1
  goal: Every misbehaving handler is refused or ends its own attempt
  outputs: [good-out]
  done: [ok]
inputs:
  outside: { kind: decision, value: ${JSON.stringify(outside)} }
  store_file: { kind: decision, value: ${JSON.stringify(db)} }
  secret_file: { kind: decision, value: ${JSON.stringify(secretFile)} }
  remote: { kind: decision, value: ${JSON.stringify(remote)} }
  channel: { kind: decision, value: "news" }
budgets:
  model_calls: 100
  tool_calls: 100
  tokens: 100000
  retries: 1
tools:
  post_note: { class: idempotent, key: "\${inputs.channel}/\${run.id}" }
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
${unit("good")}
${unit("p_write", ", needs: { outside: content }")}
${unit("p_read_store", ", needs: { store_file: content }")}
${unit("p_read_other", ", needs: { secret_file: content }")}
${unit("p_spawn")}
${unit("p_worker")}
${unit("p_fetch", ", needs: { remote: content }")}
${unit("p_env")}
${unit("p_inputs", ", needs: { channel: content }, uses: [post_note]")}
${unit("p_charge_negative")}
${unit("p_charge_nan")}
${unit("c_exit", ", retry: { max: 1 }")}
${unit("c_hang", ", timeout: 1s")}
${unit("c_uncaught")}
${unit("c_unserialisable")}
`;
}

const GOOD_ONLY = `contract: 1
task:
  id: small
  version: 1
  goal: One unit
  outputs: [good-out]
  done: [ok]
budgets:
  retries: 0
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  good: { produces: [good-out], verify: [ok] }
`;

const cli = (args: string[], env: Record<string, string> = {}) =>
  // TASKSPEC_ISOLATION removed: these runs get the CLI's default, a handler process per attempt
  runCli(
    args,
    { TASKSPEC_SECRET_TOKEN: SECRET, ISOLATION_TEST_KEYS: keysFile, HANDLER_OK: "named", TASKSPEC_ISOLATION: undefined, ...env },
    store,
  );
const statusOf = async (run: string) => JSON.parse((await cli(["status", run, "--format", "json"])).stdout);

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    res.end("reached");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  writeFileSync(secretFile, SECRET);
  writeFileSync(join(dir, "iso.task.yaml"), contract(`http://127.0.0.1:${port}/`));
  writeFileSync(join(dir, "small.task.yaml"), GOOD_ONLY);
  // an installed-project layout: the handler module beside a node_modules that holds @taskspec/runtime
  const project = join(dir, "project");
  mkdirSync(project);
  symlinkSync(join(ROOT, "node_modules"), join(project, "node_modules"));
  writeFileSync(join(project, "handlers.mjs"), readFileSync(join(ROOT, "test/fixtures/isolation/imports-runtime.mjs")));
  const small = join(dir, "small.task.yaml");
  [main, none, noNet, pkg, exitZero] = await Promise.all([
    cli(["run", join(dir, "iso.task.yaml"), "--handlers", HANDLERS, "--run", "R", "--concurrency", "4", "--handler-env", "HANDLER_OK"]),
    cli(["run", small, "--handlers", HANDLERS, "--run", "N", "--isolation", "none"]),
    // no unshare on PATH: the handler process runs, the network is not isolated, and the run says so
    cli(["run", small, "--handlers", HANDLERS, "--run", "U"], { PATH: "/nonexistent" }),
    cli(["run", small, "--handlers", join(project, "handlers.mjs"), "--run", "P"]),
    // in the worker's own process, a handler's process.exit(0) ends the worker: the exit code still says "not done"
    cli(["run", small, "--handlers", join(ROOT, "test/fixtures/isolation/exit-zero.mjs"), "--run", "Z", "--isolation", "none"]),
  ]);
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

async function facts(run: string) {
  const s = new SqliteStore({ path: db });
  try {
    const records = await s.getRecords(run, { status: "current" });
    const f = await s.loadFacts(run);
    const events = await s.listEvents(run);
    return { records, units: f.units, run: f.run, events };
  } finally {
    await s.close();
  }
}

const resultOf = async (unit: string) => (await facts("R")).records.find((r) => r.unit === unit)?.result as Record<string, unknown>;
const errorOf = async (unit: string) => (await facts("R")).units.find((u) => u.unit === unit);

describe("a handler process cannot", () => {
  it("finishes the run it can (the good unit and the probes succeed), recorded as isolated", async () => {
    expect(main.stderr).not.toMatch(/internal/);
    for (const u of ["good", ...probeUnits]) expect((await errorOf(u))?.state, u).toBe("succeeded");
    const s = await statusOf("R");
    expect(s.isolation).toMatchObject({ mode: "process", network: "isolated", env: ["HANDLER_OK"] });
  });

  it("write outside its attempt directory", async () => {
    expect((await resultOf("p_write")).probe).toBe("ERR_ACCESS_DENIED");
    expect(existsSync(outside)).toBe(false);
  });

  it("read the store file or any other file", async () => {
    expect((await resultOf("p_read_store")).probe).toBe("ERR_ACCESS_DENIED");
    expect((await resultOf("p_read_other")).probe).toBe("ERR_ACCESS_DENIED");
  });

  it("start a child process or a worker thread", async () => {
    expect((await resultOf("p_spawn")).probe).toBe("ERR_ACCESS_DENIED");
    expect((await resultOf("p_worker")).probe).toBe("ERR_ACCESS_DENIED");
  });

  it("reach the network: a fetch to a local server fails and the server sees nothing", async () => {
    expect((await resultOf("p_fetch")).probe).not.toBe("ALLOWED");
    expect(requests).toBe(0);
  });

  it("see the worker's environment: no store, no secret, only the variables named by --handler-env", async () => {
    const env = JSON.parse(String((await resultOf("p_env")).probe)) as Record<string, string>;
    expect(env).toEqual({ HANDLER_OK: "named" });
    expect(JSON.stringify(env)).not.toContain(SECRET);
    expect(JSON.stringify(env)).not.toContain(db);
  });

  it("change what keys render from: ctx.inputs is a frozen copy of the unit's declared inputs only", async () => {
    const r = await resultOf("p_inputs");
    expect(r.probe).toBe("TypeError");
    expect(r.keys).toEqual(["channel"]);
    expect(readFileSync(keysFile, "utf8").trim().split("\n")).toEqual(["news/R"]);
  });

  it("refund or poison the budget: negative and NaN charges are refused guard errors", async () => {
    const neg = await errorOf("p_charge_negative");
    expect(neg?.state).toBe("failed");
    expect(neg?.lastError).toMatchObject({
      class: "guard",
      message: expect.stringMatching(/ctx\.charge refused: model_calls is -1000: a charge is never negative/),
    });
    const nan = await errorOf("p_charge_nan");
    expect(nan?.lastError).toMatchObject({ class: "guard", message: expect.stringMatching(/tokens is NaN, not a finite number/) });
    const { run } = await facts("R");
    expect(run.budgetUsed.model_calls ?? 0).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(run.budgetUsed.tokens ?? 0)).toBe(true);
  });
});

describe("a dying handler is an ended attempt, never the worker", () => {
  it("process.exit(1): each attempt ends crashed, retry.max counts it, the run fails with a non-zero exit", async () => {
    const u = await errorOf("c_exit");
    expect(u?.state).toBe("failed");
    expect(u?.lastError).toMatchObject({
      class: "crashed",
      attempt: 2,
      message: expect.stringMatching(/exited with code 1 before it returned a result/),
    });
    const { events } = await facts("R");
    expect(events.filter((e) => e.type === "attempt-failed" && e.unit === "c_exit")).toHaveLength(2);
    expect(main.code).toBe(1);
    expect(main.stdout).toMatch(/^run R: failed/);
    expect(main.stdout).toMatch(/failed c_exit: a2 crashed/);
  });

  it("under --isolation none a handler's process.exit(0) still does not make `run` exit 0", () => {
    expect(exitZero.code).toBe(4);
    expect(exitZero.stderr).toMatch(/the process ended before run Z reached an end/);
  });

  it("while (true) {} under a 1 s timeout is killed and recorded as a timeout, its wall-clock time booked", async () => {
    expect((await errorOf("c_hang"))?.lastError).toMatchObject({ class: "timeout", message: expect.stringMatching(/timeout of 1000 ms/) });
    // time spent is spent: the hung attempt's second is booked like any other attempt's time
    const { events, run } = await facts("R");
    const booked = events.filter((e) => e.type === "budget-charged" && e.unit === "c_hang" && e.data?.for === "attempt time");
    const hungAttempts = events.filter((e) => e.type === "attempt-failed" && e.unit === "c_hang" && e.data?.class === "timeout");
    expect(hungAttempts.length).toBeGreaterThanOrEqual(1);
    expect(booked.map((e) => e.attempt)).toEqual(hungAttempts.map((e) => e.attempt)); // one booking per hung attempt
    for (const e of booked) expect(Number(e.data?.wall_clock_ms)).toBeGreaterThanOrEqual(1000);
    const total = booked.reduce((sum, e) => sum + Number(e.data?.wall_clock_ms), 0);
    expect(run.budgetUsed.wall_clock_ms).toBeGreaterThanOrEqual(total);
  });

  it("an uncaught throw in a timer is the handler's error with its message, not a crash", async () => {
    expect((await errorOf("c_uncaught"))?.lastError).toMatchObject({
      class: "handler-error",
      message: expect.stringMatching(
        /^handler threw: boom from a timer \(uncaught, where the handler did not await it; its process ended\)/,
      ),
    });
  });

  it("a result that cannot leave the process is invalid-result", async () => {
    expect((await errorOf("c_unserialisable"))?.lastError).toMatchObject({ class: "invalid-result" });
  });
});

describe("the run records where its handlers ran", () => {
  it("--isolation none is recorded in the events and shown by status", async () => {
    expect(none.code, none.stderr).toBe(0);
    const { events } = await facts("N");
    expect(events.find((e) => e.type === "isolation")?.data).toMatchObject({ mode: "none", network: "not isolated" });
    expect((await cli(["status", "N"])).stdout).toMatch(/handlers: the worker's process \(--isolation none\) · network not isolated/);
  });

  it("status shows network isolated, or not isolated when unshare is unavailable", async () => {
    expect((await cli(["status", "R"])).stdout).toMatch(
      /handlers: a handler process per attempt \(--isolation process\) · network isolated/,
    );
    expect(noNet.code, noNet.stderr).toBe(0);
    expect(noNet.stderr).toMatch(/network not isolated/);
    expect((await cli(["status", "U"])).stdout).toMatch(
      /handlers: a handler process per attempt \(--isolation process\) · network not isolated/,
    );
  });

  it("a handler module that imports @taskspec/runtime from its node_modules runs isolated", async () => {
    expect(pkg.code, pkg.stderr).toBe(0);
    expect(((await facts("P")).records.find((r) => r.unit === "good")?.result as { probe: string }).probe).toBe("function");
  });
});
