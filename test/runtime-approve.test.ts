/**
 * With the real CLI: handlers are not operators, and neither
 * is anyone who merely reaches the store. `approve` needs the gate's
 * single-use resume token or the key of an operator identity the store knows
 * (`taskspec store init-operator`). Without either it is refused; a token of
 * run A tried on run B is refused and still releases A; a used token is
 * refused; an operator key records the identity's name, not `--by`.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, runCli, tempRunDir, tokenOf } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const { dir, store } = tempRunDir("taskspec-approve-");
const CONTRACT = join(FIXTURES, "gate.task.yaml");
const HANDLERS = join(dir, "gate-handlers.mjs");
const SENDS = join(dir, "sends.log");
writeFileSync(
  HANDLERS,
  `import { appendFileSync } from "node:fs";
export default {
  units: {
    a: async (ctx) => (await ctx.write("a-out", "A"), { ok: true }),
    b: async (ctx) => (await ctx.write("b-out", "B"), { ok: true }),
    gate: async (ctx) => { const r = await ctx.tool("send", { to: "x" }); await ctx.write("sent", { r }); return { sent: true }; },
  },
  tools: { send: { call: async (args, meta) => (appendFileSync(${JSON.stringify(SENDS)}, meta.runId + "\\n"), { id: "m1" }) } },
};
`,
);
writeFileSync(SENDS, "");

const cli = (args: string[]) => runCli(args, {}, store);
const start = (run: string) => cli(["run", CONTRACT, "--handlers", HANDLERS, "--run", run]);
const noTrace = (s: string) => expect(s).not.toMatch(/\n\s+at |internal error/);
const approvalsOf = async (run: string) =>
  (JSON.parse((await cli(["status", run, "--format", "json"])).stdout) as { approvals: { granted: unknown[] } }).approvals.granted;

describe("taskspec approve needs a token or an operator identity", () => {
  it("without a token or key: refused, nothing approved; --by alone is no authority", async () => {
    const first = await start("A0");
    expect(first.stdout).toMatch(/blocked gate: approval/);
    const r = await cli(["approve", "A0", "gate", "--by", "alice"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("approving A0/gate needs the gate's resume token (--token");
    expect(r.stderr).toContain("or an operator key this store knows (--operator-key-file");
    noTrace(r.stderr);
    expect(await approvalsOf("A0")).toEqual([]);
  });

  it("a token of run A is refused on run B and still releases A; a used token is refused", async () => {
    const a = await start("A");
    const b = await start("B");
    const tokenA = tokenOf(a, "gate");
    const tokenB = tokenOf(b, "gate");
    const wrong = await cli(["approve", "B", "gate", "--token", tokenA]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("resume token belongs to gate A/gate, not B/gate; it was not used");
    noTrace(wrong.stderr);
    expect(await approvalsOf("B")).toEqual([]);
    const right = await cli(["approve", "A", "gate", "--token", tokenA]);
    expect(right.code, right.stderr).toBe(0);
    const reused = await cli(["approve", "A", "gate", "--token", tokenA]);
    expect(reused.code).toBe(1);
    expect(reused.stderr).toMatch(/resume token for gate gate was already used at \S+; tokens are single-use/);
    expect((await cli(["resume", "A"])).stdout).toMatch(/run A: done/);
    expect((await cli(["resume", "B"])).stdout).toMatch(/blocked gate: approval/); // B's gate still closed
    // the token in the environment, as the VS Code extension passes it: never on a command line `ps` shows
    const fromEnv = await runCli(["approve", "B", "gate"], { TASKSPEC_RESUME_TOKEN: tokenB }, store);
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stdout).toContain("approved gate of B");
    expect((await cli(["resume", "B"])).stdout).toMatch(/run B: done/);
  });

  it("an operator identity approves under its own name; a second identity needs an existing key", async () => {
    await start("C");
    const key = join(dir, "ada.key");
    const init = await cli(["store", "init-operator", "ada", "--key-file", key]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`operator ada: key written to ${key}`);
    const again = await cli(["store", "init-operator", "mallory", "--key-file", join(dir, "mallory.key")]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/this store has operators already: a new one needs an existing operator's key/);
    const forged = join(dir, "forged.key");
    writeFileSync(forged, "tso_0123456789abcdefghijklmnopqrstuvwxyz01234\n");
    const bad = await cli(["approve", "C", "gate", "--operator-key-file", forged]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("the operator key is not one this store knows");
    const ok = await cli(["approve", "C", "gate", "--operator-key-file", key, "--by", "somebody-else"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/approved gate of C: ap_\S+ by ada,/);
    const events = (await cli(["events", "C", "--format", "json"])).stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; data?: Record<string, unknown> });
    expect(events.find((e) => e.type === "approval-granted")?.data).toMatchObject({ by: "ada", via: "operator" });
    expect((await cli(["resume", "C"])).stdout).toMatch(/run C: done/);
  });
});
