import { describe, expect, it } from "vitest";
import { LineIndex, parseContract, resolveReference, scalarOffsetMapper, symbolAt } from "../src/index.js";

const text = `contract: 1
task:
  id: demo
  outputs: [report]
  done: [audit]
tools:
  poster: { class: dedup, key: "k:\${task.id}", lookup: finder }
units:
  draft:
    needs: { sources: content, plan: [content, policy] }
    produces: [report]
  draft: {}
`;

describe("parseContract", () => {
  it("records declarations with key spans and every reference site", () => {
    const { model, diagnostics } = parseContract(text);
    const draft = model.units.get("draft")!;
    expect(text.slice(draft.keySpan.start, draft.keySpan.end)).toBe("draft");
    expect(draft.needs.map((n) => [n.name, n.kinds.map((k) => k.kind)])).toEqual([
      ["sources", ["content"]],
      ["plan", ["content", "policy"]],
    ]);
    const refs = model.references.map((r) => [r.kind, r.name, text.slice(r.span.start, r.span.end)]);
    expect(refs).toEqual([
      ["lookup", "finder", "finder"],
      ["needs", "sources", "sources"],
      ["needs", "plan", "plan"],
      ["produces", "report", "report"],
      ["outputs", "report", "report"],
      ["done", "audit", "audit"],
    ]);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([["C011", 11]]);
    expect(diagnostics[0]!.related?.[0]?.range.start.line).toBe(8);
  });

  it("records every kind of reference site and every expression with its JSON path", () => {
    const source = `contract: 1
task: { id: t, goal: g, outputs: [o], done: [v, { check: "result.ok" }] }
tools:
  b: { class: compensable, lookup: f, compensate: { tool: c, with: { id: "\${result.id}" } }, key: "k" }
verifiers:
  v: { kind: rule, check: "result.ok" }
units:
  u: { needs: { i: content }, uses: [b], produces: [o], verify: [v, { check: "x" }], loop: { max: 2, until: "y" } }
impact:
  - { on: audience, at: i, invalidate: [u] }
`;
    const { model } = parseContract(source);
    expect([...new Set(model.references.map((r) => r.kind))].sort()).toEqual([
      "at",
      "compensate",
      "done",
      "invalidate",
      "lookup",
      "needs",
      "outputs",
      "produces",
      "uses",
      "verify",
    ]);
    expect(model.expressions.map((e) => [e.kind, e.path.join("."), source.slice(e.span.start, e.span.end)])).toEqual([
      ["key", "tools.b.key", '"k"'],
      ["with", "tools.b.compensate.with.id", '"${result.id}"'],
      ["check", "verifiers.v.check", '"result.ok"'],
      ["check", "units.u.verify.1.check", '"x"'],
      ["until", "units.u.loop.until", '"y"'],
      ["check", "task.done.1.check", '"result.ok"'],
    ]);
  });

  it("finds the symbol under an offset and resolves it", () => {
    const { model } = parseContract(text);
    const at = symbolAt(model, text.indexOf("report]\n  draft") + 1);
    expect(at?.type).toBe("reference");
    if (at?.type === "reference") expect(resolveReference(model, at.ref)?.kind).toBe("artifact");
  });

  it.each([
    ["an unclosed flow sequence, where it is noticed", "a: [1, 2\nb: 3\n", 1],
    ["a nested mapping on one line", "a: 1\nb: 2\nc: d: e\n", 2],
    ["a second document", "a: 1\n---\nb: 2\n", 1],
    ["binary bytes", "a: 1\nb: \u0000\u0001", 1],
    ["flow nesting thousands deep", `a: ${"[".repeat(5000)}${"]".repeat(5000)}`, 0],
    ["block nesting thousands deep", Array.from({ length: 3000 }, (_, i) => `${" ".repeat(i)}k:`).join("\n"), undefined],
  ])("reports C001 for %s", (_name, source, line) => {
    const { diagnostics, syntaxBroken } = parseContract(source);
    expect(syntaxBroken).toBe(true);
    expect(diagnostics[0]?.code).toBe("C001");
    if (line !== undefined) expect(diagnostics[0]!.range.start.line).toBe(line);
  });
});

describe("syntax error noise", () => {
  it("reports a broken indent once, not once per following line", () => {
    const lines = ["a:", "  b: 1", " c: 2", ...Array.from({ length: 200 }, (_, i) => `  k${i}: ${i}`)];
    const { diagnostics } = parseContract(lines.join("\n"));
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.length).toBeLessThanOrEqual(3);
    expect(diagnostics[0]!.range.start.line).toBe(2);
  });

  it("keeps the first error and drops the parser's cascade after it", () => {
    const text = `x: "unclosed\n${Array.from({ length: 300 }, (_, i) => `k${i}: [${i}, "v"]`).join("\n")}\n`;
    const { diagnostics } = parseContract(text);
    expect(diagnostics[0]!.code).toBe("C001");
    expect(diagnostics.length).toBeLessThanOrEqual(10);
  });
});

describe("LineIndex", () => {
  it("converts offsets and positions both ways, CRLF included", () => {
    const lines = new LineIndex("ab\r\ncd\nef");
    expect(lines.offsetToPosition(5)).toEqual({ line: 1, character: 1 });
    expect(lines.positionToOffset({ line: 1, character: 1 })).toBe(5);
    expect(lines.positionToOffset({ line: 0, character: 99 })).toBe(2);
    expect(lines.lineText(0)).toBe("ab");
  });
});

describe("scalarOffsetMapper", () => {
  it.each([
    ["plain", "k: a.b + c\n", "c"],
    ["double-quoted with escapes", 'k: "\\"x\\" + c"\n', "c"],
    ["single-quoted with ''", "k: 'it''s + c'\n", "c"],
    ["folded plain across lines", "k: a &&\n  c\n", "c"],
    ["block literal", "k: |\n  a &&\n  c\n", "c"],
  ])("maps a value offset to the document in a %s scalar", (_name, source, needle) => {
    const { doc } = parseContract(source);
    const scalar = (doc!.contents as { items: { value: import("yaml").Scalar }[] }).items[0]!.value;
    const value = String(scalar.value);
    const map = scalarOffsetMapper(source, scalar);
    expect(source[map(value.lastIndexOf(needle))]).toBe(needle);
  });
});
