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

/** A contract and its handlers in a folder of their own, a fresh schema, and a proxy in front of the server. */
async function sandbox(prefix: string, contract: string, handlers: string) {
  if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
  const dir = mkdtempSync(join(tmpdir(), `taskspec-${prefix}-`));
  const files = { contract: join(dir, "outage.task.yaml"), handlers: join(dir, "handlers.mjs"), log: join(dir, "invocations.log") };
  writeFileSync(files.contract, contract);
  writeFileSync(files.handlers, handlers);
  writeFileSync(files.log, "");
  const schema = `${prefix.replace(/-/g, "_")}_${process.pid}_${Date.now()}`;
  const proxy = await proxyTo(Number(new URL(url).port));
  const viaProxy = new URL(url);
  viaProxy.port = String(proxy.port);
  const store = new PostgresStore({ connectionString: url, schema });
  await store.init();
  return {
    dir,
    ...files,
    proxy,
    store,
    /** The store as the child process reaches it: through the proxy. */
    storeUrl: `${viaProxy.href}?schema=${schema}`,
    directUrl: `${url}?schema=${schema}`,
    /** The run R recorded as `run` would, for a worker to pick up. */
    recordRun: async () => {
      const { plan, diagnostics } = compile(contract);
      expect(plan, JSON.stringify(diagnostics)).toBeDefined();
      const core = engineCore({ store, plan: plan!, handlers: { units: {}, tools: {} }, run: "R", artifacts: join(dir, "artifacts") });
      await ensureRun(core, { contract: files.contract, handlers: files.handlers });
    },
    close: async () => {
      proxy.close();
      await store.close();
    },
  };
}

/** The CLI as a child process; `started` resolves once the first handler or adapter call is logged (or the child ended). */
function taskspec(args: string[], env: Record<string, string>, log: string) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, TASKSPEC_CRASH_AT: "", TASKSPEC_TEST_LOG: log, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  let exited = false;
  const done = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  void done.then(() => (exited = true));
  const started = async () => {
    for (let i = 0; i < 2400 && !exited && readFileSync(log, "utf8") === ""; i++) await new Promise((r) => setTimeout(r, 50));
  };
  return { done, started, stderr: () => stderr };
}

/** The handlers of CONTRACT log outside their attempt directory (runtime-harness.ts), so they run unisolated. */
const LOGGING_HANDLERS_ENV = { TASKSPEC_ISOLATION: "none" };

describeIfAvailable("a PostgreSQL outage of a few seconds (real worker process, TCP proxy)", postgresMissing(), () => {
  it.each([
    ["a connection reset in the middle of a query", 0],
    ["a 3 s outage after a query vanished", 3000],
  ])("%s during ctx.tool and ctx.charge is the store's hiccup, not the handler's failure (retry.max 0)", async (_what, cutMs) => {
    const sb = await sandbox("outage-tool", TOOL_CONTRACT, TOOL_HANDLERS);
    try {
      await sb.recordRun();
      const child = taskspec(["worker", "--run", "R", "--store", sb.storeUrl, "--lease-ttl", "2s", "--poll", "200ms"], {}, sb.log);
      // the adapter has started (in the worker): cut while it waits, so its receipt and the charge after it meet no store
      await child.started();
      await sb.proxy.cut(cutMs, 1500); // the receipt's query goes out while the proxy drops bytes
      const code = await child.done;
      expect(code, child.stderr()).toBe(0);
      expect((await sb.store.getRun("R"))?.status).toBe("done");
      const failed = await sb.store.listEvents("R", { type: "attempt-failed" });
      expect(failed, "no attempt may fail because the store went away").toEqual([]);
      // the store answered again at once: the attempt was ended uncounted, saying why
      if (cutMs === 0)
        expect((await sb.store.listEvents("R", { type: "attempt-interrupted" })).map((e) => e.data?.reason)).toContain("store-lost");
    } finally {
      await sb.close();
    }
  });

  it("the worker backs off, carries on and finishes; status shows the outage", async () => {
    const sb = await sandbox("outage", CONTRACT, HANDLERS);
    try {
      await sb.recordRun();
      const child = taskspec(
        ["worker", "--run", "R", "--store", sb.storeUrl, "--lease-ttl", "3s", "--poll", "200ms"],
        LOGGING_HANDLERS_ENV,
        sb.log,
      );
      await child.started();
      await sb.proxy.cut(3000);
      const code = await child.done;
      const err = child.stderr();
      expect(code, err).toBe(0);
      expect(err).toMatch(/store unavailable \(.*\); backing off \d+ ms \(outage \d+ ms so far, bound 60s\)/);
      expect(err).toMatch(/the store is back after \d+ ms/);
      expect((await sb.store.getRun("R"))?.status).toBe("done");

      const status = spawnSync(process.execPath, [CLI, "status", "R", "--store", sb.directUrl, "--format", "json"], { encoding: "utf8" });
      const s = JSON.parse(status.stdout) as { storeOutages: { count: number; last?: { ms: number } } };
      expect(s.storeOutages.count).toBeGreaterThanOrEqual(1);
      expect(s.storeOutages.last!.ms).toBeGreaterThan(1000); // from the first failed call (a unit may be mid-handler at the cut) to the first good one
    } finally {
      await sb.close();
    }
  });

  it("`taskspec run` rides out a 3 s outage too: backs off, carries on, records it", async () => {
    const sb = await sandbox("outage-run", CONTRACT, HANDLERS);
    try {
      const child = taskspec(
        [
          "run",
          sb.contract,
          "--handlers",
          sb.handlers,
          "--run",
          "R",
          "--store",
          sb.storeUrl,
          "--artifacts",
          join(sb.dir, "artifacts"),
          "--lease-ttl",
          "3s",
        ],
        LOGGING_HANDLERS_ENV,
        sb.log,
      );
      await child.started();
      await sb.proxy.cut(3000);
      const code = await child.done;
      const err = child.stderr();
      expect(code, err).toBe(0);
      expect(err).toMatch(/taskspec run: store unavailable \(.*\); backing off \d+ ms \(outage \d+ ms so far, bound 60s\)/);
      expect(err).toMatch(/taskspec run: the store is back after \d+ ms/);
      expect((await sb.store.getRun("R"))?.status).toBe("done");
      expect((await sb.store.listEvents("R", { type: "store-outage" })).length).toBeGreaterThanOrEqual(1);
    } finally {
      await sb.close();
    }
  });
  it("`taskspec resume` rides out a 3 s outage as well", async () => {
    const sb = await sandbox("outage-resume", CONTRACT, HANDLERS);
    try {
      await sb.recordRun();
      const child = taskspec(["resume", "R", "--store", sb.storeUrl, "--lease-ttl", "3s"], LOGGING_HANDLERS_ENV, sb.log);
      await child.started();
      await sb.proxy.cut(3000);
      const code = await child.done;
      const err = child.stderr();
      expect(code, err).toBe(0);
      expect(err).toMatch(/taskspec resume: store unavailable \(.*\); backing off \d+ ms/);
      expect(err).toMatch(/taskspec resume: the store is back after \d+ ms/);
      expect((await sb.store.getRun("R"))?.status).toBe("done");
      expect((await sb.store.listEvents("R", { type: "store-outage" })).map((e) => e.data?.worker)).toContain("resume");
    } finally {
      await sb.close();
    }
  });
});
