/**
 * Properties of the invalidation semantics on random acyclic plans: the same
 * units and shortest paths as the naive fixed point in reference.ts,
 * monotone in changes and rules, only downstream units, real explanation paths.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { causeJson, impact, pathNodesOf, type CauseTree, type ImpactReport } from "../../src/impact/index.js";
import { EDGE_KINDS, type EdgeKind, type Plan } from "../../src/plan/schema.js";
import { buildPlan, changeArb, planWithChangesArb, ruleArb, sketchArb } from "./random-plan.js";
import { referenceImpact } from "./reference.js";

const unitsOf = (report: ImpactReport) => report.invalidated.map((i) => i.unit);
const setOf = (report: ImpactReport) => new Set(unitsOf(report));
const isSubset = <T>(a: Set<T>, b: Set<T>) => [...a].every((x) => b.has(x));
const runs = { numRuns: 300 };

describe("impact on random plans", () => {
  it("writes every cause tree as JSON with the same text as JSON.stringify (edges and rules)", () => {
    fc.assert(
      fc.property(planWithChangesArb, ({ sketch, changes }) => {
        for (const i of impact(buildPlan(sketch), changes).invalidated) expect(causeJson(i.cause)).toBe(JSON.stringify(i.cause));
      }),
      runs,
    );
  });

  it("matches the naive fixed point: same units, shortest explanation paths", () => {
    fc.assert(
      fc.property(planWithChangesArb, ({ sketch, changes }) => {
        const plan = buildPlan(sketch);
        const report = impact(plan, changes);
        const expected = referenceImpact(plan, changes);
        expect(new Map(report.invalidated.map((i) => [i.unit, pathNodesOf(i.cause).length - 1]))).toEqual(expected);
      }),
      runs,
    );
  });

  it("is monotone: adding a change never shrinks the invalidated set", () => {
    fc.assert(
      fc.property(
        planWithChangesArb.chain(({ sketch, changes }) =>
          fc.record({ sketch: fc.constant(sketch), changes: fc.constant(changes), extra: changeArb(sketch) }),
        ),
        ({ sketch, changes, extra }) => {
          const plan = buildPlan(sketch);
          expect(isSubset(setOf(impact(plan, changes)), setOf(impact(plan, [...changes, extra])))).toBe(true);
        },
      ),
      runs,
    );
  });

  it("is monotone: adding an impact rule never shrinks the invalidated set", () => {
    fc.assert(
      fc.property(
        planWithChangesArb.chain(({ sketch, changes }) =>
          fc.record({
            sketch: fc.constant(sketch),
            changes: fc.constant(changes),
            rule: ruleArb(Object.keys(sketch.units).length, Object.keys(sketch.inputs ?? {}).length),
          }),
        ),
        ({ sketch, changes, rule }) => {
          const before = impact(buildPlan(sketch), changes);
          const after = impact(buildPlan({ ...sketch, rules: [...(sketch.rules ?? []), rule] }), changes);
          expect(isSubset(setOf(before), setOf(after))).toBe(true);
        },
      ),
      runs,
    );
  });

  it("`all` at a node equals the union over every single kind", () => {
    fc.assert(
      fc.property(
        sketchArb.chain((sketch) => fc.record({ sketch: fc.constant(sketch), change: changeArb(sketch) })),
        ({ sketch, change }) => {
          const plan = buildPlan(sketch);
          const all = impact(plan, [{ origin: change.origin, kinds: "all" }]);
          const union = new Set(EDGE_KINDS.flatMap((k) => unitsOf(impact(plan, [{ origin: change.origin, kinds: [k] }]))));
          expect(setOf(all)).toEqual(union);
        },
      ),
      runs,
    );
  });

  it("every explanation is a real path whose hops match the kinds carried", () => {
    fc.assert(
      fc.property(planWithChangesArb, ({ sketch, changes }) => {
        const plan = buildPlan(sketch);
        const report = impact(plan, changes);
        for (const item of report.invalidated) {
          const hops = checkChain(plan, report, item.cause);
          expect(pathNodesOf(item.cause)).toEqual(hops);
          expect(hops.at(-1)).toBe(item.unit);
          expect(item.path.split(/ --\w+--> | ==\w+ rule==> /)).toEqual(hops);
        }
      }),
      runs,
    );
  });

  it("never invalidates a unit that is not downstream of an origin (without rules)", () => {
    fc.assert(
      fc.property(planWithChangesArb, ({ sketch, changes }) => {
        const plan = buildPlan({ ...sketch, rules: [] });
        const downstream = descendants(
          plan,
          changes.map((c) => c.origin),
        );
        for (const unit of unitsOf(impact(plan, changes))) expect(downstream.has(unit)).toBe(true);
      }),
      runs,
    );
  });

  it("answers each query on its own: earlier queries on the same plan leave no trace", () => {
    fc.assert(
      fc.property(
        planWithChangesArb.chain(({ sketch, changes }) =>
          fc.record({ sketch: fc.constant(sketch), changes: fc.constant(changes), other: changeArb(sketch) }),
        ),
        ({ sketch, changes, other }) => {
          const plan = buildPlan(sketch);
          const fresh = impact({ ...plan }, changes);
          impact(plan, [other]);
          const again = impact(plan, changes);
          expect(again.invalidated.map((i) => [i.unit, i.path])).toEqual(fresh.invalidated.map((i) => [i.unit, i.path]));
          expect(again.kept).toEqual(fresh.kept);
        },
      ),
      runs,
    );
  });

  it("lists every unit exactly once, in plan order", () => {
    fc.assert(
      fc.property(planWithChangesArb, ({ sketch, changes }) => {
        const plan = buildPlan(sketch);
        const report = impact(plan, changes);
        const order = plan.units.map((u) => u.id);
        const position = (id: string) => order.indexOf(id);
        const sorted = (ids: string[]) => [...ids].sort((a, b) => position(a) - position(b));
        expect(unitsOf(report)).toEqual(sorted(unitsOf(report)));
        expect(report.kept).toEqual(sorted(report.kept));
        expect(sorted([...unitsOf(report), ...report.kept, ...report.origins])).toEqual(order);
      }),
      runs,
    );
  });
});

/**
 * Walks a cause chain from the change to the unit and checks each hop against
 * the plan: an edge hop needs an edge declaring that kind, a rule hop a rule on
 * that kind (at that node, if it has `at`) naming the unit; and the kind must be
 * carried at the hop's start: a kind of the original change, or one that
 * arrived there, or `content` (every invalidated unit carries it). Returns the nodes.
 */
