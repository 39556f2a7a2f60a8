/**
 * With the real CLI: once a store has an operator
 * identity (`taskspec store init-operator`), every state-changing operator
 * action (`resolve`, `budget`, `rerun`, `cancel`, a changed contract or
 * module on `resume`/`run`, `run --cap`) needs an operator key: without one,
 * or with one the store does not know, it is refused with exit 2 and nothing
 * is recorded; with one, the decision names the identity, whatever `--by`
 * says. A store without an identity stays open and `status` says so. A
 * handler on `--isolation none` that has the store's URL and calls the
 * operator API in its process, or the CLI as a child process, is refused; an
 * isolated handler cannot reach the store at all.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, runCli, tempRunDir, tokenOf, type CliResult } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CONTRACT = join(FIXTURES, "gate.task.yaml");
const noTrace = (s: string) => expect(s).not.toMatch(/\n\s+at |internal error/);

interface Event {
  type: string;
  unit?: string;
  data?: Record<string, unknown>;
}

function setup(prefix: string) {
  const { dir, store } = tempRunDir(prefix);
  const handlers = join(dir, "gate-handlers.mjs");
  writeFileSync(
    handlers,
    `export default {
  units: {
    a: async (ctx) => (await ctx.write("a-out", "A"), { ok: true }),
    b: async (ctx) => (await ctx.write("b-out", "B"), { ok: true }),
    gate: async (ctx) => { const r = await ctx.tool("send", { to: "x" }); await ctx.write("sent", { r }); return { sent: true }; },
  },
  tools: { send: { call: async () => ({ id: "m1" }) } },
};
`,
  );
  const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, env, store);
  const events = async (run: string): Promise<Event[]> =>
    (await cli(["events", run, "--format", "json"])).stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Event);
  const decisions = async (run: string) => (await events(run)).filter((e) => e.type === "decision");
  const statusJson = async (run: string) =>
    JSON.parse((await cli(["status", run, "--format", "json"])).stdout) as {
      status: string;
      budget: { caps: Record<string, number> };
      unknownEffects: Array<{ id: string }>;
      operators: { protected: boolean; identities: number };
    };
  return { dir, store, handlers, cli, events, decisions, statusJson };
}

const refusedForKey = (r: CliResult, action: string) => {
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stderr).toContain(`${action} refused: this store's operator actions are protected`);
  expect(r.stderr).toContain("--operator-key-file F, or $TASKSPEC_OPERATOR_KEY_FILE; `taskspec store init-operator` makes one");
  expect(r.stderr).toContain("nothing was changed");
  noTrace(r.stderr);
};

describe("operator actions need the operator key once the store has an identity", () => {
  it("an open store: actions need no key, the decision says open-store, status says not protected", async () => {
    const t = setup("taskspec-opkey-open-");
    expect((await t.cli(["run", CONTRACT, "--handlers", t.handlers, "--run", "O"])).code).toBe(3);
    const status = await t.cli(["status", "O"]);
    expect(status.stdout).toContain("operator actions: not protected (the store has no operator identity");
    expect(status.stdout).toContain("`taskspec store init-operator <name> --key-file <file>` turns protection on");
    expect((await t.statusJson("O")).operators).toEqual({ protected: false, identities: 0 });
    const raise = await t.cli(["budget", "O", "--cap", "model_calls=20", "--by", "carol"]);
    expect(raise.code, raise.stderr).toBe(0);
    expect((await t.decisions("O")).at(-1)?.data).toMatchObject({ action: "budget-raise", by: "carol", via: "open-store" });
  });

  it("resolve, budget, rerun, cancel, resume --contract and run --cap: refused without a key or with a wrong one, recorded under the identity with it", async () => {
    const t = setup("taskspec-opkey-");
    const first = await t.cli(["run", CONTRACT, "--handlers", t.handlers, "--run", "R"]);
    expect(first.code, first.stderr).toBe(3);
    const token = tokenOf(first, "gate");
    const key = join(t.dir, "ada.key");
    const init = await t.cli(["store", "init-operator", "ada", "--key-file", key]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("need an operator key: add --operator-key-file");
    const forged = join(t.dir, "forged.key");
    writeFileSync(forged, "tso_0123456789abcdefghijklmnopqrstuvwxyz01234\n");
    const st = await t.cli(["status", "R"]);
    expect(st.stdout).toContain("operator actions: protected (1 operator identity;");
    expect((await t.statusJson("R")).operators).toEqual({ protected: true, identities: 1 });

    // the gate's token still approves; the send is cut after the remote did it: UNKNOWN, a person resolves it
    expect((await t.cli(["approve", "R", "gate", "--token", token])).code).toBe(0);
    const crashed = await t.cli(["resume", "R"], { TASKSPEC_CRASH_AT: "after-effect-before-receipt@gate/send" });
    expect(crashed.signal).toBe("SIGKILL");
    const blocked = await t.cli(["resume", "R"]);
    expect(blocked.code, blocked.stdout + blocked.stderr).toBe(3);
    const [effect] = (await t.statusJson("R")).unknownEffects;
    expect(effect).toBeDefined();
    const before = (await t.decisions("R")).length;

    refusedForKey(await t.cli(["resolve", "R", effect!.id, "--committed", "--by", "mallory"]), `resolve R ${effect!.id}`);
    const wrong = await t.cli(["resolve", "R", effect!.id, "--committed", "--operator-key-file", forged]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`resolve R ${effect!.id} refused: the operator key is not one this store knows`);
    noTrace(wrong.stderr);
    refusedForKey(await t.cli(["budget", "R", "--cap", "model_calls=99"]), "budget R");
    refusedForKey(await t.cli(["rerun", "R", "a"]), "rerun R/a");
    refusedForKey(await t.cli(["cancel", "R"]), "cancel R");
    expect((await t.decisions("R")).length).toBe(before); // nothing was recorded
    expect((await t.statusJson("R")).budget.caps.model_calls).toBe(10);
    expect((await t.statusJson("R")).unknownEffects).toHaveLength(1);
    // --dry-run changes nothing and needs no key
    expect((await t.cli(["budget", "R", "--cap", "model_calls=99", "--dry-run"])).code).toBe(0);

    const ok = await t.cli(["resolve", "R", effect!.id, "--committed", "--operator-key-file", key, "--by", "mallory"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await t.cli(["resume", "R"])).stdout).toMatch(/run R: done/);
    // the key through the environment, as an operator's shell has it
    const raised = await t.cli(["budget", "R", "--cap", "model_calls=20"], { TASKSPEC_OPERATOR_KEY_FILE: key });
    expect(raised.code, raised.stderr).toBe(0);
    const rerun = await t.cli(["rerun", "R", "a", "--operator-key-file", key]);
    expect(rerun.code, rerun.stderr).toBe(0);
    const mine = (await t.decisions("R")).slice(before);
    expect(mine.map((e) => [e.data?.action, e.data?.by, e.data?.via])).toEqual([
      ["resolve-effect", "ada", "operator"],
      ["budget-raise", "ada", "operator"],
      ["rerun", "ada", "operator"],
    ]);

    // a changed contract of a run, and caps at run start, are decisions too
    const other = join(t.dir, "gate-copy.task.yaml");
    writeFileSync(other, (await import("node:fs")).readFileSync(CONTRACT, "utf8"));
    refusedForKey(await t.cli(["resume", "R", "--contract", other]), "changing the contract of run R");
    expect((await t.cli(["resume", "R", "--contract", other, "--operator-key-file", key])).code).not.toBe(2);
    expect((await t.decisions("R")).at(-1)?.data).toMatchObject({ action: "origin", by: "ada", via: "operator" });
    refusedForKey(await t.cli(["run", CONTRACT, "--handlers", t.handlers, "--run", "S", "--cap", "model_calls=50"]), "budget S");

    // cancel with the key: a run blocked at its gate, nothing to undo
    expect((await t.cli(["run", CONTRACT, "--handlers", t.handlers, "--run", "C"])).code).toBe(3);
    refusedForKey(await t.cli(["cancel", "C"]), "cancel C");
    const cancelled = await t.cli(["cancel", "C", "--operator-key-file", key, "--by", "mallory"]);
    expect(cancelled.code, cancelled.stdout + cancelled.stderr).toBe(0);
    expect((await t.statusJson("C")).status).toBe("cancelled");
    expect((await t.decisions("C")).at(-1)?.data).toMatchObject({ action: "cancel", by: "ada", via: "operator" });
  });
});

/**
 * A handler that has the store's URL tries every operator action: through
 * the runtime's API in its own process, and through the CLI as a child
 * process. Its result reports what happened to each.
 */
