/**
 * A store outage of a few seconds is not the end of a worker, nor of a
 * handler's attempt: a real `taskspec worker` (or `taskspec run`) reaches a
 * real PostgreSQL server through a TCP proxy in this process. While a unit
 * runs, the proxy drops every connection and refuses new ones for a while
 * (after dropping bytes for 1.5 s, so a query is lost mid-flight), then comes
 * back. The worker backs off (said on stderr), carries on and finishes the
 * run; `status` shows the outage; a connection lost under `ctx.tool` or
 * `ctx.charge` fails no attempt even with `retry.max: 0`.
 * Needs TASKSPEC_PG_URL (scripts/with-postgres.sh); skips loudly without it.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { compile } from "../compiler/src/index.js";
import { engineCore } from "../runtime/src/engine/run-plan.js";
import { ensureRun } from "../runtime/src/engine/worker.js";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 240_000 });

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const url = process.env.TASKSPEC_PG_URL;

const CONTRACT = `contract: 1
task: { id: outage, version: 1, goal: three slow units, outputs: [o0, o1, o2], done: [{ check: "count(result.stale_outputs) == 0" }] }
budgets: { model_calls: 100, tool_calls: 100, tokens: 1000, retries: 2 }
units:
  u0: { produces: [o0] }
  u1: { produces: [o1] }
  u2: { produces: [o2] }
`;
const HANDLERS = `import { appendFileSync } from "node:fs";
const unit = (i) => async (ctx) => {
  appendFileSync(process.env.TASKSPEC_TEST_LOG, "u" + i + "\\n");
  await new Promise((r) => setTimeout(r, 1500));
  await ctx.write("o" + i, { i });
  return { i };
};
export default { units: { u0: unit(0), u1: unit(1), u2: unit(2) }, tools: {} };
`;

/** One unit, no retries, whose idempotent tool call is in flight when the store goes away. */
const TOOL_CONTRACT = `contract: 1
task: { id: outage-tool, version: 1, goal: one tool call through an outage, outputs: [o], timeout: 1m, done: [{ check: "count(result.stale_outputs) == 0" }] }
budgets: { model_calls: 100, tool_calls: 100, tokens: 1000, retries: 0 }
tools:
  write_note: { class: idempotent, key: "\${run.id}/\${unit.id}/note" }
units:
  u: { uses: [write_note], produces: [o], retry: { max: 0 }, verify: [{ check: "result.ok" }] }
`;
const TOOL_HANDLERS = `import { appendFileSync, existsSync } from "node:fs";
export default {
  units: {
    u: async (ctx) => {
      const receipt = await ctx.tool("write_note", { text: "hello" });
      await ctx.charge({ model_calls: 1 });
      await ctx.write("o", { receipt });
      return { ok: true };
    },
  },
  tools: {
    // runs in the worker: says it has started, then answers after the store has gone away
    write_note: {
      call: async (args, meta) => {
        appendFileSync(process.env.TASKSPEC_TEST_LOG, "call " + meta.attemptId + "\\n");
        await new Promise((r) => setTimeout(r, 1000));
        return { id: "note-1" };
      },
    },
  },
};
`;

/** A TCP proxy to the server that can drop every connection and refuse new ones for a while. */
async function proxyTo(
  port: number,
): Promise<{ port: number; cut: (ms: number, blackHoleMs?: number) => Promise<void>; close: () => void }> {
  const sockets = new Set<Socket>();
  const listen = (server: Server, at: number) =>
    new Promise<number>((r) => server.listen(at, "127.0.0.1", () => r((server.address() as { port: number }).port)));
  const make = () =>
    createServer((client) => {
      const upstream = connect(port, "127.0.0.1");
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("error", () => s.destroy());
        s.on("close", () => sockets.delete(s));
      }
      // bytes in a black hole are dropped: a query sent then is lost mid-flight when the sockets are cut
      client.on("data", (d: Buffer) => void (holding || upstream.write(d)));
      upstream.on("data", (d: Buffer) => void (holding || client.write(d)));
    });
  let holding = false;
  let server = make();
  const at = await listen(server, 0);
  return {
    port: at,
    cut: async (ms, blackHoleMs = 0) => {
      holding = true;
      await new Promise((r) => setTimeout(r, blackHoleMs));
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      });
      await new Promise((r) => setTimeout(r, ms));
      holding = false;
      server = make();
      await listen(server, at);
    },
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