function checkChain(plan: Plan, report: ImpactReport, cause: CauseTree): string[] {
  if (cause.type === "change") {
    const change = report.changes[cause.change]!;
    expect(change.origin).toBe(cause.origin);
    expect(change.kinds === "all" || change.kinds.includes(cause.kind)).toBe(true);
    return [cause.origin];
  }
  const kind: EdgeKind = cause.type === "edge" ? cause.kind : cause.on;
  if (cause.type === "edge") {
    const edge = plan.edges.find((e) => e.from === cause.from && e.to === cause.to);
    expect(edge?.kinds).toEqual(cause.edgeKinds);
    expect(cause.edgeKinds).toContain(kind);
  } else {
    const rule = plan.impactRules[cause.rule]!;
    expect(rule.on).toBe(kind);
    expect(rule.invalidate).toContain(cause.to);
    if (rule.at !== undefined) expect(rule.at).toBe(cause.from);
  }
  const before = cause.because;
  const carried = before.type === "change" ? [before.kind] : [before.type === "edge" ? before.kind : before.on, "content"];
  expect(carried).toContain(kind);
  const nodes = checkChain(plan, report, before);
  expect(nodes.at(-1)).toBe(cause.from);
  return [...nodes, cause.to];
}

function descendants(plan: Plan, origins: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...origins];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const e of plan.edges) {
      if (e.from === node && !seen.has(e.to)) {
        seen.add(e.to);
        stack.push(e.to);
      }
    }
  }
  return seen;
}
