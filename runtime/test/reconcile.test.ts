/**
 * The reconciliation table: what recovery does with an effect whose outcome
 * is unknown, per recovery class and lookup answer (found, absent, lookup
 * failing). The end-to-end versions against real services are in
 * test/runtime-recovery.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { HandlerModule } from "../src/handler-api.js";
import { reconcileEffect } from "../src/ledger/reconcile.js";
import type { EffectState } from "../src/model/facts.js";
import { fixturePlan, freshStore } from "./fixtures/load.js";

const plan = fixturePlan("classes.task.yaml");
const NOW = "2026-01-01T00:00:00.000Z";
type Lookup = "found" | "absent" | "fails" | "none";

/** `settledMeanwhile`: another recovery (a second resume) settles the effect to that state while this one's lookup runs. */
async function reconcile(
  tool: string,
  key: string | undefined,
  lookup: Lookup,
  state: EffectState = "STARTED",
  settledMeanwhile?: EffectState,
) {
  const store = await freshStore();
  await store.createRun({
    run: "R",
    taskId: "classes",
    planVersion: "p",
    inputVersion: "i",
    plan,
    caps: {},
    units: ["u"],
    origin: { artifactRoot: "/x" },
    now: NOW,
  });
  const claim = await store.claimUnit("R", "u", "w", 1000, NOW);
  const cls = plan.tools.find((t) => t.name === tool)!.class;
  await store.prepareEffect(
    {
      id: "e",
      run: "R",
      unit: "u",
      attempt: 1,
      seq: 1,
      tool,
      toolClass: cls,
      intent: `${tool}()`,
      argsDigest: "d",
      ...(key ? { key } : {}),
      token: claim.token,
      preparedAt: NOW,
    },
    { unit: "u", token: claim.token },
  );
  if (state !== "PREPARED") await store.updateEffect("e", ["PREPARED"], { state });
  const lookups: string[] = [];
  const handlers: HandlerModule = {
    units: {},
    tools: {
      find: {
        call: async ({ key: k }) => {
          lookups.push(String(k));
          if (settledMeanwhile) await store.updateEffect("e", ["STARTED", "UNKNOWN"], { state: settledMeanwhile, resolvedAt: NOW });
          if (lookup === "fails") throw new Error("lookup down");
          return lookup === "found" ? { id: "remote-1" } : null;
        },
      },
    },
  };
  const resolution = await reconcileEffect(
    { store, plan, handlers, crash: () => {}, now: () => NOW, envFor: () => ({ run: { id: "R" } }) },
    (await store.listEffects("R"))[0]!,
  );
  const [effect] = await store.listEffects("R");
  const unit = (await store.loadFacts("R")).units[0]!;
  return { resolution, effect: effect!, hold: unit.hold?.reason, lookups };
}

describe("reconciliation of effects with an unknown outcome", () => {
  const table: Array<[string, string, string | undefined, Lookup, string, EffectState, string | undefined]> = [
    ["read: repeat", "read_t", undefined, "none", "absent", "FAILED", undefined],
    ["idempotent without lookup: retry under the same key", "idem_t", "idem:R", "none", "absent", "FAILED", undefined],
    ["dedup found: adopt the remote record", "dedup_t", "dedup:R", "found", "committed", "COMMITTED", undefined],
    ["dedup confirmed absent: may retry", "dedup_t", "dedup:R", "absent", "absent", "FAILED", undefined],
    ["dedup lookup fails: block, never re-send", "dedup_t", "dedup:R", "fails", "blocked", "UNKNOWN", "unknown-effect"],
    ["compensable found: adopt, compensation data rendered", "comp_lookup_t", "comp:R", "found", "committed", "COMMITTED", undefined],
    ["compensable without lookup: block", "comp_t", "comp2:R", "none", "blocked", "UNKNOWN", "unknown-effect"],
    ["irreversible found: adopt", "irr_lookup_t", "k", "found", "committed", "COMMITTED", undefined],
    ["irreversible absent: still blocks for a person", "irr_lookup_t", "k", "absent", "blocked", "UNKNOWN", "unknown-effect"],
    ["irreversible without lookup: blocks", "irr_t", undefined, "none", "blocked", "UNKNOWN", "unknown-effect"],
  ];
  it.each(table)("%s", async (_name, tool, key, lookup, resolution, state, hold) => {
    const r = await reconcile(tool, key, lookup);
    expect(r.resolution).toBe(resolution);
    expect(r.effect.state).toBe(state);
    expect(r.hold).toBe(hold);
    if (lookup !== "none") expect(r.lookups).toEqual([key]);
  });

  it("an effect that was only PREPARED never reached the world: failed, no lookup", async () => {
    const r = await reconcile("dedup_t", "dedup:R", "found", "PREPARED");
    expect(r).toMatchObject({ resolution: "absent", effect: { state: "FAILED", error: "never started" }, lookups: [] });
  });

  it("adopting a compensable effect renders its compensation data from the found record", async () => {
    const r = await reconcile("comp_lookup_t", "comp:R", "found");
    expect(r.effect.compensation).toEqual({ tool: "undo", args: { id: "remote-1" } });
    expect(r.effect.remoteId).toBe("remote-1");
  });

  it.each([
    ["found it committed", "COMMITTED", "committed"],
    ["confirmed it absent", "FAILED", "absent"],
  ] as const)(
    "two recoveries at once: when the other one %s first, this one takes its outcome instead of failing",
    async (_name, settled, resolution) => {
      const r = await reconcile("dedup_t", "dedup:R", "found", "STARTED", settled);
      expect(r.resolution).toBe(resolution);
      expect(r.effect.state).toBe(settled);
      expect(r.hold).toBeUndefined();
    },
  );
});
