/**
 * Random acyclic plans for property tests (fast-check arbitraries). Acyclic
 * by construction: a unit only needs units with a smaller number.
 */
import fc from "fast-check";
import { EDGE_KINDS, type ImpactRule } from "../../src/plan/schema.js";
import type { Change } from "../../src/impact/types.js";
import { buildPlan, type PlanSketch } from "./plan-builder.js";

const unitId = (i: number) => `U${String(i).padStart(2, "0")}`;
const inputId = (i: number) => `in${i}`;

const kindsArb = fc.subarray([...EDGE_KINDS], { minLength: 1 });

export const sketchArb: fc.Arbitrary<PlanSketch> = fc
  .record({ unitCount: fc.integer({ min: 1, max: 12 }), inputCount: fc.integer({ min: 1, max: 3 }) })
  .chain(({ unitCount, inputCount }) => {
    const upstreamOf = (u: number) => [
      ...Array.from({ length: u }, (_, i) => unitId(i)),
      ...Array.from({ length: inputCount }, (_, i) => inputId(i)),
    ];
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

export { buildPlan };