const ROGUE = (url: string, keyFileSeen: string) => `
const report = {};
const note = (name, err) => (report[name] = err === undefined ? "DONE" : String(err && err.message ? err.message : err).slice(0, 400));
async function attempt(name, fn) { try { await fn(); note(name); } catch (err) { note(name, err); } }
export default {
  units: {
    a: async (ctx) => {
      report.keyFileEnv = process.env.TASKSPEC_OPERATOR_KEY_FILE ?? null;
      const now = () => new Date().toISOString();
      let rt, store;
      await attempt("open", async () => {
        rt = await import(${JSON.stringify(join(ROOT, "runtime/dist/index.js"))});
        store = await rt.openStore(${JSON.stringify(url)});
      });
      if (store) {
        await attempt("api budget", () => rt.operator.setBudget(store, ctx.run.id, { model_calls: 1000 }, "handler", "more", now()));
        await attempt("api rerun", () => rt.operator.rerun(store, ctx.run.id, "a", "handler", now()));
        await attempt("api resolve", () => rt.operator.resolveEffect(store, ctx.run.id, "e-none", "committed", "handler", now()));
        await attempt("api cancel", () => rt.operator.cancel({ store, handlers: { units: {}, tools: {} }, crash: () => {}, now }, ctx.run.id, "handler", "x"));
        await attempt("api approve", () => rt.operator.approve(store, { run: ctx.run.id, unit: "gate", by: "handler", expiresInMs: 60000, now: now() }));
        await attempt("api init-operator", () => rt.operator.initOperator(store, "handler", now()));
        await attempt("api key file", async () => rt.operator.setBudget(store, ctx.run.id, { model_calls: 1000 }, { by: "h", operatorKey: (await import("node:fs")).readFileSync(${JSON.stringify(keyFileSeen)}, "utf8") }, "x", now()));
        await store.close();
      }
      await attempt("cli budget", async () => {
        const { spawnSync } = await import("node:child_process");
        const r = spawnSync(process.execPath, [${JSON.stringify(join(ROOT, "cli/bin/taskspec.js"))}, "budget", ctx.run.id, "--cap", "model_calls=1000", "--store", ${JSON.stringify(url)}], { encoding: "utf8" });
        if (r.error) throw r.error;
        if (r.status !== 0) throw new Error("exit " + r.status + ": " + r.stderr.trim());
      });
      await ctx.write("a-out", "A");
      return { ok: true, report };
    },
    b: async (ctx) => (await ctx.write("b-out", "B"), { ok: true }),
    gate: async (ctx) => { const r = await ctx.tool("send", { to: "x" }); await ctx.write("sent", { r }); return { sent: true }; },
  },
  tools: { send: { call: async () => ({ id: "m1" }) } },
};
`;

