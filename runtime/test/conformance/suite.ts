/**
 * The store conformance suite, written against the Store interface only.
 * Every backend runs it with `runConformance({ name, createStore, destroyStore })`.
 */
import type { PlanTool } from "@taskspec/compiler";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BudgetBlockedError,
  InvalidTransitionError,
  LeaseHeldError,
  NotFoundError,
  PlanVersionChangedError,
  ResumeTokenError,
  StaleFencingTokenError,
  VersionConflictError,
} from "../../src/errors.js";
import type { ArtifactManifest, LoopIteration } from "../../src/model/facts.js";
import { EffectKeyConflictError } from "../../src/store/effect-identity.js";
import { ImportConflictError } from "../../src/store/run-rows.js";
import type { CheckpointCommit, Store } from "../../src/store/types.js";
import { verifyChain } from "../../src/engine/chain.js";
import { auditFacts } from "../../src/operator/fact-audit.js";
import { keptReceipt, RECEIPT_MAX_BYTES } from "../../src/ledger/receipt.js";

export interface ConformanceSetup {
  name: string;
  createStore: () => Promise<Store>;
  destroyStore: (store: Store) => Promise<void>;
}

const T0 = "2026-01-01T00:00:00.000Z";
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

function manifest(run: string, unit: string, attempt: number, name: string): Omit<ArtifactManifest, "status" | "recordId"> {
  return {
    run,
    unit,
    attempt,
    name,
    path: `runs/${run}/${unit}/a${attempt}/${name}`,
    sha256: `sha-${unit}-${attempt}`,
    size: 3,
    mediaType: "application/json",
    planVersion: "p1",
    verifierResults: [{ name: "v", passed: true }],
    createdAt: T0,
  };
}

function completion(unit: string, attempt: number, token: number, run = "R"): CheckpointCommit {
  return {
    kind: "unit",
    fence: { unit, token },
    changes: [
      { kind: "complete", unit, attempt, result: { ok: unit }, sources: {}, artifacts: [manifest(run, unit, attempt, `${unit}-out`)] },
    ],
    approvals: [],
    nextAction: { kind: "run", units: [] },
    events: [{ at: at(5), type: "unit-succeeded", unit, attempt }],
    now: at(5),
  };
}

