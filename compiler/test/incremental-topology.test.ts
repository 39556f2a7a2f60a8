/**
 * The plan topology, impact graph and impact index a version takes over from
 * the document's earlier version (planTopology's `previous`, carried along
 * CompileOptions.previous), against a fresh check: after every edit of a random
 * sequence (inside a unit, to its needs, its phase, an input, the impact rules,
 * a new unit, text that breaks and is put back) the incremental result equals
 * checkContract(text) in the impact graph, every count a lens shows, the impact
 * index, the impact report and the plan, and so do the counts of the count
 * index a lens reads (countIndexOf, carried the same way). Then, edit by
 * edit, what is reused.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkContract,
  countInvalidated,
  EDGE_KINDS,
  impact,
  invalidatedBy,
  invalidatedCount,
  invalidatedCounts,
  type CheckResult,
  type CountIndex,
  type ImpactGraph,
} from "../src/index.js";
import { indexPlan } from "../src/impact/plan-index.js";
import { fcRuns } from "../../test/fc-runs.js";

const LAYERS = 8;
const WIDTH = 20;
const unit = (layer: number, i: number) => `U${layer}_${String(i).padStart(2, "0")}`;

/** Layers of units, each needing the one above it, some a second one and the audience input; every last-layer output a task output. */
function layered(): string {
  const outputs = Array.from({ length: WIDTH }, (_, i) => `o-${unit(LAYERS - 1, i)}`);
  const lines = [
    "contract: 1",
    `task: { id: layered, goal: g, outputs: [${outputs.join(", ")}], done: [ok] }`,
    "inputs:",
    "  sources: { kind: snapshot, version: v1 }",
    "  audience: { kind: decision, value: team }",
    `budgets: { model_calls: ${LAYERS * WIDTH * 20}, wall_clock: 48h, retries: 1 }`,
    "tools:",
    "  fetch: { class: read }",
    "verifiers:",
    '  ok: { kind: rule, check: "result.ok" }',
    "units:",
  ];
  for (let layer = 0; layer < LAYERS; layer++) {
    for (let i = 0; i < WIDTH; i++) {
      const needs =
        layer === 0
          ? ["sources: content"]
          : [
              `${unit(layer - 1, i)}: content`,
              ...(i % 3 === 0 ? [`${unit(layer - 1, (i + 7) % WIDTH)}: [structure, policy]`] : []),
              ...(i % 5 === 0 ? ["audience: audience"] : []),
            ];
      lines.push(
        `  ${unit(layer, i)}:`,
        `    phase: p${layer % 3}`,
        "    timeout: 10m",
        `    needs: { ${needs.join(", ")} }`,
        "    uses: [fetch]",
        "    cost: { model_calls: 1 }",
        `    produces: [o-${unit(layer, i)}]`,
        "    verify: [ok]",
      );
    }
  }
  return lines.join("\n") + "\n";
}

const BASE = layered();
const RULES = "impact:\n  - { on: policy, at: U1_03, invalidate: [U6_11] }\n  - { on: audience, invalidate: [U7_00] }\n";

/** The text of one unit's definition (its key line to the next key at that depth or less). */
function blockOf(text: string, id: string): { start: number; end: number } | undefined {
  const start = text.indexOf(`\n  ${id}:\n`);
  if (start < 0) return undefined;
  const next = /\n(?: {0,2}\S)/g;
  next.lastIndex = start + 1;
  const end = next.exec(text)?.index ?? text.length;
  return { start: start + 1, end };
}

function inUnit(text: string, id: string, edit: (block: string) => string): string {
  const at = blockOf(text, id);
  return at ? text.slice(0, at.start) + edit(text.slice(at.start, at.end)) + text.slice(at.end) : text;
}

const editNeeds = (block: string, edit: (needs: string[]) => string[]) =>
  block.replace(/needs: \{ (.*) \}/, (_, inner: string) => `needs: { ${edit(inner.split(/, (?=[\w]+:)/)).join(", ")} }`);

type Edit = { op: string; layer: number; i: number; n: number; at: number; char: string };