describe("a handler is not an operator", () => {
  const rogueRun = async (isolation: "none" | undefined) => {
    const t = setup("taskspec-opkey-rogue-");
    const key = join(t.dir, "ada.key");
    expect((await t.cli(["store", "init-operator", "ada", "--key-file", key])).code).toBe(0);
    const handlers = join(t.dir, "rogue.mjs");
    // the handler guesses the key file's name only if the worker's environment tells it; it does not
    writeFileSync(handlers, ROGUE(t.store, "/nonexistent/key"));
    // the operator's shell has the key file exported; the worker does not pass it on to a handler in its process
    const out = await t.cli(["run", CONTRACT, "--handlers", handlers, "--run", "H"], {
      TASKSPEC_ISOLATION: isolation,
      TASKSPEC_OPERATOR_KEY_FILE: key,
    });
    expect(out.code, out.stdout + out.stderr).toBe(3); // blocked at the gate, as a run of honest handlers
    const shown = JSON.parse((await t.cli(["show", "H", "a", "--format", "json"])).stdout) as {
      current?: { result?: { report?: Record<string, string | null> } };
    };
    const report = shown.current?.result?.report;
    expect(report, JSON.stringify(shown)).toBeDefined();
    const s = await t.statusJson("H");
    expect(s.budget.caps.model_calls).toBe(10);
    expect((await t.decisions("H")).filter((e) => e.data?.action !== "origin")).toEqual([]);
    expect((await t.events("H")).filter((e) => e.type === "approval-granted")).toEqual([]);
    expect(s.operators.identities).toBe(1);
    return report!;
  };

  it("on --isolation none, the operator API in its process and the CLI as a child are refused", async () => {
    const report = await rogueRun("none");
    expect(report.keyFileEnv).toBeNull();
    expect(report.open).toBe("DONE"); // trusted code reaches the store...
    expect(report["api budget"]).toMatch(/^budget H refused: this store's operator actions are protected/); // ...but not its decisions
    expect(report["api rerun"]).toMatch(/^rerun H\/a refused: this store's operator actions are protected/);
    expect(report["api resolve"]).toMatch(/^resolve H e-none refused: this store's operator actions are protected/);
    expect(report["api cancel"]).toMatch(/^cancel H refused: this store's operator actions are protected/);
    expect(report["api approve"]).toMatch(/needs the gate's resume token/);
    expect(report["api init-operator"]).toMatch(/a new one needs an existing operator's key/);
    expect(report["api key file"]).toMatch(/ENOENT/);
    expect(report["cli budget"]).toMatch(/^exit 2: taskspec: budget H refused: this store's operator actions are protected/);
  });

  it("in a handler process (the default) it cannot reach the store at all", async () => {
    const report = await rogueRun(undefined);
    expect(report.keyFileEnv).toBeNull();
    // the permission model refuses reading the runtime's files (and the store's), and starting a process
    expect(report.open).toBe("Access to this API has been restricted");
    expect(report["cli budget"]).toBe("Access to this API has been restricted");
    expect(report["api budget"]).toBeUndefined();
  });
});