export function runConformance(setup: ConformanceSetup): void {
  describe(`store conformance: ${setup.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await setup.createStore();
      await store.init();
      await store.createRun({
        run: "R",
        taskId: "t",
        planVersion: "p1",
        inputVersion: "i1",
        plan: { p: 1 },
        caps: { model_calls: 5 },
        units: ["a", "b"],
        origin: { artifactRoot: "/x" },
        now: T0,
      });
    });
    afterEach(async () => setup.destroyStore(store));

    it("init is idempotent and reports the schema version", async () => {
      await store.init();
      expect(await store.schemaVersion()).toBeGreaterThanOrEqual(1);
    });

    it("clock answers the store's time as ISO text", async () => {
      const t = await store.clock();
      expect(new Date(t).toISOString()).toBe(t);
      expect(Math.abs(Date.parse(t) - Date.now())).toBeLessThan(60_000);
    });

    it("a worker registers by its heartbeat, beats again at the store's clock, stops, and is listed with the leases it holds", async () => {
      const first = await store.heartbeat({ id: "h:1:n:s", host: "h", pid: 1 });
      expect(first.workers.map((w) => w.id)).toContain("h:1:n:s");
      const mine = first.workers.find((w) => w.id === "h:1:n:s")!;
      expect(mine).toMatchObject({ host: "h", pid: 1, startedAt: mine.heartbeatAt });
      expect(mine.stoppedAt).toBeUndefined();
      expect(Math.abs(Date.parse(first.at) - Date.parse(await store.clock()))).toBeLessThan(60_000);
      await store.heartbeat({ id: "h:2:n:s", host: "h", pid: 2 });
      const again = await store.heartbeat({ id: "h:1:n:s", host: "h", pid: 1 });
      const beat = again.workers.find((w) => w.id === "h:1:n:s")!;
      expect(beat.startedAt).toBe(mine.startedAt);
      expect(beat.heartbeatAt >= mine.heartbeatAt).toBe(true);
      expect(again.workers.map((w) => w.id).sort()).toEqual(["h:1:n:s", "h:2:n:s"]);
      await store.claimUnit("R", "a", "h:1:n.3:s", 30_000, at(1));
      await store.stopWorker("h:2:n:s");
      const listed = await store.listWorkers();
      expect(listed.workers.find((w) => w.id === "h:2:n:s")!.stoppedAt).toBeDefined();
      expect(listed.workers.find((w) => w.id === "h:1:n:s")!.stoppedAt).toBeUndefined();
      expect(listed.leases.map((l) => [l.unit, l.owner])).toEqual([["a", "h:1:n.3:s"]]);
      // a stopped worker that beats again is live again
      const back = await store.heartbeat({ id: "h:2:n:s", host: "h", pid: 2 });
      expect(back.workers.find((w) => w.id === "h:2:n:s")!.stoppedAt).toBeUndefined();
    });

    it("eventsWindow pages back from the newest, oldest first within a window, and counts the whole log", async () => {
      const before = await store.listEvents("R");
      await store.appendEvents(
        "R",
        Array.from({ length: 25 }, (_, i) => ({ at: at(i), type: "note", data: { i } })),
      );
      const all = await store.listEvents("R");
      expect(all).toHaveLength(before.length + 25);
      const newest = await store.eventsWindow("R", { limit: 10 });
      expect(newest.total).toBe(all.length);
      expect(newest.events.map((e) => e.seq)).toEqual(all.slice(-10).map((e) => e.seq));
      const older = await store.eventsWindow("R", { limit: 10, beforeSeq: newest.events[0]!.seq });
      expect(older.events.map((e) => e.seq)).toEqual(all.slice(-20, -10).map((e) => e.seq));
      expect(older.events.map((e) => e.data)).toEqual(all.slice(-20, -10).map((e) => e.data));
      expect((await store.eventsWindow("R", { limit: 10, beforeSeq: all[0]!.seq })).events).toEqual([]);
      expect(await store.eventsWindow("nope", { limit: 10 })).toEqual({ events: [], total: 0 });
    });

    it("exportRunRows and importRunRows copy a run's rows exactly, move the sequences past them, and refuse a taken id", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      await store.prepareEffect(
        {
          id: "imp-e1",
          run: "R",
          unit: "a",
          attempt: c.attempt,
          seq: 1,
          tool: "post",
          toolClass: "dedup",
          intent: "post(title)",
          argsDigest: "d",
          requestHash: "h",
          key: "k",
          token: c.token,
          preparedAt: at(1),
        },
        { unit: "a", token: c.token },
      );
      await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token));
      await store.claimUnit("R", "b", "w1", 1000, at(6));
      const rows = (await store.exportRunRows("R"))!;
      expect(rows.runs).toHaveLength(1);
      expect(rows.plans.map((p) => p.plan_version)).toEqual(["p1"]);
      expect(rows.effects.map((e) => [e.id, e.token])).toEqual([["imp-e1", c.token]]);
      expect(await store.exportRunRows("nope")).toBeUndefined();

      const other = await setup.createStore();
      try {
        await other.init();
        await other.importRunRows(rows);
        expect(await other.exportRunRows("R")).toEqual(rows);
        expect(await other.listEvents("R")).toEqual(await store.listEvents("R"));
        expect(await other.loadFacts("R")).toEqual(await store.loadFacts("R"));
        // what the store hands out next is newer than anything imported
        const lastSeq = Math.max(...rows.events.map((e) => Number(e.seq)));
        await other.appendEvents("R", [{ at: at(7), type: "note" }]);
        expect((await other.listEvents("R")).at(-1)!.seq).toBeGreaterThan(lastSeq);
        await other.createRun({
          run: "S",
          taskId: "t",
          planVersion: "p1",
          inputVersion: "i1",
          plan: { p: 1 },
          caps: {},
          units: ["a"],
          origin: { artifactRoot: "/x" },
          now: T0,
        });
        const fresh = await other.claimUnit("S", "a", "w1", 1000, at(8));
        expect(fresh.token).toBeGreaterThan(Math.max(...[...rows.leases, ...rows.effects].map((r) => Number(r.token))));
        const again = await other.importRunRows(rows).catch((e: unknown) => e);
        expect(again).toBeInstanceOf(ImportConflictError);
        expect((again as Error).message).toContain("run R already exists in this store");
      } finally {
        await setup.destroyStore(other);
      }

      // the same rows under another run id: its event numbers are the original's, taken here; nothing is written
      const renamed = Object.fromEntries(
        Object.entries(rows).map(([t, list]) => [t, t === "plans" ? list : list.map((r) => ({ ...r, run: "R2" }))]),
      ) as typeof rows;
      const taken = await store.importRunRows(renamed).catch((e: unknown) => e);
      expect(taken).toBeInstanceOf(ImportConflictError);
      expect((taken as Error).message).toMatch(/the bundle's (unit record id|event) \d+ .*is already in this store/);
      expect(await store.getRun("R2")).toBeUndefined();
    });

    it("createRun writes version 0 with every unit pending, and refuses a duplicate", async () => {
      const cp = await store.latestCheckpoint("R");
      expect(cp).toMatchObject({ version: 0, parent: null, kind: "start", planVersion: "p1" });
      const facts = await store.loadFacts("R");
      expect(facts.units.map((u) => [u.unit, u.state])).toEqual([
        ["a", "pending"],
        ["b", "pending"],
      ]);
      expect(await store.getPlan("p1")).toEqual({ p: 1 });
      await expect(
        store.createRun({
          run: "R",
          taskId: "t",
          planVersion: "p1",
          inputVersion: "i1",
          plan: {},
          caps: {},
          units: [],
          origin: { artifactRoot: "/x" },
          now: T0,
        }),
      ).rejects.toBeInstanceOf(InvalidTransitionError);
    });

    it("claims give increasing fencing tokens and new attempt numbers", async () => {
      const c1 = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const c2 = await store.claimUnit("R", "b", "w1", 1000, at(1));
      expect(c1.attempt).toBe(1);
      expect(c2.token).toBeGreaterThan(c1.token);
      await expect(store.claimUnit("R", "a", "w2", 1000, at(1.5))).rejects.toBeInstanceOf(LeaseHeldError);
      const c3 = await store.claimUnit("R", "a", "w2", 1000, at(5));
      expect(c3.attempt).toBe(2);
      expect(c3.token).toBeGreaterThan(c2.token);
    });

    it("a claim round claims in order, stops at the first refusal and keeps the claims before it", async () => {
      const held = await store.claimUnit("R", "b", "w2", 1000, at(1));
      const round = await store.claimUnits("R", [{ unit: "a" }, { unit: "b" }, { unit: "a" }], "w1", 1000, at(1.5), 0);
      expect(round.claims.map((c) => [c.lease.unit, c.attempt, c.lease.owner])).toEqual([["a", 1, "w1"]]);
      expect(round.claims[0]!.token).toBeGreaterThan(held.token);
      expect(round.refused).toBeInstanceOf(LeaseHeldError);
      const facts = await store.loadFacts("R");
      expect(facts.leases.map((l) => [l.unit, l.owner]).sort()).toEqual([
        ["a", "w1"],
        ["b", "w2"],
      ]);
      // a stale version refuses the round's first claim: nothing claimed, nothing written
      const stale = await store.claimUnits("R", [{ unit: "b" }], "w1", 1000, at(9), 7);
      expect(stale.claims).toEqual([]);
      expect(stale.refused).toBeInstanceOf(VersionConflictError);
      // anything but a refusal is thrown
      await expect(store.claimUnits("nope", [{ unit: "a" }], "w1", 1000, at(9))).rejects.toThrow(/no run nope/);
    });

    it("a recovery claim takes a newer token and no attempt number; it fences the old holder", async () => {
      const c1 = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const fence = await store.claimUnit("R", "a", "w2", 1000, at(5), undefined, { recovery: true });
      expect(fence.token).toBeGreaterThan(c1.token);
      expect(fence.attempt).toBe(c1.attempt);
      await expect(store.renewLease("R", "a", c1.token, 1000, at(5.1))).rejects.toBeInstanceOf(StaleFencingTokenError);
      await store.releaseLease("R", "a", fence.token);
      const c2 = await store.claimUnit("R", "a", "w2", 1000, at(5.2));
      expect(c2.attempt).toBe(c1.attempt + 1);
      expect(c2.token).toBeGreaterThan(fence.token);
    });

    it("breaking the lease of an attempt that ended without a result counts a failure; a plain break does not", async () => {
      const c1 = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const error = { class: "worker-lost" as const, message: "its worker is gone", attempt: c1.attempt };
      await store.breakLease("R", "a", c1.token, { at: at(3), type: "lease-broken", unit: "a" }, { error });
      let row = (await store.loadFacts("R")).units.find((u) => u.unit === "a");
      expect(row).toMatchObject({ failures: 1, lastError: { class: "worker-lost" } });
      const c2 = await store.claimUnit("R", "a", "w2", 1000, at(4));
      await store.breakLease("R", "a", c2.token, { at: at(6), type: "lease-broken", unit: "a" });
      await store.breakLease("R", "a", c2.token, { at: at(6), type: "lease-broken", unit: "a" }, { error }); // gone already: nothing
      row = (await store.loadFacts("R")).units.find((u) => u.unit === "a");
      expect(row?.failures).toBe(1);
    });

    it("a claim or commit under a plan the run has left is refused, and a plan change from it too; nothing is written", async () => {
      const planChange = (from: string, to: string): CheckpointCommit => ({
        kind: "plan-change",
        changes: [],
        plan: { planVersion: to, inputVersion: "i1", plan: { p: to } },
        planVersion: from,
        approvals: [],
        nextAction: { kind: "run", units: [] },
        events: [],
        now: at(2),
      });
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1), undefined, { planVersion: "p1" });
      const effect = (id: string) => ({
        id,
        run: "R",
        unit: "a",
        attempt: c.attempt,
        seq: Number(id.slice(1)),
        tool: "post",
        toolClass: "dedup" as const,
        intent: "post(title)",
        argsDigest: "d",
        requestHash: "h",
        key: `k-${id}`,
        token: c.token,
        preparedAt: at(1),
      });
      // under its plan the attempt records a side effect; once the run has left it, none
      await store.prepareEffect(effect("e1"), { unit: "a", token: c.token, planVersion: "p1" });
      await store.commitCheckpoint("R", 0, planChange("p1", "p2"));
      const refusedEffect = await store
        .prepareEffect(effect("e2"), { unit: "a", token: c.token, planVersion: "p1" })
        .catch((e: unknown) => e);
      expect(refusedEffect).toBeInstanceOf(PlanVersionChangedError);
      expect(refusedEffect).toMatchObject({ held: "p1", current: "p2" });
      expect((await store.listEffects("R")).map((e) => e.id)).toEqual(["e1"]);
      const stale = await store
        .commitCheckpoint("R", 1, { ...completion("a", c.attempt, c.token), planVersion: "p1" })
        .catch((e: unknown) => e);
      expect(stale).toBeInstanceOf(PlanVersionChangedError);
      expect(stale).toMatchObject({ held: "p1", current: "p2" });
      await expect(store.claimUnit("R", "b", "w1", 1000, at(3), undefined, { planVersion: "p1" })).rejects.toBeInstanceOf(
        PlanVersionChangedError,
      );
      await expect(store.claimUnit("R", "b", "w1", 1000, at(3), undefined, { planVersion: "p1", recovery: true })).rejects.toBeInstanceOf(
        PlanVersionChangedError,
      );
      // a worker that read the old contract before the change cannot move the run back to it
      await expect(store.commitCheckpoint("R", 1, planChange("p1", "p1"))).rejects.toBeInstanceOf(PlanVersionChangedError);
      expect((await store.latestCheckpoint("R")).version).toBe(1);
      expect((await store.getRun("R"))?.planVersion).toBe("p2");
      expect(await store.getRecords("R")).toEqual([]);
      // the old plan's failure is not counted under the new one: refused, the worker ends the attempt uncounted
      const error = { class: "verifier-failed" as const, message: "v failed", attempt: c.attempt };
      await expect(
        store.endAttempt("R", "a", c.token, { countsAsFailure: true, error, rejected: [], planVersion: "p1" }, []),
      ).rejects.toBeInstanceOf(PlanVersionChangedError);
      await store.endAttempt("R", "a", c.token, { countsAsFailure: false, rejected: [] }, [
        { at: at(3), type: "attempt-discarded", unit: "a", data: { reason: "plan-changed" } },
      ]);
      const facts = await store.loadFacts("R");
      expect(facts.units.find((u) => u.unit === "a")).toMatchObject({ state: "pending", failures: 0 });
      expect(facts.leases).toEqual([]);
      const fresh = await store.claimUnit("R", "a", "w2", 1000, at(4), undefined, { planVersion: "p2" });
      await store.commitCheckpoint("R", 1, { ...completion("a", fresh.attempt, fresh.token), planVersion: "p2" });
      expect((await store.getRecords("R", { status: "current" })).map((r) => [r.unit, r.planVersion])).toEqual([["a", "p2"]]);
    });

    it("an attempt whose unit a plan change removed ends (uncounted), releasing its lease", async () => {
      const c = await store.claimUnit("R", "b", "w1", 1000, at(1), undefined, { planVersion: "p1" });
      await store.commitCheckpoint("R", 0, {
        kind: "plan-change",
        changes: [{ kind: "remove", unit: "b", info: { path: "b removed", direct: true, planVersion: "p2" } }],
        plan: { planVersion: "p2", inputVersion: "i1", plan: { p: 2 } },
        planVersion: "p1",
        approvals: [],
        nextAction: { kind: "run", units: [] },
        events: [],
        now: at(2),
      });
      await expect(store.commitCheckpoint("R", 1, { ...completion("b", c.attempt, c.token), planVersion: "p1" })).rejects.toBeInstanceOf(
        PlanVersionChangedError,
      );
      await store.endAttempt("R", "b", c.token, { countsAsFailure: false, rejected: [manifest("R", "b", c.attempt, "b-out")] }, [
        { at: at(3), type: "attempt-discarded", unit: "b", data: { reason: "plan-changed" } },
      ]);
      const facts = await store.loadFacts("R");
      expect(facts.units.map((u) => u.unit)).toEqual(["a"]);
      expect(facts.leases).toEqual([]);
      expect((await store.listArtifacts("R", { unit: "b" })).map((x) => x.status)).toEqual(["rejected"]);
    });

    it("a claim with a stale expected version is a version conflict", async () => {
      await expect(store.claimUnit("R", "a", "w1", 1000, at(1), 7)).rejects.toBeInstanceOf(VersionConflictError);
    });

    it("commits are compare-and-set on the version and extend a verifiable chain", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const h = await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token));
      expect(h).toMatchObject({ version: 1, parent: 0, kind: "unit" });
      await expect(store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token))).rejects.toBeInstanceOf(VersionConflictError);
      verifyChain(await store.listChainLinks("R"));
      const facts = await store.loadFacts("R");
      expect(facts.units.find((u) => u.unit === "a")?.state).toBe("succeeded");
      expect(facts.leases).toEqual([]);
      expect(facts.run.version).toBe(1);
      const [rec] = await store.getRecords("R", { unit: "a", status: "current" });
      expect(rec?.result).toEqual({ ok: "a" });
      expect((await store.listArtifacts("R", { recordId: rec!.id })).map((x) => x.name)).toEqual(["a-out"]);
    });

    it("a completion commit books the attempt's time it carries, in its checkpoint and on the run", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      await store.chargeBudget("R", { tool_calls: 3 }, { at: at(1.1), type: "budget-charged", unit: "a" });
      const h = await store.commitCheckpoint("R", 0, { ...completion("a", c.attempt, c.token), charge: { wall_clock_ms: 250 } });
      expect(h.budgetUsed).toEqual({ tool_calls: 3, wall_clock_ms: 250 });
      expect((await store.getRun("R"))?.budgetUsed).toEqual({ tool_calls: 3, wall_clock_ms: 250 });
      verifyChain(await store.listChainLinks("R"));
    });

    it("activeRuns lists the active runs with their change counter and latest event, which every write moves", async () => {
      const [first, ...rest] = await store.activeRuns();
      expect(rest).toEqual([]);
      expect(first).toMatchObject({ ...(await store.getRun("R")), changeSeq: (await store.loadFacts("R")).changeSeq });
      const last = (await store.listEvents("R")).at(-1)?.seq ?? 0;
      expect(first!.lastEventSeq).toBe(last);
      await store.appendEvents("R", [{ at: at(1), type: "note" }]);
      const noted = (await store.activeRuns())[0]!;
      expect(noted.lastEventSeq).toBe((await store.listEvents("R")).at(-1)!.seq);
      expect(noted.lastEventSeq).toBeGreaterThan(last);
      await store.claimUnit("R", "a", "w1", 1000, at(2));
      expect((await store.activeRuns())[0]!.changeSeq).toBeGreaterThan(noted.changeSeq);
      await store.setRunStatus("R", "cancelled", { at: at(3), type: "run-cancelled" });
      expect(await store.activeRuns()).toEqual([]);
    });

    it("loadFacts since a change sequence number returns only the unit rows changed after it", async () => {
      const full = await store.loadFacts("R");
      expect(full.units).toHaveLength(2);
      const none = await store.loadFacts("R", full.changeSeq);
      expect(none.units).toEqual([]);
      expect(none.changeSeq).toBe(full.changeSeq);
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const afterClaim = await store.loadFacts("R", full.changeSeq);
      expect(afterClaim.units.map((u) => [u.unit, u.attempts])).toEqual([["a", 1]]);
      await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token));
      await store.setUnitHold("R", "b", { reason: "approval", detail: "d", at: at(2) }, { at: at(2), type: "blocked", unit: "b" });
      const later = await store.loadFacts("R", afterClaim.changeSeq);
      expect(later.units.map((u) => [u.unit, u.state]).sort()).toEqual([
        ["a", "succeeded"],
        ["b", "pending"],
      ]);
      expect(later.changeSeq).toBeGreaterThan(afterClaim.changeSeq);
    });

    it("the chain detects an edited checkpoint", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token));
      const links = await store.listChainLinks("R");
      expect(() => verifyChain(links)).not.toThrow();
      const edited = links.map((l) =>
        l.material.version === 1 ? { ...l, material: { ...l.material, delta: l.material.delta.replace("succeeded", "failed") } } : l,
      );
      expect(() => verifyChain(edited)).toThrow(/does not match its digest/);
      expect(() => verifyChain(links.slice(1))).toThrow(/gap/);
    });

    it("a stale fencing token is rejected and says so; nothing is written", async () => {
      const old = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const fresh = await store.claimUnit("R", "a", "w2", 1000, at(3));
      const err = await store.commitCheckpoint("R", 0, completion("a", old.attempt, old.token)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StaleFencingTokenError);
      expect(String((err as Error).message)).toMatch(new RegExp(`stale fencing token ${old.token}.*token ${fresh.token} held by w2`));
      expect((await store.latestCheckpoint("R")).version).toBe(0);
      expect(await store.getRecords("R")).toEqual([]);
      await expect(
        store.prepareEffect(
          {
            id: "e",
            run: "R",
            unit: "a",
            attempt: 1,
            seq: 1,
            tool: "t",
            toolClass: "dedup",
            intent: "t()",
            argsDigest: "d",
            token: old.token,
            preparedAt: at(3),
          },
          { unit: "a", token: old.token },
        ),
      ).rejects.toBeInstanceOf(StaleFencingTokenError);
      await expect(store.renewLease("R", "a", old.token, 1000, at(3))).rejects.toBeInstanceOf(StaleFencingTokenError);
    });

    it("a stale fencing token on a run that has since finished is still reported as stale, not as a refused transition", async () => {
      const old = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const fresh = await store.claimUnit("R", "a", "w2", 1000, at(3));
      await store.commitCheckpoint("R", 0, { ...completion("a", fresh.attempt, fresh.token), status: "done" });
      expect((await store.getRun("R"))?.status).toBe("done");
      const err = await store.commitCheckpoint("R", 1, completion("a", old.attempt, old.token)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StaleFencingTokenError);
      expect((await store.latestCheckpoint("R")).version).toBe(1);
    });

    it("a group commit writes consecutive versions in one transaction, all or nothing", async () => {
      const ca = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const cb = await store.claimUnit("R", "b", "w1", 1000, at(1));
      await expect(
        store.commitCheckpoints("R", 0, [completion("a", ca.attempt, ca.token), completion("b", cb.attempt, cb.token + 100)]),
      ).rejects.toBeInstanceOf(StaleFencingTokenError);
      expect((await store.latestCheckpoint("R")).version).toBe(0);
      const hs = await store.commitCheckpoints("R", 0, [completion("a", ca.attempt, ca.token), completion("b", cb.attempt, cb.token)]);
      expect(hs.map((h) => h.version)).toEqual([1, 2]);
    });

    it("a failing hook inside the transaction leaves the previous checkpoint whole", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      await expect(
        store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token), {
          insideTransaction: () => {
            throw new Error("torn");
          },
        }),
      ).rejects.toThrow("torn");
      expect((await store.latestCheckpoint("R")).version).toBe(0);
      expect(await store.getRecords("R")).toEqual([]);
      expect(await store.listArtifacts("R")).toEqual([]);
      expect((await store.loadFacts("R")).leases.length).toBe(1);
    });

    it("supersede keeps the record; restore brings it back; reset re-opens a unit", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token));
      const base: Omit<CheckpointCommit, "changes" | "kind"> = {
        approvals: [],
        nextAction: { kind: "run", units: [] },
        events: [],
        now: at(6),
      };
      await store.commitCheckpoint("R", 1, {
        ...base,
        kind: "plan-change",
        plan: { planVersion: "p2", inputVersion: "i2", plan: { p: 2 } },
        changes: [{ kind: "supersede", unit: "a", info: { path: "x --content--> a", direct: false, planVersion: "p2" } }],
      });
      let facts = await store.loadFacts("R");
      const a = facts.units.find((u) => u.unit === "a")!;
      expect(a).toMatchObject({ state: "superseded", superseded: { path: "x --content--> a", direct: false } });
      expect(facts.run.planVersion).toBe("p2");
      expect((await store.getRecords("R", { status: "superseded" })).map((r) => [r.unit, r.supersededReason])).toEqual([
        ["a", "x --content--> a"],
      ]);
      await store.commitCheckpoint("R", 2, { ...base, kind: "cutoff", changes: [{ kind: "restore", unit: "a" }] });
      facts = await store.loadFacts("R");
      expect(facts.units.find((u) => u.unit === "a")?.state).toBe("succeeded");
      expect((await store.getRecords("R", { status: "current" })).length).toBe(1);
      await store.commitCheckpoint("R", 3, {
        ...base,
        kind: "decision",
        changes: [
          { kind: "reset", unit: "a" },
          { kind: "reset", unit: "new" },
        ],
      });
      facts = await store.loadFacts("R");
      expect(facts.units.map((u) => [u.unit, u.state]).sort()).toEqual([
        ["a", "pending"],
        ["b", "pending"],
        ["new", "pending"],
      ]);
      verifyChain(await store.listChainLinks("R"));
    });

    it("endAttempt counts failures, records rejected artifacts and releases the lease", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      await store.endAttempt(
        "R",
        "a",
        c.token,
        {
          countsAsFailure: true,
          error: { class: "verifier-failed", message: "no", attempt: 1 },
          rejected: [manifest("R", "a", 1, "a-out")],
        },
        [{ at: at(2), type: "attempt-failed", unit: "a" }],
      );
      const facts = await store.loadFacts("R");
      expect(facts.units.find((u) => u.unit === "a")).toMatchObject({ failures: 1, lastError: { class: "verifier-failed" } });
      expect(facts.leases).toEqual([]);
      expect((await store.listArtifacts("R", { status: "rejected" })).length).toBe(1);
    });

    it("a failure's retry backoff is a fact: loaded (also incrementally), binding claims, cleared by the unit's next commit", async () => {
      const since = (await store.loadFacts("R")).changeSeq;
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const failed = { class: "handler-error" as const, message: "503", attempt: 1 };
      await store.endAttempt("R", "a", c.token, { countsAsFailure: true, error: failed, rejected: [], notBefore: at(10) }, [
        { at: at(2), type: "retry-scheduled", unit: "a", attempt: 1, data: { delayMs: 8000 } },
      ]);
      expect((await store.loadFacts("R")).units.find((u) => u.unit === "a")).toMatchObject({ failures: 1, notBefore: at(10) });
      expect((await store.loadFacts("R", since)).units.map((u) => [u.unit, u.notBefore])).toEqual([["a", at(10)]]);
      // no worker starts the next attempt before the backoff is over; a recovery lease (no attempt) may be taken
      await expect(store.claimUnit("R", "a", "w2", 1000, at(5))).rejects.toBeInstanceOf(InvalidTransitionError);
      const recovery = await store.claimUnit("R", "a", "w2", 1000, at(5), undefined, { recovery: true });
      await store.releaseLease("R", "a", recovery.token);
      const c2 = await store.claimUnit("R", "a", "w2", 1000, at(10));
      expect(c2.attempt).toBe(2);
      await store.commitCheckpoint("R", 0, completion("a", 2, c2.token));
      expect((await store.loadFacts("R")).units.find((u) => u.unit === "a")?.notBefore).toBeUndefined();
    });

    const iterationOf = (unit: string, attempt: number, n: number, loop = "L1"): Omit<LoopIteration, "closedAt"> => ({
      run: "R",
      unit,
      loop,
      iteration: n,
      max: 4,
      attempt,
      result: { n },
      artifacts: [{ ...manifest("R", unit, attempt, `${unit}-out`), path: `runs/R/${unit}/a${attempt}/i${n}/${unit}-out` }],
      committedAt: at(n),
    });

    it("loop iterations are committed once under the attempt's fence, with their files, and listed by unit and loop", async () => {
      const c1 = await store.claimUnit("R", "a", "w1", 60_000, at(1));
      const ev = (n: number) => ({ at: at(n), type: "iteration-committed", unit: "a", attempt: c1.attempt, data: { iteration: n } });
      await store.commitIteration(iterationOf("a", 1, 1), { unit: "a", token: c1.token }, ev(1));
      await store.commitIteration(iterationOf("a", 1, 2), { unit: "a", token: c1.token }, ev(2));
      // an iteration is paid once: the same number of the same loop is refused, nothing written
      await expect(store.commitIteration(iterationOf("a", 1, 2), { unit: "a", token: c1.token }, ev(2))).rejects.toBeInstanceOf(
        InvalidTransitionError,
      );
      const listed = await store.listIterations("R", { unit: "a", loop: "L1", open: true });
      expect(listed.map((it) => [it.iteration, it.attempt, it.max, it.result, it.closedAt])).toEqual([
        [1, 1, 4, { n: 1 }, undefined],
        [2, 1, 4, { n: 2 }, undefined],
      ]);
      expect(listed[1]!.artifacts.map((a) => a.path)).toEqual(["runs/R/a/a1/i2/a-out"]);
      expect(await store.listIterations("R", { unit: "a", loop: "other" })).toEqual([]);
      expect(await store.listIterations("R", { unit: "b" })).toEqual([]);
      // the files are recorded (never orphans), not current
      expect((await store.listArtifacts("R", { unit: "a" })).map((a) => [a.path, a.status])).toEqual([
        ["runs/R/a/a1/i1/a-out", "rejected"],
        ["runs/R/a/a1/i2/a-out", "rejected"],
      ]);
      expect((await store.listEvents("R", { type: "iteration-committed" })).map((e) => e.data?.iteration)).toEqual([1, 2]);
      // a stale token is refused: the worker that lost its lease cannot commit an iteration
      await store.breakLease("R", "a", c1.token, { at: at(3), type: "lease-broken", unit: "a" });
      const c2 = await store.claimUnit("R", "a", "w2", 60_000, at(3));
      await expect(store.commitIteration(iterationOf("a", 1, 3), { unit: "a", token: c1.token }, ev(3))).rejects.toBeInstanceOf(
        StaleFencingTokenError,
      );
      expect((await store.listIterations("R", { unit: "a" })).length).toBe(2);
      // the next attempt continues the loop; its completion commits an earlier iteration's file as the output
      await store.commitIteration(iterationOf("a", c2.attempt, 3), { unit: "a", token: c2.token }, ev(3));
      const last = iterationOf("a", 1, 2).artifacts[0]!;
      await store.commitCheckpoint("R", 0, {
        ...completion("a", c2.attempt, c2.token),
        changes: [
          {
            kind: "complete",
            unit: "a",
            attempt: c2.attempt,
            result: { n: 3 },
            sources: {},
            artifacts: [last],
            rejected: [iterationOf("a", 1, 1).artifacts[0]!, iterationOf("a", c2.attempt, 3).artifacts[0]!],
          },
        ],
      });
      const arts = await store.listArtifacts("R", { unit: "a" });
      expect(arts.map((a) => [a.path, a.status])).toEqual([
        ["runs/R/a/a1/i1/a-out", "rejected"],
        ["runs/R/a/a1/i2/a-out", "committed"],
        ["runs/R/a/a2/i3/a-out", "rejected"],
      ]);
      // the commit that completed the unit closed its loop: nothing left to resume from
      expect(await store.listIterations("R", { unit: "a", open: true })).toEqual([]);
      const all = await store.listIterations("R", { unit: "a" });
      expect(all.map((it) => [it.iteration, it.closedAt !== undefined])).toEqual([
        [1, true],
        [2, true],
        [3, true],
      ]);
    });

    it("an attempt that fails after its loop ended closes the loop; one that fails inside it leaves it open", async () => {
      const c1 = await store.claimUnit("R", "a", "w1", 60_000, at(1));
      await store.commitIteration(iterationOf("a", 1, 1), { unit: "a", token: c1.token }, { at: at(1), type: "iteration-committed" });
      await store.endAttempt(
        "R",
        "a",
        c1.token,
        { countsAsFailure: true, error: { class: "handler-error", message: "threw in iteration 2", attempt: 1 }, rejected: [] },
        [{ at: at(2), type: "attempt-failed", unit: "a" }],
      );
      expect((await store.listIterations("R", { unit: "a", open: true })).map((it) => it.iteration)).toEqual([1]);
      const c2 = await store.claimUnit("R", "a", "w1", 60_000, at(3));
      await store.commitIteration(iterationOf("a", 2, 2), { unit: "a", token: c2.token }, { at: at(3), type: "iteration-committed" });
      await store.endAttempt(
        "R",
        "a",
        c2.token,
        {
          countsAsFailure: true,
          error: { class: "loop-exhausted", message: "max", attempt: 2 },
          rejected: [],
          closeIterations: true,
        },
        [{ at: at(4), type: "attempt-failed", unit: "a" }],
      );
      expect(await store.listIterations("R", { unit: "a", open: true })).toEqual([]);
      expect((await store.listIterations("R", { unit: "a" })).map((it) => [it.iteration, it.closedAt])).toEqual([
        [1, at(4)],
        [2, at(4)],
      ]);
      // a closed loop is history: the retry commits its iterations afresh
      const c3 = await store.claimUnit("R", "a", "w1", 60_000, at(5));
      await store.commitIteration(
        { ...iterationOf("a", 3, 1), committedAt: at(5) },
        { unit: "a", token: c3.token },
        { at: at(5), type: "iteration-committed" },
      );
      expect((await store.listIterations("R", { unit: "a", open: true })).map((it) => [it.iteration, it.attempt])).toEqual([[1, 3]]);
      expect((await store.listIterations("R", { unit: "a" })).map((it) => [it.iteration, it.attempt])).toEqual([
        [1, 1],
        [1, 3],
        [2, 2],
      ]);
    });

    it("paid calls are journalled under the lease, answered once, and closed by a verdict", async () => {
      const call = (attempt: number, seq: number, state: "started" | "replayed", requestHash = `h${seq}`) => ({
        run: "R",
        unit: "a",
        attempt,
        seq,
        iteration: 1,
        kind: "model" as const,
        requestHash,
        state,
        at: at(1),
      });
      const c1 = await store.claimUnit("R", "a", "w1", 60_000, at(1));
      await store.journalPaidCall(call(1, 0, "started"), { unit: "a", token: c1.token });
      await store.answerPaidCall(
        { run: "R", unit: "a", attempt: 1, seq: 0 },
        { state: "answered", reply: { content: "hi" }, replayable: true, answeredAt: at(2) },
      );
      // an answer is recorded once: a second one (or a late failure) leaves it as it is
      await store.answerPaidCall({ run: "R", unit: "a", attempt: 1, seq: 0 }, { state: "failed", answeredAt: at(3) });
      await store.journalPaidCall(call(1, 1, "started"), { unit: "a", token: c1.token });
      expect(
        (await store.listPaidCalls("R", { unit: "a", open: true })).map((c) => [
          c.attempt,
          c.seq,
          c.state,
          c.reply,
          c.replayable,
          c.answeredAt,
        ]),
      ).toEqual([
        [1, 0, "answered", { content: "hi" }, true, at(2)],
        [1, 1, "started", undefined, undefined, undefined],
      ]);
      // the worker died: its lease is broken, the journal stays open; the old token journals nothing more
      await store.breakLease("R", "a", c1.token, { at: at(3), type: "lease-broken", unit: "a" });
      await expect(store.journalPaidCall(call(1, 2, "started"), { unit: "a", token: c1.token })).rejects.toBeInstanceOf(
        StaleFencingTokenError,
      );
      const c2 = await store.claimUnit("R", "a", "w2", 60_000, at(4));
      await store.journalPaidCall(call(c2.attempt, 0, "replayed", "h0"), { unit: "a", token: c2.token });
      // an attempt held at a gate (ended uncounted) keeps the journal open
      await store.endAttempt("R", "a", c2.token, { countsAsFailure: false, rejected: [] }, [
        { at: at(5), type: "attempt-blocked", unit: "a" },
      ]);
      expect((await store.listPaidCalls("R", { unit: "a", open: true })).length).toBe(3);
      // a verdict closes it
      const c3 = await store.claimUnit("R", "a", "w2", 60_000, at(6));
      await store.endAttempt(
        "R",
        "a",
        c3.token,
        {
          countsAsFailure: true,
          error: { class: "verifier-failed", message: "no", attempt: c3.attempt },
          rejected: [],
          closeJournal: true,
        },
        [{ at: at(7), type: "attempt-failed", unit: "a" }],
      );
      expect(await store.listPaidCalls("R", { unit: "a", open: true })).toEqual([]);
      expect((await store.listPaidCalls("R", { unit: "a" })).map((c) => c.closedAt)).toEqual([at(7), at(7), at(7)]);
      // and so does a commit that changes the unit
      const c4 = await store.claimUnit("R", "a", "w2", 60_000, at(8));
      await store.journalPaidCall(call(c4.attempt, 0, "started"), { unit: "a", token: c4.token });
      await store.journalPaidCall(
        { ...call(c4.attempt, 0, "started"), unit: "b" },
        { unit: "b", token: (await store.claimUnit("R", "b", "w2", 60_000, at(8))).token },
      );
      await store.commitCheckpoint("R", 0, completion("a", c4.attempt, c4.token));
      expect(await store.listPaidCalls("R", { unit: "a", open: true })).toEqual([]);
      expect((await store.listPaidCalls("R", { open: true })).map((c) => c.unit)).toEqual(["b"]);
    });

    it("budget charges are atomic against caps; a refused charge adds nothing; caps are decisions", async () => {
      expect(await store.chargeBudget("R", { model_calls: 3 }, { at: at(1), type: "budget-charged" })).toMatchObject({
        ok: true,
        used: { model_calls: 3 },
      });
      expect(await store.chargeBudget("R", { model_calls: 3 }, { at: at(1), type: "budget-charged" })).toEqual({
        ok: false,
        budget: "model_calls",
        used: 3,
        cap: 5,
        requested: 3,
      });
      expect((await store.getRun("R"))?.budgetUsed).toEqual({ model_calls: 3 });
      await store.setCaps("R", { model_calls: 10 }, { at: at(2), type: "decision", data: { action: "budget-raise" } });
      expect((await store.chargeBudget("R", { model_calls: 3, tokens: 9 }, { at: at(3), type: "budget-charged" })).ok).toBe(true);
      expect((await store.getRun("R"))?.budgetUsed).toEqual({ model_calls: 6, tokens: 9 });
      expect((await store.listEvents("R", { type: "decision" })).length).toBe(1);
    });

    it("a claim books the unit's declared cost in its transaction: of two claims racing for the last of a cap, one claims", async () => {
      // cap model_calls 5: each claim books 3, so only one fits
      const raced = await Promise.allSettled([
        store.claimUnit("R", "a", "w1", 1000, at(1), undefined, { reserve: { model_calls: 3, tokens: 7 } }),
        store.claimUnit("R", "b", "w2", 1000, at(1), undefined, { reserve: { model_calls: 3, tokens: 7 } }),
      ]);
      const won = raced.filter((r) => r.status === "fulfilled");
      const lost = raced.filter((r) => r.status === "rejected");
      expect(won.length).toBe(1);
      expect(lost.length).toBe(1);
      expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(BudgetBlockedError);
      expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ budget: "model_calls", used: 3, cap: 5, requested: 3 });
      const claim = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<Store["claimUnit"]>>>).value;
      expect(claim.reserved).toEqual({ model_calls: 3, tokens: 7 });
      const winner = claim.lease.unit;
      const loser = winner === "a" ? "b" : "a";
      let facts = await store.loadFacts("R");
      expect(facts.run.budgetUsed).toEqual({ model_calls: 3, tokens: 7 });
      expect(facts.leases.map((l) => [l.unit, l.reserved])).toEqual([[winner, { model_calls: 3, tokens: 7 }]]);
      expect(facts.units.find((u) => u.unit === loser)?.attempts).toBe(0); // the refused claim took nothing
      const reserved = await store.listEvents("R", { type: "budget-reserved" });
      expect(reserved.map((e) => [e.unit, e.attempt, e.data])).toEqual([[winner, 1, { model_calls: 3, tokens: 7, for: "declared cost" }]]);
      // a recovery lease books nothing, even when the cost would not fit
      const rec = await store.claimUnit("R", loser, "w2", 1000, at(2), undefined, { recovery: true, reserve: { model_calls: 3 } });
      expect(rec.reserved).toEqual({});
      await store.releaseLease("R", loser, rec.token);
      // the attempt's worker dies before it drew anything: the recovery releases its booking; a retry books again
      await store.breakLease(
        "R",
        winner,
        claim.token,
        { at: at(3), type: "lease-broken" },
        {
          error: { class: "worker-lost", message: "gone", attempt: 1 },
        },
      );
      expect((await store.getRun("R"))?.budgetUsed).toEqual({ model_calls: 0, tokens: 0 });
      const again = await store.claimUnit("R", winner, "w1", 1000, at(4), undefined, { reserve: { model_calls: 2 } });
      expect(again.attempt).toBe(2);
      facts = await store.loadFacts("R");
      expect(facts.run.budgetUsed).toEqual({ model_calls: 2, tokens: 0 });
      expect(facts.leases.map((l) => l.reserved)).toEqual([{ model_calls: 2 }]);
    });

    it("an attempt's own charges draw on its booking; whatever ends its lease releases what it did not draw, once", async () => {
      // cap model_calls 5; each attempt books model_calls 3, tokens 100
      const book = { reserve: { model_calls: 3, tokens: 100 } };
      const used = async () => (await store.getRun("R"))!.budgetUsed;
      const charged = (unit: string, attempt: number, s: number) => ({ at: at(s), type: "budget-charged", unit, attempt });

      // (1) killed while a model call was out: the call drew 1, its tokens never came; the break settles the rest
      const a1 = await store.claimUnit("R", "a", "w1", 1000, at(1), undefined, book);
      expect(await store.chargeBudget("R", { model_calls: 1 }, charged("a", 1, 1.1), "check", { unit: "a", token: a1.token })).toEqual({
        ok: true,
        used: { model_calls: 3, tokens: 100 },
      });
      expect((await store.loadFacts("R")).leases.map((l) => l.reserved)).toEqual([{ model_calls: 2, tokens: 100 }]);
      const drew = (await store.listEvents("R", { type: "budget-charged" })).map((e) => e.data);
      expect(drew).toEqual([{ reserved: { model_calls: 1 } }]);
      await store.breakLease("R", "a", a1.token, { at: at(2), type: "lease-broken", unit: "a" });
      expect(await used()).toEqual({ model_calls: 1, tokens: 0 });
      // settling twice changes nothing: the lease is gone with its booking
      await store.breakLease("R", "a", a1.token, { at: at(2.5), type: "lease-broken", unit: "a" });
      await store.releaseLease("R", "a", a1.token);
      expect(await used()).toEqual({ model_calls: 1, tokens: 0 });
      // a stale attempt's charge after the break draws on nothing: what it spends is added whole
      await store.chargeBudget("R", { tokens: 40 }, charged("a", 1, 2.6), "record", { unit: "a", token: a1.token });
      expect(await used()).toEqual({ model_calls: 1, tokens: 40 });

      // (2) a result: its commit settles the booking in the checkpoint that commits it
      const a2 = await store.claimUnit("R", "a", "w1", 1000, at(3), undefined, book);
      await store.chargeBudget("R", { model_calls: 1 }, charged("a", 2, 3.1), "check", { unit: "a", token: a2.token });
      await store.chargeBudget("R", { tokens: 130 }, charged("a", 2, 3.2), "record", { unit: "a", token: a2.token });
      expect(await used()).toEqual({ model_calls: 4, tokens: 170 }); // 100 drawn, 30 beyond the booking
      const h = await store.commitCheckpoint("R", 0, completion("a", a2.attempt, a2.token));
      expect(h.budgetUsed).toEqual({ model_calls: 2, tokens: 170 });
      expect(await used()).toEqual({ model_calls: 2, tokens: 170 });
      verifyChain(await store.listChainLinks("R"));

      // (3) an attempt's own end (failed, blocked at a gate or by the budget) settles it too
      const b1 = await store.claimUnit("R", "b", "w1", 1000, at(4), undefined, book);
      await store.chargeBudget("R", { model_calls: 2 }, charged("b", 1, 4.1), "check", { unit: "b", token: b1.token });
      await store.endAttempt("R", "b", b1.token, { countsAsFailure: true, rejected: [] }, [{ at: at(5), type: "attempt-failed" }]);
      expect(await used()).toEqual({ model_calls: 4, tokens: 170 });

      // (4) a claim taking over an expired lease settles it before it books its own
      const b2 = await store.claimUnit("R", "b", "w1", 1000, at(6), undefined, { reserve: { model_calls: 1 } });
      expect(await used()).toEqual({ model_calls: 5, tokens: 170 });
      const b3 = await store.claimUnit("R", "b", "w2", 1000, at(8), undefined, { reserve: { model_calls: 1 } });
      expect(b3.attempt).toBe(b2.attempt + 1);
      expect(await used()).toEqual({ model_calls: 5, tokens: 170 }); // b2's 1 released, b3's 1 booked

      // (5) a release (a cancel's fence, a recovery lease) settles what it holds
      await store.releaseLease("R", "b", b3.token);
      expect(await used()).toEqual({ model_calls: 4, tokens: 170 });
      expect((await store.loadFacts("R")).leases).toEqual([]);

      const settled = await store.listEvents("R", { type: "budget-settled" });
      expect(settled.map((e) => [e.unit, e.attempt, e.data?.why, e.data?.released])).toEqual([
        ["a", 1, "lease-broken", { model_calls: 2, tokens: 100 }],
        ["a", 2, "committed", { model_calls: 2 }],
        ["b", 1, "attempt-ended", { model_calls: 1, tokens: 100 }],
        ["b", 2, "taken-over", { model_calls: 1 }],
        ["b", 3, "released", { model_calls: 1 }],
      ]);
    });

    it("a booking released after a checkpoint that counted it: the audit allows the used budgets below it by that much", async () => {
      const a = await store.claimUnit("R", "a", "w1", 1000, at(1), undefined, { reserve: { model_calls: 3 } });
      const b = await store.claimUnit("R", "b", "w2", 1000, at(1));
      expect((await store.commitCheckpoint("R", 0, completion("b", b.attempt, b.token))).budgetUsed).toEqual({ model_calls: 3 });
      await store.breakLease("R", "a", a.token, { at: at(6), type: "lease-broken", unit: "a" });
      expect((await store.getRun("R"))?.budgetUsed).toEqual({ model_calls: 0 });
      const audit = async (settlements: boolean) =>
        auditFacts(
          await store.listChainLinks("R"),
          await store.loadFacts("R"),
          await store.getRecords("R"),
          settlements ? await store.listEvents("R", { type: "budget-settled" }) : [],
        );
      expect(await audit(true)).toMatchObject({ verified: true, problems: [] });
      // without the settlement the same figure reads as an edit
      expect((await audit(false)).problems).toEqual(["budget model_calls used is 0, below the 3 the last checkpoint recorded"]);
    });

    it("a new contract for the run is a recorded decision merged into its origin", async () => {
      const before = (await store.getRun("R"))!.origin;
      await store.setRunOrigin("R", { contract: "/x/new.task.yaml" }, { at: at(2), type: "decision", data: { action: "contract" } });
      expect((await store.getRun("R"))!.origin).toEqual({ ...before, contract: "/x/new.task.yaml" });
      expect((await store.listEvents("R", { type: "decision" })).map((e) => e.data)).toEqual([{ action: "contract" }]);
      await expect(store.setRunOrigin("nope", { contract: "/y" }, { at: at(3), type: "decision" })).rejects.toThrow(/nope/);
    });

    it("effects move by compare-and-set and COMMITTED takes increasing commit sequence numbers", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      for (const id of ["e1", "e2"]) {
        await store.prepareEffect(
          {
            id,
            run: "R",
            unit: "a",
            attempt: 1,
            seq: 1,
            tool: "book",
            toolClass: "compensable",
            intent: "book()",
            argsDigest: "d",
            key: `k-${id}`,
            token: c.token,
            preparedAt: at(1),
          },
          { unit: "a", token: c.token },
        );
        await store.updateEffect(id, ["PREPARED"], { state: "STARTED", startedAt: at(1) });
        await store.updateEffect(id, ["STARTED"], { state: "COMMITTED", receipt: { id }, compensation: { tool: "cancel", args: { id } } });
      }
      await expect(store.updateEffect("e1", ["STARTED"], { state: "FAILED" })).rejects.toBeInstanceOf(InvalidTransitionError);
      const effects = await store.listEffects("R", { states: ["COMMITTED"] });
      expect(effects.map((e) => [e.id, e.commitSeq, e.compensation?.args])).toEqual([
        ["e1", 1, { id: "e1" }],
        ["e2", 2, { id: "e2" }],
      ]);
      await store.updateEffect("e2", ["COMMITTED"], { compensationState: "pending" });
      expect((await store.loadFacts("R")).openEffects.map((e) => e.id)).toEqual(["e2"]);
    });

    it("a receipt is kept as the ledger made it: every field, nesting, unicode, escapes, up to its size bound", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const made = keptReceipt({ name: "charge", class: "dedup" } as PlanTool, {
        charge_id: "ch_1",
        card: "visa-4242",
        status: "succeeded",
        nested: { list: [1, 2.5, -0, true, null, { deep: "é ✓ 𝄞" }], empty: {} },
        text: 'quote " backslash \\ nul \u0000 newline \n tab \t',
        created: new Date("2026-01-01T00:00:01.000Z"),
        fee: Number.NaN,
        gone: undefined,
        body: "x".repeat(RECEIPT_MAX_BYTES - 400),
      });
      expect(made.kind).toBe("kept");
      const receipt = (made as { receipt: unknown }).receipt;
      await store.prepareEffect(
        {
          id: "r1",
          run: "R",
          unit: "a",
          attempt: 1,
          seq: 1,
          tool: "charge",
          toolClass: "dedup",
          intent: "charge()",
          argsDigest: "d",
          key: "k-r1",
          token: c.token,
          preparedAt: at(1),
        },
        { unit: "a", token: c.token },
      );
      await store.updateEffect("r1", ["PREPARED"], { state: "STARTED", startedAt: at(1) });
      await store.updateEffect("r1", ["STARTED"], { state: "COMMITTED", receipt });
      const [kept] = await store.listEffects("R", { states: ["COMMITTED"] });
      expect(JSON.stringify(kept!.receipt)).toBe(JSON.stringify(receipt));
      expect(kept!.receipt).toEqual(receipt);
    });

    it("an effect is its key and its request: the request hash is kept, a known key with another request is refused", async () => {
      const c = await store.claimUnit("R", "a", "w1", 1000, at(1));
      const effect = (id: string, key: string, requestHash: string, iteration = 1) => ({
        id,
        run: "R",
        unit: "a",
        attempt: 1,
        seq: Number(id.slice(1)),
        tool: "post",
        toolClass: "dedup",
        intent: "post(title)",
        argsDigest: `d-${requestHash}`,
        requestHash,
        request: { tool: "post", args: { title: `sha256:${requestHash}` } },
        iteration,
        key,
        token: c.token,
        preparedAt: at(1),
      });
      const fence = { unit: "a", token: c.token };
      await store.prepareEffect(effect("e1", "k1", "h1"), fence);
      // any state but FAILED holds the key: PREPARED here
      const refused = await store.prepareEffect(effect("e2", "k1", "h2"), fence).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(EffectKeyConflictError);
      expect((refused as EffectKeyConflictError).prior).toMatchObject({ id: "e1", requestHash: "h1", key: "k1", iteration: 1 });
      await store.updateEffect("e1", ["PREPARED"], { state: "STARTED", startedAt: at(1) });
      await store.updateEffect("e1", ["STARTED"], { state: "UNKNOWN", error: "timeout" });
      await expect(store.prepareEffect(effect("e3", "k1", "h2"), fence)).rejects.toBeInstanceOf(EffectKeyConflictError);
      // the same request under the key is the same effect: recorded again (a retry), and another key is another effect
      await store.prepareEffect(effect("e4", "k1", "h1"), fence);
      await store.prepareEffect(effect("e5", "k2", "h2", 2), fence);
      // a FAILED effect (the remote did nothing) does not hold its key
      await store.updateEffect("e5", ["PREPARED"], { state: "FAILED", error: "never started" });
      await store.prepareEffect(effect("e6", "k2", "h3", 2), fence);
      const kept = await store.listEffects("R", { tool: "post", key: "k1" });
      expect(kept.map((e) => [e.id, e.requestHash, e.iteration, e.request])).toEqual([
        ["e1", "h1", 1, { tool: "post", args: { title: "sha256:h1" } }],
        ["e4", "h1", 1, { tool: "post", args: { title: "sha256:h1" } }],
      ]);
      expect((await store.listEffects("R", { key: "k2" })).map((e) => [e.id, e.state])).toEqual([
        ["e5", "FAILED"],
        ["e6", "PREPARED"],
      ]);
    });

    it("approvals are stored with their bindings; resume tokens are single-use and expire", async () => {
      await store.grantApproval(
        {
          id: "ap1",
          run: "R",
          unit: "b",
          planVersion: "p1",
          artifactHashes: { "a/x": "h" },
          scope: "unit",
          expiresAt: at(100),
          grantedBy: "me",
          grantedAt: at(1),
        },
        { at: at(1), type: "approval-granted" },
      );
      expect((await store.listApprovals("R"))[0]).toMatchObject({ id: "ap1", artifactHashes: { "a/x": "h" } });
      await store.revokeApproval("ap1", at(2), { at: at(2), type: "approval-revoked" });
      expect((await store.listApprovals("R"))[0]?.revokedAt).toBe(at(2));
      await store.issueResumeToken("h1", { run: "R", unit: "b", expiresAt: at(10), createdAt: at(1) });
      await store.issueResumeToken("h2", { run: "R", unit: "b", expiresAt: at(10), createdAt: at(1) });
      expect(await store.pendingResumeTokens("R", at(2))).toHaveLength(2);
      // a token tried on another gate is refused and not used up
      await expect(store.consumeResumeToken("h1", at(2), { run: "OTHER", unit: "b" })).rejects.toThrow(/belongs to gate R\/b.*not used/);
      await expect(store.consumeResumeToken("h1", at(2), { run: "R", unit: "a" })).rejects.toBeInstanceOf(ResumeTokenError);
      expect(await store.pendingResumeTokens("R", at(2))).toHaveLength(2);
      expect(await store.consumeResumeToken("h1", at(2), { run: "R", unit: "b" })).toEqual({ run: "R", unit: "b" });
      await expect(store.consumeResumeToken("h1", at(3), { run: "R", unit: "b" })).rejects.toThrow(/already used/);
      await expect(store.consumeResumeToken("h2", at(11), { run: "R", unit: "b" })).rejects.toThrow(/expired/);
      await expect(store.consumeResumeToken("nope", at(3), { run: "R", unit: "b" })).rejects.toBeInstanceOf(ResumeTokenError);
    });

    it("a PREPARED request held at a gate keeps what it would send until released; an approval keeps its binding", async () => {
      const c1 = await store.claimUnit("R", "b", "w1", 1000, at(1));
      const held = {
        reason: "approval" as const,
        display: { tool: "send", args: { to: "ada@example.org" }, key: "mail:R" },
        inputs: { recipient: "d1" },
        needs: { a: "d2" },
        planVersion: "p1",
      };
      await store.prepareEffect(
        {
          id: "R/b/a1/1",
          run: "R",
          unit: "b",
          attempt: 1,
          seq: 1,
          tool: "send",
          toolClass: "irreversible",
          intent: "send(to)",
          argsDigest: "ad",
          requestHash: "rh",
          request: { tool: "send", args: { to: "sha256:x" } },
          iteration: 1,
          key: "mail:R",
          token: c1.token,
          preparedAt: at(1),
          held,
        },
        { unit: "b", token: c1.token },
      );
      expect((await store.listEffects("R", { unit: "b" }))[0]).toMatchObject({ state: "PREPARED", held });
      expect((await store.loadFacts("R")).openEffects.map((e) => [e.id, e.held?.display.args])).toEqual([
        ["R/b/a1/1", { to: "ada@example.org" }],
      ]);
      await store.endAttempt("R", "b", c1.token, { countsAsFailure: false, rejected: [] }, []);
      const binding = { effect: "R/b/a1/1", tool: "send", key: "mail:R", requestHash: "rh", inputs: held.inputs, needs: held.needs };
      await store.grantApproval(
        {
          id: "ap9",
          run: "R",
          unit: "b",
          planVersion: "p1",
          artifactHashes: {},
          scope: "unit",
          expiresAt: at(100),
          grantedBy: "me",
          grantedAt: at(2),
          binding,
        },
        { at: at(2), type: "approval-granted" },
      );
      expect((await store.listApprovals("R")).find((a) => a.id === "ap9")?.binding).toEqual(binding);
      // released by a later attempt: it starts under that attempt's token, and the display copy is dropped
      const c2 = await store.claimUnit("R", "b", "w1", 1000, at(3));
      const started = await store.updateEffect("R/b/a1/1", ["PREPARED"], {
        state: "STARTED",
        startedAt: at(3),
        attempt: c2.attempt,
        token: c2.token,
        held: undefined,
      });
      expect(started).toMatchObject({ state: "STARTED", attempt: c2.attempt, token: c2.token });
      expect(started.held).toBeUndefined();
      expect((await store.listEffects("R", { unit: "b" }))[0]?.held).toBeUndefined();
    });

    it("operator identities: a name and a key hash, each unique; found by key hash only", async () => {
      expect(await store.countOperators()).toBe(0);
      await store.addOperator({ name: "ada", keyHash: "k1", createdAt: at(1) });
      await expect(store.addOperator({ name: "ada", keyHash: "k2", createdAt: at(2) })).rejects.toBeInstanceOf(InvalidTransitionError);
      await expect(store.addOperator({ name: "bob", keyHash: "k1", createdAt: at(2) })).rejects.toBeInstanceOf(InvalidTransitionError);
      await store.addOperator({ name: "bob", keyHash: "k2", createdAt: at(2) });
      expect(await store.countOperators()).toBe(2);
      expect(await store.findOperator("k2")).toEqual({ name: "bob", createdAt: at(2) });
      expect(await store.findOperator("ada")).toBeUndefined();
    });

    it("holds, status and events are recorded; events are append-only in order", async () => {
      await store.setRunHold("R", { reason: "budget", detail: "d", at: at(1) }, { at: at(1), type: "blocked" });
      await store.setUnitHold("R", "a", { reason: "unknown-effect", detail: "e", at: at(1) }, { at: at(1), type: "blocked", unit: "a" });
      let facts = await store.loadFacts("R");
      expect(facts.run.hold?.reason).toBe("budget");
      expect(facts.units.find((u) => u.unit === "a")?.hold?.reason).toBe("unknown-effect");
      await store.setRunHold("R", null, { at: at(2), type: "unblocked" });
      await store.setRunStatus("R", "cancelled", { at: at(3), type: "run-cancelled" });
      facts = await store.loadFacts("R");
      expect(facts.run.hold).toBeUndefined();
      expect(facts.run.status).toBe("cancelled");
      const events = await store.listEvents("R");
      expect(events.map((e) => e.type)).toEqual(["run-created", "blocked", "blocked", "unblocked", "run-cancelled"]);
      expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((x, y) => x! - y!));
      await expect(store.claimUnit("R", "a", "w", 1000, at(4))).rejects.toBeInstanceOf(InvalidTransitionError);
    });

    it("breaking a lease frees the unit for a new attempt; corrupt marks stick", async () => {
      const c = await store.claimUnit("R", "a", "w1", 60_000, at(1));
      await store.breakLease("R", "a", c.token, { at: at(2), type: "lease-broken", unit: "a" });
      const c2 = await store.claimUnit("R", "a", "w2", 1000, at(2));
      expect(c2.attempt).toBe(2);
      await store.commitCheckpoint("R", 0, completion("a", c2.attempt, c2.token));
      await store.markArtifactCorrupt("R", "runs/R/a/a2/a-out", { at: at(3), type: "artifact-corrupt" });
      expect((await store.listArtifacts("R", { status: "corrupt" })).map((a) => a.path)).toEqual(["runs/R/a/a2/a-out"]);
    });

    it("a collection clears the payloads it names and records its event; refused while the run is in flight", async () => {
      await store.appendEvents("R", [
        { at: at(1), type: "text", unit: "a", data: { line: "bulky" } },
        { at: at(1), type: "decision", data: { reason: "kept" } },
      ]);
      const collected = { at: at(3), type: "collected", data: { payloads: 1 } };
      await expect(store.recordCollection("R", [], collected)).rejects.toBeInstanceOf(InvalidTransitionError); // active
      await store.setRunStatus("R", "done", { at: at(2), type: "run-done" });
      const c = await store.claimUnit("R", "a", "w", 60_000, at(2)).catch(() => undefined);
      expect(c).toBeUndefined(); // a done run is not claimed: no lease to hold it in flight here
      const text = (await store.listEvents("R", { type: "text" }))[0]!;
      await store.recordCollection("R", [text.seq!], collected);
      const after = await store.listEvents("R");
      expect(after.find((e) => e.seq === text.seq)).toEqual({ seq: text.seq, run: "R", at: at(1), type: "text", unit: "a" });
      expect(after.find((e) => e.type === "decision")?.data).toEqual({ reason: "kept" });
      expect(after.at(-1)).toMatchObject({ type: "collected", data: { payloads: 1 } });
      await expect(store.recordCollection("R9", [], collected)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("a collection is refused while the run holds a lease, even when its status says it ended", async () => {
      const c = await store.claimUnit("R", "a", "w", 60_000, at(1));
      await store.setRunStatus("R", "cancelled", { at: at(2), type: "run-cancelled" });
      await expect(store.recordCollection("R", [], { at: at(3), type: "collected" })).rejects.toThrow(/in flight \(cancelled, 1 lease/);
      await store.releaseLease("R", "a", c.token);
      await store.recordCollection("R", [], { at: at(3), type: "collected" });
      expect((await store.listEvents("R")).at(-1)?.type).toBe("collected");
    });
  });
}