describeIfAvailable("a PostgreSQL outage of a few seconds (real worker process, TCP proxy)", postgresMissing(), () => {
  it.each([
    ["a connection reset in the middle of a query", 0],
    ["a 3 s outage after a query vanished", 3000],
  ])("%s during ctx.tool and ctx.charge is the store's hiccup, not the handler's failure (retry.max 0)", async (_what, cutMs) => {
    if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
    const dir = mkdtempSync(join(tmpdir(), "taskspec-outage-tool-"));
    const log = join(dir, "invocations.log");
    writeFileSync(join(dir, "outage.task.yaml"), TOOL_CONTRACT);
    writeFileSync(join(dir, "handlers.mjs"), TOOL_HANDLERS);
    writeFileSync(log, "");
    const schema = `ot_${process.pid}_${Date.now()}`;
    const proxy = await proxyTo(Number(new URL(url).port));
    const viaProxy = new URL(url);
    viaProxy.port = String(proxy.port);
    const store = new PostgresStore({ connectionString: url, schema });
    try {
      await store.init();
      const { plan, diagnostics } = compile(TOOL_CONTRACT);
      expect(plan, JSON.stringify(diagnostics)).toBeDefined();
      const core = engineCore({ store, plan: plan!, handlers: { units: {}, tools: {} }, run: "R", artifacts: join(dir, "artifacts") });
      await ensureRun(core, { contract: join(dir, "outage.task.yaml"), handlers: join(dir, "handlers.mjs") });
      const child = spawn(
        process.execPath,
        [CLI, "worker", "--run", "R", "--store", `${viaProxy.href}?schema=${schema}`, "--lease-ttl", "2s", "--poll", "200ms"],
        { env: { ...process.env, TASKSPEC_TEST_LOG: log, TASKSPEC_CRASH_AT: "" }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let err = "";
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout.resume();
      const done = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
      let exited = false;
      void done.then(() => (exited = true));
      // the adapter has started (in the worker): cut while it waits, so its receipt and the charge after it meet no store
      for (let i = 0; i < 2400 && !exited && readFileSync(log, "utf8") === ""; i++) await new Promise((r) => setTimeout(r, 50));
      await proxy.cut(cutMs, 1500); // the receipt's query goes out while the proxy drops bytes
      const code = await done;
      expect(code, err).toBe(0);
      expect((await store.getRun("R"))?.status).toBe("done");
      const failed = await store.listEvents("R", { type: "attempt-failed" });
      expect(failed, "no attempt may fail because the store went away").toEqual([]);
    } finally {
      proxy.close();
      await store.close();
    }
  });

  it("the worker backs off, carries on and finishes; status shows the outage", async () => {
    if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
    const dir = mkdtempSync(join(tmpdir(), "taskspec-outage-"));
    const log = join(dir, "invocations.log");
    writeFileSync(join(dir, "outage.task.yaml"), CONTRACT);
    writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
    writeFileSync(log, "");
    const schema = `o_${process.pid}_${Date.now()}`;
    const direct = new URL(url);
    const proxy = await proxyTo(Number(direct.port));
    const viaProxy = new URL(url);
    viaProxy.port = String(proxy.port);
    const store = new PostgresStore({ connectionString: url, schema });
    try {
      await store.init();
      const { plan } = compile(CONTRACT);
      const core = engineCore({ store, plan: plan!, handlers: { units: {}, tools: {} }, run: "R", artifacts: join(dir, "artifacts") });
      await ensureRun(core, { contract: join(dir, "outage.task.yaml"), handlers: join(dir, "handlers.mjs") });

      const child = spawn(
        process.execPath,
        [CLI, "worker", "--run", "R", "--store", `${viaProxy.href}?schema=${schema}`, "--lease-ttl", "3s", "--poll", "200ms"],
        {
          env: {
            ...process.env,
            TASKSPEC_ISOLATION: "none" /* the handlers log outside their attempt directory (runtime-harness.ts) */,
            TASKSPEC_TEST_LOG: log,
            TASKSPEC_CRASH_AT: "",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let err = "";
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout.resume();
      const done = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
      for (let i = 0; i < 2400 && readFileSync(log, "utf8") === ""; i++) await new Promise((r) => setTimeout(r, 50));
      await proxy.cut(3000);
      const code = await done;
      expect(code, err).toBe(0);
      expect(err).toMatch(/store unavailable \(.*\); backing off \d+ ms \(outage \d+ ms so far, bound 60s\)/);
      expect(err).toMatch(/the store is back after \d+ ms/);
      expect((await store.getRun("R"))?.status).toBe("done");

      const status = spawnSync(process.execPath, [CLI, "status", "R", "--store", `${url}?schema=${schema}`, "--format", "json"], {
        encoding: "utf8",
      });
      const s = JSON.parse(status.stdout) as { storeOutages: { count: number; last?: { ms: number } } };
      expect(s.storeOutages.count).toBeGreaterThanOrEqual(1);
      expect(s.storeOutages.last!.ms).toBeGreaterThan(1000); // from the first failed call (a unit may be mid-handler at the cut) to the first good one
    } finally {
      proxy.close();
      await store.close();
    }
  });
  it("`taskspec run` rides out a 3 s outage too: backs off, carries on, records it", async () => {
    if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
    const dir = mkdtempSync(join(tmpdir(), "taskspec-outage-run-"));
    const log = join(dir, "invocations.log");
    writeFileSync(join(dir, "outage.task.yaml"), CONTRACT);
    writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
    writeFileSync(log, "");
    const schema = `or_${process.pid}_${Date.now()}`;
    const proxy = await proxyTo(Number(new URL(url).port));
    const viaProxy = new URL(url);
    viaProxy.port = String(proxy.port);
    const store = new PostgresStore({ connectionString: url, schema });
    try {
      await store.init();
      const child = spawn(
        process.execPath,
        [
          CLI,
          "run",
          join(dir, "outage.task.yaml"),
          "--handlers",
          join(dir, "handlers.mjs"),
          "--run",
          "R",
          "--store",
          `${viaProxy.href}?schema=${schema}`,
          "--artifacts",
          join(dir, "artifacts"),
          "--lease-ttl",
          "3s",
        ],
        {
          env: {
            ...process.env,
            TASKSPEC_ISOLATION: "none" /* the handlers log outside their attempt directory (runtime-harness.ts) */,
            TASKSPEC_TEST_LOG: log,
            TASKSPEC_CRASH_AT: "",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let err = "";
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout.resume();
      const done = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
      let exited = false;
      void done.then(() => (exited = true));
      for (let i = 0; i < 2400 && !exited && readFileSync(log, "utf8") === ""; i++) await new Promise((r) => setTimeout(r, 50));
      await proxy.cut(3000);
      const code = await done;
      expect(code, err).toBe(0);
      expect(err).toMatch(/taskspec run: store unavailable \(.*\); backing off \d+ ms \(outage \d+ ms so far, bound 60s\)/);
      expect(err).toMatch(/taskspec run: the store is back after \d+ ms/);
      expect((await store.getRun("R"))?.status).toBe("done");
      expect((await store.listEvents("R", { type: "store-outage" })).length).toBeGreaterThanOrEqual(1);
    } finally {
      proxy.close();
      await store.close();
    }
  });
});