/** One edit; `typo` is a character put in and taken out again in the next version (two versions). */
function apply(text: string, { op, layer, i, n, at, char }: Edit, serial: number): string[] {
  const id = unit(layer, i);
  switch (op) {
    case "cost":
      return [inUnit(text, id, (b) => b.replace(/model_calls: \d+/, `model_calls: ${n + 1}`))];
    case "phase":
      return [inUnit(text, id, (b) => b.replace(/phase: \w+/, `phase: p${n % 4}`))];
    case "kind":
      return [
        inUnit(text, id, (b) => editNeeds(b, (needs) => needs.map((x, k) => (k === 0 ? x.replace(/: .*$/, `: ${EDGE_KINDS[n % 4]}`) : x)))),
      ];
    case "addNeed": {
      const need = layer > 0 ? `${unit(layer - 1, n % WIDTH)}: structure` : "audience: audience";
      return [
        inUnit(text, id, (b) =>
          editNeeds(b, (needs) => (needs.some((x) => x.startsWith(need.split(":")[0]! + ":")) ? needs : [...needs, need])),
        ),
      ];
    }
    case "dropNeed":
      return [inUnit(text, id, (b) => editNeeds(b, (needs) => (needs.length > 1 ? needs.slice(0, -1) : needs)))];
    case "reorder":
      return [inUnit(text, id, (b) => editNeeds(b, (needs) => [...needs].reverse()))];
    case "input":
      return [text.replace(/sources: \{ kind: snapshot, version: \w+ \}/, `sources: { kind: snapshot, version: v${n} }`)];
    case "rules":
      return [text.includes(RULES) ? text.replace(RULES, "") : text + RULES];
    case "newUnit": {
      const added = `  N${serial}:\n    needs: { ${id}: content }\n    produces: [o-${unit(LAYERS - 1, i)}x]\n`;
      const end = text.indexOf("\nimpact:");
      return [end < 0 ? text + added : text.slice(0, end + 1) + added + text.slice(end + 1)];
    }
    default: {
      const where = Math.min(at, text.length);
      return [text.slice(0, where) + char + text.slice(where), text];
    }
  }
}

const ORIGINS = ["sources", "audience", unit(0, 3), unit(1, 3), unit(3, 7), unit(6, 0)];

/** Everything a lens, the impact view and a plan read from an impact graph, beside a fresh check's. */
function expectSameGraph(graph: ImpactGraph, fresh: ImpactGraph): void {
  const { units, inputs, edges, impactRules } = graph;
  expect({ units, inputs, edges, impactRules }).toEqual({
    units: fresh.units,
    inputs: fresh.inputs,
    edges: fresh.edges,
    impactRules: fresh.impactRules,
  });
  expect(indexPlan(graph)).toEqual(indexPlan(fresh));
  for (const origin of ORIGINS)
    for (const kinds of ["all", ...EDGE_KINDS.map((k) => [k])] as const) {
      const expected = invalidatedBy(fresh, [{ origin, kinds }]);
      expect(invalidatedBy(graph, [{ origin, kinds }])).toEqual(expected);
      // what a lens shows
      expect(invalidatedCount(graph, [{ origin, kinds }])).toBe(expected.length);
    }
}

/** What a lens shows, from a count index, beside the counts of a fresh check's plan graph. */
function expectSameCounts(index: CountIndex, fresh: ImpactGraph): void {
  for (const origin of ORIGINS) expect(countInvalidated(index, origin)).toEqual(invalidatedCounts(fresh, origin));
  expect(countInvalidated(index, "N999")).toEqual(invalidatedCounts(fresh, "N999"));
}

