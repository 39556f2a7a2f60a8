/**
 * Random acyclic plans for property tests (fast-check arbitraries) and for
 * the benchmark (a seeded generator of large graphs). Acyclic by construction:
 * a unit only needs units with a smaller number.
 */
import fc from "fast-check";
import { EDGE_KINDS, type EdgeKind, type ImpactRule } from "../../src/plan/schema.js";
import type { Change } from "../../src/impact/types.js";
import { buildPlan, type PlanSketch } from "./plan-builder.js";

const unitId = (i: number) => `U${String(i).padStart(2, "0")}`;
const inputId = (i: number) => `in${i}`;

const kindsArb = fc.subarray([...EDGE_KINDS], { minLength: 1 });

export const sketchArb: fc.Arbitrary<PlanSketch> = fc
  .record({ unitCount: fc.integer({ min: 1, max: 12 }), inputCount: fc.integer({ min: 1, max: 3 }) })
  .chain(({ unitCount, inputCount }) => {
    const upstreamOf = (u: number) => [...Array.from({ length: u }, (_, i) => unitId(i)), ...Array.from({ length: inputCount }, (_, i) => inputId(i))];
    const needsArb = (u: number) => fc.dictionary(fc.constantFrom(...upstreamOf(u)), kindsArb, { maxKeys: 3 });
    return fc.record({
      inputs: fc.constant(Object.fromEntries(Array.from({ length: inputCount }, (_, i) => [inputId(i), {}]))),
      units: fc
        .tuple(...Array.from({ length: unitCount }, (_, u) => needsArb(u)))
        .map((needs) => Object.fromEntries(needs.map((n, u) => [unitId(u), { phase: `p${u % 3}`, needs: n }]))),
      rules: fc.array(ruleArb(unitCount, inputCount), { maxLength: 2 }),
    });
  });

export function ruleArb(unitCount: number, inputCount: number): fc.Arbitrary<ImpactRule> {
  const units = Array.from({ length: unitCount }, (_, i) => unitId(i));
  const nodes = [...units, ...Array.from({ length: inputCount }, (_, i) => inputId(i))];
  return fc.record(
    {
      on: fc.constantFrom(...EDGE_KINDS),
      at: fc.constantFrom(...nodes),
      invalidate: fc.subarray(units, { minLength: 1, maxLength: Math.min(2, units.length) }),
    },
    { requiredKeys: ["on", "invalidate"] },
  );
}

/** A change at one of the sketch's nodes. */
export function changeArb(sketch: PlanSketch): fc.Arbitrary<Change> {
  const nodes = [...Object.keys(sketch.units), ...Object.keys(sketch.inputs ?? {})];
  return fc.record({
    origin: fc.constantFrom(...nodes),
    kinds: fc.oneof(fc.constant("all" as const), kindsArb),
  });
}

export const planWithChangesArb = sketchArb.chain((sketch) =>
  fc.record({ sketch: fc.constant(sketch), changes: fc.array(changeArb(sketch), { minLength: 1, maxLength: 3 }) }),
);

/** A seeded random layered DAG of `units` units and about `edges` edges, for the benchmark. */
export function largeSketch(units: number, edges: number, seed: number): PlanSketch {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const inputCount = Math.max(1, Math.round(units / 100));
  const id = (i: number) => `U${String(i).padStart(5, "0")}`;
  const sketch: PlanSketch = { inputs: {}, units: {} };
  for (let i = 0; i < inputCount; i++) sketch.inputs![inputId(i)] = {};
  const perUnit = edges / units;
  for (let u = 0; u < units; u++) {
    const needs: Record<string, EdgeKind[]> = {};
    const count = u === 0 ? 1 : Math.max(1, Math.round(perUnit * (0.5 + random())));
    for (let j = 0; j < count; j++) {
      // Mostly near neighbours (a pipeline has locality), sometimes far back, sometimes an input.
      const r = random();
      const from =
        u === 0 || r < 0.05
          ? inputId(Math.floor(random() * inputCount))
          : id(Math.max(0, u - 1 - Math.floor((r < 0.8 ? 50 : u) * random())));
      needs[from] = EDGE_KINDS.filter(() => random() < 0.4);
      if (needs[from]!.length === 0) needs[from] = [EDGE_KINDS[Math.floor(random() * EDGE_KINDS.length)]!];
    }
    sketch.units[id(u)] = { phase: `phase${Math.floor((u / units) * 6)}`, needs };
  }
  return sketch;
}

export { buildPlan };
