/**
 * Property tests: random valid acyclic contracts compile without errors to a
 * schema-valid plan whose order respects every edge; random mutations of them
 * and random text never make compile() throw.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, EDGE_KINDS, PlanSchema } from "../src/index.js";
import { closest } from "../src/source/suggest.js";

const validate = new Ajv2020({ strict: false }).compile(PlanSchema);

interface Shape {
  units: { needs: { target: number; kinds: string[] }[]; tool: number; loop: number; inputNeed: boolean }[];
  order: number[];
}

const kinds = fc.uniqueArray(fc.constantFrom(...EDGE_KINDS), { minLength: 1, maxLength: 4 });

const shape: fc.Arbitrary<Shape> = fc.integer({ min: 1, max: 25 }).chain((n) =>
  fc.record({
    units: fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          needs:
            i === 0
              ? fc.constant<Shape["units"][number]["needs"]>([])
              : fc.uniqueArray(fc.record({ target: fc.integer({ min: 0, max: i - 1 }), kinds }), {
                  maxLength: 4,
                  selector: (x) => x.target,
                }),
          tool: fc.integer({ min: -1, max: 3 }),
          loop: fc.integer({ min: 0, max: 4 }),
          inputNeed: fc.boolean(),
        }),
      ),
    ),
    order: fc.shuffledSubarray(
      Array.from({ length: n }, (_, i) => i),
      { minLength: n, maxLength: n },
    ),
  }),
);

const TOOLS = ["fetch", "write", "post", "book"];

/** Unit i may need only units j < i (acyclic); declared in a shuffled order. */
function render(s: Shape): string {
  const lines = [
    "contract: 1",
    "task:",
    "  id: generated",
    "  goal: property test",
    "  timeout: 10m",
    `  outputs: [${s.units.map((_, i) => `art-${i}`).join(", ")}]`,
    "  done: [ok]",
    "budgets: { model_calls: 1000000, tool_calls: 1000000, retries: 1 }",
    "inputs:",
    "  src: { kind: snapshot, version: v1 }",
    "tools:",
    "  fetch: { class: read }",
    '  write: { class: idempotent, key: "${run.id}/${unit.id}" }',
    '  post: { class: dedup, key: "${task.id}:${unit.id}", lookup: fetch }',
    '  book: { class: compensable, result: { id: string }, compensate: { tool: write, with: { id: "${result.id}" } } }',
    "verifiers:",
    '  ok: { kind: rule, check: "result.ok == true" }',
    "units:",
  ];
  for (const i of s.order) {
    const u = s.units[i]!;
    lines.push(`  u${i}:`);
    const needs = u.needs.map((n) => `u${n.target}: [${n.kinds.join(", ")}]`);
    if (u.inputNeed) needs.push("src: content");
    if (needs.length > 0) lines.push(`    needs: { ${needs.join(", ")} }`);
    if (u.tool >= 0) lines.push(`    uses: [${TOOLS[u.tool]}]`);
    if (u.loop > 0) lines.push(`    loop: { max: ${u.loop}, until: "result.done" }`);
    lines.push("    cost: { model_calls: 1, tokens: 100 }", `    produces: [art-${i}]`, "    verify: [ok]");
  }
  return `${lines.join("\n")}\n`;
}

describe("properties", () => {
  it("random valid acyclic contracts compile clean, and the plan order respects every edge", () => {
    fc.assert(
      fc.property(shape, (s) => {
        const { plan, diagnostics } = compile(render(s));
        expect(diagnostics).toEqual([]);
        expect(validate(plan)).toBe(true);
        const position = new Map(plan!.units.map((u, i) => [u.id, i]));
        const level = new Map(plan!.units.map((u) => [u.id, u.level]));
        for (const edge of plan!.edges) {
          if (!position.has(edge.from)) continue;
          expect(position.get(edge.from)!).toBeLessThan(position.get(edge.to)!);
          expect(level.get(edge.from)!).toBeLessThan(level.get(edge.to)!);
        }
        expect(plan!.edges.length).toBe(s.units.reduce((n, u) => n + u.needs.length + (u.inputNeed ? 1 : 0), 0));
      }),
      { numRuns: 150 },
    );
  });

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
    fc.record({
      kind: fc.constant("insert" as const),
      at: fc.nat(),
      text: fc.string({ unit: fc.constantFrom(..."{}[]:,-&*!|>'\"#\n \t$x1"), maxLength: 12 }),
    }),
    fc.record({ kind: fc.constant("swap" as const), a: fc.nat(), b: fc.nat() }),
  );

  it("random mutations of valid contracts never throw and any plan is valid", () => {
    fc.assert(
      fc.property(shape, fc.array(mutation, { minLength: 1, maxLength: 5 }), (s, mutations) => {
        let text = render(s);
        for (const m of mutations) {
          if (m.kind === "delete") {
            const at = m.at % text.length;
            text = text.slice(0, at) + text.slice(at + m.length);
          } else if (m.kind === "insert") {
            const at = m.at % (text.length + 1);
            text = text.slice(0, at) + m.text + text.slice(at);
          } else {
            const lines = text.split("\n");
            const a = m.a % lines.length;
            const b = m.b % lines.length;
            [lines[a], lines[b]] = [lines[b]!, lines[a]!];
            text = lines.join("\n");
          }
        }
        const result = compile(text);
        expect(Array.isArray(result.diagnostics)).toBe(true);
        for (const d of result.diagnostics) {
          expect(d.span.start).toBeGreaterThanOrEqual(0);
          expect(d.span.end).toBeLessThanOrEqual(text.length);
        }
        if (result.plan) expect(validate(result.plan)).toBe(true);
        else expect(result.diagnostics.some((d) => d.severity === "error")).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("arbitrary text never throws", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (text) => {
        expect(() => compile(text)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it("did-you-mean picks the same nearest name whatever the candidates' order", () => {
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(word, fc.uniqueArray(word, { maxLength: 12 }), fc.integer(), (w, candidates, seed) => {
        const shuffled = [...candidates].sort((x, y) => (hash(x) ^ seed) - (hash(y) ^ seed) || (x < y ? -1 : 1));
        expect(closest(w, shuffled)).toBe(closest(w, [...candidates].sort()));
      }),
      { numRuns: 2000 },
    );
  });
});

function hash(s: string): number {
  let h = 0;
  for (const ch of s) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return h;
}