describe("plan topology taken over from the previous version", () => {
  it("the generated contract compiles", () => {
    expect(checkContract(BASE).diagnostics).toEqual([]);
    expect(checkContract(BASE + RULES).diagnostics).toEqual([]);
  });

  it("equals a fresh check after every edit of a random sequence: graph, counts, index, impact report and plan", () => {
    let graphs = 0;
    let reused = 0;
    let shared = 0;
    let counted = 0;
    let indexReused = 0;
    let indexShared = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            op: fc.constantFrom("cost", "cost", "phase", "kind", "addNeed", "dropNeed", "reorder", "input", "rules", "newUnit", "typo"),
            layer: fc.nat(LAYERS - 1),
            i: fc.nat(WIDTH - 1),
            n: fc.nat(9),
            at: fc.nat(BASE.length),
            char: fc.constantFrom("x", ":", "\n", " ", "{", "U0_01"),
            // what the editor asks of this version: a lens (counts; graph, as before), a hover (plan), some in either order, or nothing
            asks: fc.constantFrom("counts", "graph", "plan", "counts+plan", "plan+counts", "graph+plan", "plan+graph", "none"),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (edits) => {
          let text = BASE;
          let previous: CheckResult = checkContract(text);
          let lastGraph: ImpactGraph | undefined = previous.impactGraph!();
          let lastIndex: CountIndex | undefined = previous.countIndex!();
          edits.forEach((edit, serial) => {
            for (const version of apply(text, edit, serial)) {
              text = version;
              const incremental = checkContract(text, previous.parsed.reusable ? { previous: previous.parsed.reusable } : {});
              previous = incremental;
              const fresh = checkContract(text);
              expect(incremental.diagnostics).toEqual(fresh.diagnostics);
              expect(incremental.impactGraph === undefined).toBe(fresh.impactGraph === undefined);
              if (!incremental.impactGraph || !fresh.impactGraph) continue;
              for (const ask of edit.asks.split("+")) {
                if (ask === "counts") {
                  const index = incremental.countIndex!();
                  expectSameCounts(index, fresh.impactGraph());
                  counted++;
                  if (index === lastIndex) indexReused++;
                  if (index.outStart === lastIndex?.outStart) indexShared++;
                  lastIndex = index;
                } else if (ask === "graph") {
                  const graph = incremental.impactGraph();
                  expectSameGraph(graph, fresh.impactGraph());
                  graphs++;
                  if (graph === lastGraph) reused++;
                  if (graph.edges === lastGraph?.edges) shared++;
                  lastGraph = graph;
                } else if (ask === "plan") {
                  const plan = incremental.buildPlan!();
                  const freshPlan = fresh.buildPlan!();
                  expect(JSON.stringify(plan)).toBe(JSON.stringify(freshPlan));
                  expect(impact(plan, [{ origin: "audience", kinds: "all" }])).toEqual(
                    impact(freshPlan, [{ origin: "audience", kinds: "all" }]),
                  );
                }
              }
            }
          });
        },
      ),
      fcRuns(60),
    );
    // edits inside a unit take the previous graph itself; most others at least its edges
    expect(reused).toBeGreaterThan(graphs / 10);
    expect(shared).toBeGreaterThan(reused);
    // and so for the count index: edits inside a unit keep it, a rule or input edit its edges
    expect(indexReused).toBeGreaterThan(counted / 10);
    expect(indexShared).toBeGreaterThan(indexReused);
  });

  it("reuses the count index for an edit that changes no need, its edges for new rules, and nothing for a need", () => {
    const costOf = (text: string, id: string, n: number) => inUnit(text, id, (b) => b.replace(/model_calls: \d+/, `model_calls: ${n}`));
    const next = (before: CheckResult, text: string) => checkContract(text, { previous: before.parsed.reusable! });

    const v1 = checkContract(BASE);
    const i1 = v1.countIndex!();
    // an edit inside one unit, or its phase: the same index (counts do not read phases)
    const phased = inUnit(costOf(BASE, unit(4, 4), 7), unit(2, 2), (b) => b.replace("phase: p2", "phase: p9"));
    const v2 = next(v1, phased);
    expect(v2.countIndex!()).toBe(i1);
    // impact rules: the same edges, new rule tables, and the counts move with them
    const v3 = next(v2, phased + RULES);
    const i3 = v3.countIndex!();
    expect(i3).not.toBe(i1);
    expect(i3.outStart).toBe(i1.outStart);
    // the rule at U1_03 adds U6_11 and what U6_11's content reaches
    expect([countInvalidated(i1, unit(1, 3))!.byKind.policy, countInvalidated(i3, unit(1, 3))!.byKind.policy]).toEqual([0, 2]);
    expectSameCounts(i3, checkContract(phased + RULES).impactGraph!());
    // a version with an error has no index; the next good one takes over the last one made
    const broken = next(v3, (phased + RULES).replace(`${unit(1, 1)}: content`, "nowhere: content"));
    expect(broken.countIndex).toBeUndefined();
    const v4 = next(broken, costOf(phased + RULES, unit(0, 0), 3));
    expect(v4.countIndex!()).toBe(i3);
    // a changed need: new edges
    const needed = inUnit(phased + RULES, unit(5, 1), (b) => editNeeds(b, (needs) => [...needs, "audience: audience"]));
    const i5 = next(v4, needed).countIndex!();
    expect(i5.outStart).not.toBe(i1.outStart);
    expectSameCounts(i5, checkContract(needed).impactGraph!());
    // without `previous` nothing is taken over
    expect(checkContract(phased).countIndex!().outStart).not.toBe(i1.outStart);
  });

  it("reuses the graph itself for an edit that changes no need, its edges and index for a phase or an input, and nothing for a need", () => {
    const costOf = (text: string, id: string, n: number) => inUnit(text, id, (b) => b.replace(/model_calls: \d+/, `model_calls: ${n}`));
    const next = (before: CheckResult, text: string) => checkContract(text, { previous: before.parsed.reusable! });

    const v1 = checkContract(BASE);
    const g1 = v1.impactGraph!();
    const index1 = indexPlan(g1);
    // an edit inside one unit: the same graph object, so the same index and search buffers
    const v2 = next(v1, costOf(BASE, unit(4, 4), 7));
    expect(v2.impactGraph!()).toBe(g1);
    // a phase: a new graph (its units carry phases) over the same edges and node numbering
    const phased = inUnit(costOf(BASE, unit(4, 4), 7), unit(2, 2), (b) => b.replace("phase: p2", "phase: p9"));
    const v3 = next(v2, phased);
    const g3 = v3.impactGraph!();
    expect(g3).not.toBe(g1);
    expect(g3.edges).toBe(g1.edges);
    expect(indexPlan(g3).outStart).toBe(index1.outStart);
    expect(indexPlan(g3).phaseOf[indexPlan(g3).indexOf.get(unit(2, 2))!]).toBe("p9");
    // the plan built from the same topology shares its arrays
    expect(v3.buildPlan!().edges).toBe(g1.edges);
    // an input's version: the plan's inputs change, its edges do not
    const v4 = next(v3, phased.replace("version: v1", "version: v2"));
    expect(v4.buildPlan!().inputs.find((i) => i.name === "sources")?.version).toBe("v2");
    expect(v4.impactGraph!().edges).toBe(g1.edges);
    // a version with an error has no graph; the next good one still takes over the last one made
    const broken = next(v4, phased.replace("version: v1", "version: v2").replace(`${unit(1, 1)}: content`, "nowhere: content"));
    expect(broken.impactGraph).toBeUndefined();
    const v5 = next(broken, costOf(phased.replace("version: v1", "version: v2"), unit(0, 0), 3));
    expect(v5.impactGraph!().edges).toBe(g1.edges);
    // a changed need: a new shape, and the counts move with it
    const needed = inUnit(phased, unit(5, 1), (b) => editNeeds(b, (needs) => [...needs, "audience: audience"]));
    const v6 = next(v5, needed);
    const g6 = v6.impactGraph!();
    expect(g6.edges).not.toBe(g1.edges);
    expect(invalidatedBy(g6, [{ origin: "audience", kinds: ["audience"] }])).toContain(unit(5, 1));
    expect(invalidatedBy(g1, [{ origin: "audience", kinds: ["audience"] }])).not.toContain(unit(5, 1));
    expectSameGraph(g6, checkContract(needed).impactGraph!());
    // without `previous` nothing is taken over
    expect(checkContract(costOf(BASE, unit(4, 4), 7)).impactGraph!().edges).not.toBe(g1.edges);
  });
});
