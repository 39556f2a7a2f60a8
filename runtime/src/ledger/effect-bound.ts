/**
 * How many effects of a `dedup` or `irreversible` tool one unit may make:
 * the bound its contract declares (`effects: { <tool>: { max: N } }`), else
 * one, per loop iteration, across every attempt of the unit's current run
 * (attempts after its latest committed record: a unit re-run after an edit
 * starts again). The count is of distinct identities in the store's effects
 * of the unit (the key; for a keyless call, its request), in every state but
 * FAILED (surely not made) and but a request held at a gate (it is replaced,
 * never sent), so neither a crash nor a retry resets it. A call whose
 * identity is not among the first N is refused (GuardError `effect-bound`)
 * before anything is sent. The ledger asks twice: before the effect is
 * recorded, and once it is recorded PREPARED (two calls of one attempt may
 * pass the first question together; in the store's order the later one is
 * the one beyond the bound, refused before it starts). The compiler's C039
 * (compiler/src/check/key-bounds.ts) refuses a contract whose key reads what
 * the handler chooses without a declared bound.
 */
import { BOUNDED_KEY_CLASSES, type PlanTool, type PlanUnit } from "@taskspec/compiler";
import { GuardError } from "../errors.js";
import type { EffectRecord } from "../model/facts.js";
import type { Store } from "../store/types.js";

export interface EffectBoundInput {
  /** The identity of the call: its key, or `request:<hash>` for a keyless call. */
  identity: string;
  iteration: number;
  bound: number;
  /** Effects of attempts up to this number belong to an earlier run of the unit (its latest committed record's attempt). */
  since: number;
  /** The store's effects of this unit and tool. */
  effects: ReadonlyArray<
    Pick<EffectRecord, "id" | "attempt" | "seq" | "state" | "held" | "iteration" | "key" | "requestHash" | "argsDigest">
  >;
}

export type EffectBoundVerdict = { refused: false } | { refused: true; earlier: string[] };

/** The identity an effect is counted under. */
export function effectIdentity(e: { key?: string | undefined; requestHash?: string | undefined; argsDigest: string }): string {
  return e.key ?? `request:${e.requestHash ?? e.argsDigest}`;
}

export function decideEffectBound({ identity, iteration, bound, since, effects }: EffectBoundInput): EffectBoundVerdict {
  const counted = effects
    .filter((e) => e.state !== "FAILED" && !(e.held && e.state === "PREPARED") && (e.iteration ?? 1) === iteration && e.attempt > since)
    .sort((a, b) => a.attempt - b.attempt || a.seq - b.seq);
  const allowed: string[] = [];
  for (const id of [...counted.map(effectIdentity), identity]) {
    if (allowed.includes(id)) continue;
    if (allowed.length >= bound) break;
    allowed.push(id);
  }
  if (allowed.includes(identity)) return { refused: false };
  return { refused: true, earlier: allowed };
}

/** Does the bound apply to calls of this tool? */
export function isBounded(tool: Pick<PlanTool, "class">): boolean {
  return BOUNDED_KEY_CLASSES.has(tool.class);
}

export function boundOf(unit: Pick<PlanUnit, "effects">, tool: string): { max: number; declared: boolean } {
  const declared = unit.effects && Object.hasOwn(unit.effects, tool) ? unit.effects[tool] : undefined;
  return declared ? { max: declared.max, declared: true } : { max: 1, declared: false };
}

export function effectBoundMessage(
  unit: string,
  tool: string,
  identity: string,
  bound: { max: number; declared: boolean },
  iteration: number,
  earlier: readonly string[],
): string {
  const shown = (id: string) => (id.startsWith("request:") ? `a request (sha256 ${id.slice(8, 24)})` : JSON.stringify(id));
  const limit = bound.declared
    ? `the ${bound.max} its contract declares (\`effects: { ${tool}: { max: ${bound.max} } }\`)`
    : "the one a unit makes without a declared bound";
  return (
    `unit ${unit} called ${tool} with ${identity.startsWith("request:") ? "" : "key "}${shown(identity)}, a distinct effect beyond ${limit}` +
    `${iteration > 1 ? ` in iteration ${iteration}` : ""}; it already made ${earlier.map(shown).join(", ")}; refused, nothing was sent. ` +
    `A key names one effect: build it from what names the intent (task, run, unit, inputs), or declare how many the unit makes at most`
  );
}

/**
 * Refuses a call beyond the unit's bound (GuardError `effect-bound`), judged on
 * the store's effects. `self`: the call's effect, once recorded PREPARED; a
 * refused one is marked FAILED (never sent) before the refusal is thrown.
 */
export async function enforceEffectBound(
  scope: { store: Store; run: string; unit: PlanUnit; now: () => string; attempt: number },
  tool: PlanTool,
  call: { identity: string; iteration: number; self?: string },
): Promise<void> {
  if (!isBounded(tool)) return;
  const { store, run, unit } = scope;
  const bound = boundOf(unit, tool.name);
  // two independent reads, asked together: the ledger asks this twice per call, on its hot path
  const [records, effects] = await Promise.all([
    store.getRecords(run, { unit: unit.id }),
    store.listEffects(run, { unit: unit.id, tool: tool.name }),
  ]);
  const since = records.reduce((n, r) => Math.max(n, r.attempt), 0);
  const verdict = decideEffectBound({
    identity: call.identity,
    iteration: call.iteration,
    bound: bound.max,
    since,
    effects,
  });
  if (!verdict.refused) return;
  const message = effectBoundMessage(unit.id, tool.name, call.identity, bound, call.iteration, verdict.earlier);
  if (call.self)
    await store.updateEffect(
      call.self,
      ["PREPARED"],
      { state: "FAILED", error: "not sent: beyond the unit's bound of distinct effects", resolvedAt: scope.now() },
      {
        at: scope.now(),
        type: "effect-failed",
        unit: unit.id,
        attempt: scope.attempt,
        data: { effect: call.self, tool: tool.name, reason: "effect-bound" },
      },
    );
  throw new GuardError(unit.id, "effect-bound", message);
}
