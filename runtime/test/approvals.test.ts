/**
 * Approvals bind run, gate, plan version and the hashes of the gate's input
 * artifacts; resume tokens are single-use, expire and release only their gate.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { approvalMismatch, grantApproval } from "../src/engine/approvals.js";
import { runPlan } from "../src/engine/run-plan.js";
import { ResumeTokenError } from "../src/errors.js";
import type { HandlerModule, UnitContext } from "../src/handler-api.js";
import { planVersionOf } from "../src/model/identity.js";
import * as operator from "../src/operator/actions.js";
import { fixturePlan, freshStore, tempDir } from "./fixtures/load.js";

const plan = fixturePlan("gate.task.yaml");
const NOW = () => new Date().toISOString();

function handlers() {
  const sends: unknown[] = [];
  let bVersion = 1;
  const module: HandlerModule = {
    units: {
      a: async (ctx: UnitContext) => (await ctx.write("a-out", "A"), { ok: true }),
      b: async (ctx: UnitContext) => (await ctx.write("b-out", `B${bVersion}`), { ok: true }),
      gate: async (ctx: UnitContext) => {
        const r = await ctx.tool("send", { to: "x" });
        await ctx.write("sent", { r });
        return { sent: true };
      },
    },
    // The send is recorded here: this test is about approval binding, not about the remote.
    tools: { send: { call: async (args) => (sends.push(args), { id: `m${sends.length}` }) } },
  };
  return { module, sends, bump: () => (bVersion += 1) };
}

async function setup() {
  const dir = tempDir();
  const store = await freshStore(dir);
  const h = handlers();
  const go = () =>
    runPlan({ store, plan, handlers: h.module, run: "R", artifacts: join(dir, "artifacts"), crash: () => {}, log: () => {} });
  return { store, h, go };
}

describe("approvals and resume tokens", () => {
  it("a gate blocks until approved; the token is single-use and belongs to its gate", async () => {
    const { store, h, go } = await setup();
    const first = await go();
    expect(first.status).toBe("blocked");
    expect(first.blocked.map((b) => [b.unit, b.reason])).toEqual([["gate", "approval"]]);
    const token = first.resumeTokens[0]!.token;
    expect((await go()).resumeTokens).toEqual([]); // one pending token per gate, not one per resume
    const req = { run: "R", unit: "gate", planVersion: planVersionOf(plan), by: "ada", expiresInMs: 60_000, now: NOW() };
    await expect(grantApproval(store, plan, { ...req, token: "rt_forged" })).rejects.toBeInstanceOf(ResumeTokenError);
    await grantApproval(store, plan, { ...req, token });
    await expect(grantApproval(store, plan, { ...req, token })).rejects.toThrow(/already used/);
    expect((await go()).status).toBe("done");
    expect(h.sends).toHaveLength(1);
    const [approval] = await store.listApprovals("R");
    const gateCommit = (await store.listCheckpoints("R")).find((c) => c.delta.some((d) => d.unit === "gate" && d.state === "succeeded"));
    expect(gateCommit?.approvals).toEqual([approval!.id]);
  });

  it("an approval stops applying when the gate's input artifacts change", async () => {
    const { store, h, go } = await setup();
    await go();
    const { key } = await operator.initOperator(store, "ada", NOW());
    await operator.approve(store, { run: "R", unit: "gate", by: "ada", operatorKey: key, expiresInMs: 60_000, now: NOW() });
    h.bump();
    await operator.rerun(store, "R", "b", { by: "ada", operatorKey: key }, NOW());
    const out = await go();
    expect(out.status).toBe("blocked");
    expect(out.blocked[0]).toMatchObject({ unit: "gate", reason: "approval" });
    expect(h.sends).toEqual([]);
    const [approval] = await store.listApprovals("R");
    expect(approvalMismatch(approval!, { run: "R", unit: "gate", planVersion: planVersionOf(plan), hashes: {}, now: NOW() })).toMatch(
      /other input artifacts/,
    );
  });

  it("approving needs a token or an operator key the store knows; the key's name is recorded, not the one given", async () => {
    const { store, go } = await setup();
    await go();
    const req = { run: "R", unit: "gate", by: "mallory", expiresInMs: 60_000, now: NOW() };
    await expect(operator.approve(store, req)).rejects.toThrow(/needs the gate's resume token \(--token.*or an operator key/);
    await expect(operator.approve(store, { ...req, operatorKey: "tso_made_up_key_aaaaaaaaaaaaaaaaaaaaaa" })).rejects.toThrow(
      /not one this store knows/,
    );
    const { key } = await operator.initOperator(store, "ada", NOW());
    // a second identity needs an existing operator's key: access to the store alone makes no operator
    await expect(operator.initOperator(store, "mallory", NOW())).rejects.toThrow(/needs an existing operator's key/);
    await expect(operator.initOperator(store, "ada", NOW(), key)).rejects.toThrow(/already has an operator ada/);
    const bob = await operator.initOperator(store, "bob", NOW(), key);
    const a = await operator.approve(store, { ...req, operatorKey: bob.key });
    expect(a.grantedBy).toBe("bob");
    const granted = await store.listEvents("R", { type: "approval-granted" });
    expect(granted.at(-1)?.data).toMatchObject({ by: "bob", via: "operator" });
    expect(await store.listApprovals("R")).toHaveLength(1);
  });

  it("a token tried on another gate is refused and stays valid for its own", async () => {
    const { store, go } = await setup();
    const token = (await go()).resumeTokens[0]!.token;
    const req = { run: "R", unit: "gate", planVersion: planVersionOf(plan), by: "ada", expiresInMs: 60_000, now: NOW() };
    await expect(grantApproval(store, plan, { ...req, run: "OTHER" })).rejects.toBeInstanceOf(ResumeTokenError);
    await expect(grantApproval(store, plan, { ...req, run: "OTHER", token })).rejects.toThrow(
      /belongs to gate R\/gate, not OTHER\/gate; it was not used/,
    );
    expect(await store.pendingResumeTokens("R", NOW())).toHaveLength(1);
    await grantApproval(store, plan, { ...req, token });
    expect(await store.pendingResumeTokens("R", NOW())).toHaveLength(0);
  });

  it("scope limits which tools an approval covers; expiry ends it", () => {
    const a = {
      id: "x",
      run: "R",
      unit: "gate",
      planVersion: "p",
      artifactHashes: {},
      scope: "tool:other",
      expiresAt: "2030-01-01T00:00:00.000Z",
      grantedBy: "ada",
      grantedAt: "2026-01-01T00:00:00.000Z",
    };
    const want = { run: "R", unit: "gate", planVersion: "p", hashes: {}, now: "2026-06-01T00:00:00.000Z" };
    expect(approvalMismatch(a, want)).toBeUndefined();
    expect(approvalMismatch(a, { ...want, tool: "send" })).toMatch(/does not cover tool send/);
    expect(approvalMismatch(a, { ...want, now: "2031-01-01T00:00:00.000Z" })).toMatch(/expired/);
    expect(approvalMismatch({ ...a, revokedAt: "2026-02-01T00:00:00.000Z" }, want)).toMatch(/revoked/);
    expect(approvalMismatch(a, { ...want, planVersion: "q" })).toMatch(/plan version p/);
  });
});
