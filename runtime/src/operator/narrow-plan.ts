/**
 * What narrowing a run's goal keeps and drops, as a pure function over its
 * plan and facts. `--to` names units or outputs; the run keeps them and every
 * unit they need, and drops the units outside that set that have not
 * succeeded (a result already committed is kept as it is). Dropping gives up
 * the outputs only dropped units produce, their own verifiers, and, when an
 * output is given up, `task.done` (it judges the whole deliverable). Nothing
 * is undone: an effect a dropped unit made stays in the ledger (`taskspec
 * cancel` compensates), and an attempt in flight finishes.
 */
import { InvalidTransitionError } from "../errors.js";
import type { EffectRecord, Lease, UnitStateRow } from "../model/facts.js";
import type { Preview } from "./preview.js";

export interface NarrowFacts {
  run: string;
  /** What to keep: unit ids or output (artifact) names of the plan. */
  to: readonly string[];
  plan: {
    units: ReadonlyArray<{ id: string; needs: readonly string[]; produces: readonly string[]; verify: readonly string[] }>;
    outputs: readonly string[];
    done: readonly string[];
  };
  units: readonly UnitStateRow[];
  effects: readonly EffectRecord[];
  /** Live leases: attempts in flight. */
  leases: readonly Lease[];
}

export interface NarrowPlan {
  preview: Preview;
  /** The units to hold as `out-of-scope`. */
  drop: string[];
}

export function planNarrow(f: NarrowFacts): NarrowPlan {
  const byId = new Map(f.plan.units.map((u) => [u.id, u]));
  const rows = new Map(f.units.map((u) => [u.unit, u]));
  const targets = f.to.map((name) => {
    if (byId.has(name)) return name;
    const producer = f.plan.units.find((u) => u.produces.includes(name));
    if (producer) return producer.id;
    throw new InvalidTransitionError(
      `narrow ${f.run}: ${JSON.stringify(name)} is neither a unit nor an output of the run's plan; nothing was changed`,
    );
  });
  if (targets.length === 0) throw new InvalidTransitionError(`narrow ${f.run} needs --to: the units or outputs to keep`);
  const kept = new Set<string>();
  const stack = [...targets];
  while (stack.length) {
    const id = stack.pop()!;
    if (kept.has(id)) continue;
    kept.add(id);
    for (const n of byId.get(id)?.needs ?? []) if (byId.has(n)) stack.push(n);
  }
  const outOfScope = (id: string) => rows.get(id)?.hold?.reason === "out-of-scope";
  const lost = [...kept].filter(outOfScope);
  if (lost.length)
    throw new InvalidTransitionError(
      `narrow ${f.run}: keeping ${f.to.join(", ")} needs ${lost.join(", ")}, which an earlier narrow dropped; ` +
        `\`taskspec rerun ${f.run} ${lost[0]}\` brings it back; nothing was changed`,
    );
  const drop = f.plan.units.filter((u) => !kept.has(u.id) && rows.get(u.id)?.state !== "succeeded" && !outOfScope(u.id)).map((u) => u.id);
  if (drop.length === 0)
    throw new InvalidTransitionError(
      `narrow ${f.run} to ${f.to.join(", ")} drops nothing: every other unit succeeded or is dropped already`,
    );
  const gone = new Set([...drop, ...f.plan.units.filter((u) => outOfScope(u.id)).map((u) => u.id)]);
  const stays = f.plan.units.filter((u) => !gone.has(u.id));
  const outputs = f.plan.outputs.filter((o) => !stays.some((u) => u.produces.includes(o)));
  const verifiers = [
    ...drop.flatMap((id) => byId.get(id)!.verify.map((v) => `${id}: ${v}`)),
    ...(outputs.length ? f.plan.done.map((v) => `task.done: ${v}`) : []),
  ];
  const dropped = new Set(drop);
  const notes = [
    `keeps ${[...kept].sort().join(" ")} (what ${f.to.join(", ")} needs)`,
    outputs.length ? `gives up the outputs ${outputs.join(", ")}` : "gives up no output of the task",
    verifiers.length ? `gives up the verifiers ${verifiers.join("; ")}` : "gives up no verifier",
    ...f.leases
      .filter((l) => dropped.has(l.unit))
      .map((l) => `attempt ${l.attempt} of ${l.unit} is in flight (${l.owner}): it finishes, and its result is kept`),
    ...f.effects
      .filter((e) => dropped.has(e.unit) && (e.state === "COMMITTED" || e.state === "UNKNOWN" || e.state === "STARTED"))
      .map((e) =>
        e.state === "COMMITTED"
          ? `effect ${e.id} of ${e.unit} (${e.intent}) stays committed: narrowing undoes nothing (\`taskspec cancel\` compensates)`
          : `effect ${e.id} of ${e.unit} (${e.intent}) stays ${e.state}: settle it with \`taskspec resolve\``,
      ),
    "nothing is deleted; re-running a dropped unit (`taskspec rerun`) brings it back into scope",
  ];
  return {
    preview: {
      action: `narrow ${f.run} to ${f.to.join(", ")}`,
      reuse: f.plan.units.filter((u) => rows.get(u.id)?.state === "succeeded").map((u) => u.id),
      invalidate: drop.map((unit) => ({ unit, why: `dropped from the goal: ${f.to.join(", ")} does not need it` })),
      notes,
    },
    drop,
  };
}
