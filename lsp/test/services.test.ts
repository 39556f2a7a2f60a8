/**
 * The pure service functions, in-process, on the example contracts and small
 * fixtures with a cursor marker (‸): diagnostics, hover, completion,
 * navigation, rename, symbols, impact lenses, impact of an edit, quick fixes.
 */
import { EXPR_FUNCTIONS, LineIndex, boundedPath, compile, compileExpression, docsUrl, impact, invalidatedBy } from "@taskspec/compiler";
import { generateChain } from "../../bench/lsp/generate-chain.mjs";
import { describe, expect, it } from "vitest";
import type { CompletionItem, DocumentSymbol, MarkupContent, Range, SelectionRange } from "vscode-languageserver";
import type { Analysis } from "../src/service/analysis.js";
import { codeActions } from "../src/service/code-actions.js";
import { codeLenses, impactOfNode, resolveCodeLens } from "../src/service/code-lens.js";
import { complete, needsComputations } from "../src/service/complete.js";
import { definition } from "../src/service/definition.js";
import { toLspDiagnostics } from "../src/service/diagnostics.js";
import { hover } from "../src/service/hover.js";
import { openCall, signatureHelp } from "../src/service/signature-help.js";
import { foldingRanges, selectionRanges } from "../src/service/ranges.js";
import { inlayHints } from "../src/service/inlay-hints.js";
import { documentLinks } from "../src/service/document-links.js";
import { graphOf, impactOfEdit } from "../src/service/impact-edit.js";
import { DEFAULT_PATH_BUDGET, boundedPaths } from "../src/service/impact-paths.js";
import { references } from "../src/service/references.js";
import { prepareRename, rename } from "../src/service/rename.js";
import { documentSymbols, workspaceSymbols } from "../src/service/symbols.js";
import { analyzeText, at, positionOf, spec } from "./helpers.js";

const MARKET = spec("market-entry-pack.task.yaml");
const market = analyzeText(MARKET);

function hoverText(text: string, needle: string, nth = 0, delta = 1): string {
  const h = hover(analyzeText(text), positionOf(text, needle, nth, delta));
  return h ? (h.contents as MarkupContent).value : "";
}

function textOf(text: string, range: Range): string {
  const index = new LineIndex(text);
  return text.slice(index.positionToOffset(range.start), index.positionToOffset(range.end));
}

function labels(items: CompletionItem[]): string[] {
  return items.map((i) => i.label);
}

describe("diagnostics", () => {
  it("the example contracts compile clean", () => {
    expect(market.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(market.current).toBe(true);
  });

  it("carry the code, the docs link and related locations", () => {
    const cycle = analyzeText(spec("invalid/C020-cycle.task.yaml"));
    const [d] = toLspDiagnostics(cycle, { relatedInformation: true, codeDescription: true }).filter((x) => x.code === "C020");
    expect(d).toBeDefined();
    expect(d!.codeDescription?.href).toBe(docsUrl("C020"));
    expect(d!.source).toBe("taskspec");
    expect(d!.relatedInformation?.length ?? 0).toBeGreaterThan(0);
  });

  it("fold related locations into the message when the client cannot show them", () => {
    const cycle = analyzeText(spec("invalid/C020-cycle.task.yaml"));
    const [d] = toLspDiagnostics(cycle, { relatedInformation: false, codeDescription: false }).filter((x) => x.code === "C020");
    expect(d!.relatedInformation).toBeUndefined();
    expect(d!.codeDescription).toBeUndefined();
    expect(d!.message).toMatch(/\(line \d+\)/);
  });
});

describe("hover", () => {
  it("reads a name with '-' inside an expression as one name, as the expression lexer does", () => {
    const text = [
      "contract: 1",
      'task: { id: t, goal: g, outputs: [out], done: [{ check: "exists(result)" }] }',
      "budgets: { model_calls: 10 }",
      "inputs:",
      "  group-c: { kind: snapshot, version: v3 }",
      "units:",
      "  E03:",
      "    needs: { group-c: content }",
      "    produces: [out]",
      '    verify: [{ check: "exists(inputs.group-c)" }]',
      "",
    ].join("\n");
    expect(hoverText(text, "group-c)", 0, 6)).toContain("`inputs.group-c`");
  });

  it.each([
    [
      "a unit where it is defined",
      "  S04:\n",
      0,
      3,
      [
        "unit S04",
        "phase `synthesize`",
        "needs: V03 (content), V06 (content, policy)",
        "needed by: A01 (content, structure), A03 (content)",
        "produces: synthesis-04",
        "write_file (idempotent)",
        "verifiers: has_claims, claims_checked",
        "worst case:",
        "a change here invalidates 3 units",
      ],
    ],
    ["a unit where it is referenced", "S04: [content, structure]", 0, 1, ["unit S04"]],
    ["an input", "audience: { kind", 0, 1, ["input audience", "`decision`", "needed by: U27 (audience)", "invalidates 7 units"]],
    ["a tool", "write_file]", 0, 1, ["tool write_file", "class `idempotent`", "used by: E01"]],
    ["a verifier", "tone_ok, has_claims", 0, 1, ["verifier tone_ok", "`model`"]],
    ["an edge kind", "[content, policy]", 0, 11, ["edge kind **policy**"]],
    ["a recovery class", "class: idempotent", 0, 9, ["recovery class **idempotent**", "same business key"]],
  ])("on %s", (_name, needle, nth, delta, expected) => {
    const text = hoverText(MARKET, needle, nth, delta);
    for (const part of expected) expect(text).toContain(part);
  });

  it.each([
    ["a root name", 'until: "result.claims_check', 'until: "res'.length, "`result`: any"],
    ["a field of a known object", 'key: "${run.id}/${unit.id}', 'key: "${run.id}/${unit.i'.length, "`unit.id`: string"],
  ])("on an expression name (%s): its type", (_name, needle, delta, expected) => {
    expect(hoverText(MARKET, needle, 0, delta)).toBe(expected);
  });

  it("on a function call: its signature, what it does and an example", () => {
    const text = hoverText(MARKET, 'check: "count(result.claims) >= 1"', 0, 'check: "cou'.length);
    expect(text).toContain("count(list) -> number");
    expect(text).toContain("number of elements of a list");
    expect(text).toContain("example: `count(result.claims) >= 3`");
  });

  it("every function's example is a valid expression", () => {
    for (const fn of Object.values(EXPR_FUNCTIONS)) {
      expect(compileExpression(fn.example, { result: { type: "any" } }, "boolean").errors, fn.name).toEqual([]);
    }
  });

  it.each([
    ["the key needs", "    needs: { V03: content, V06", 0, 5, ["**needs** · in `units.<name>`", "Upstream units or inputs"]],
    ["the key timeout", "    timeout: 45m", 0, 6, ["**timeout**", "Per-attempt time limit"]],
    ["the key loop", "    loop: { max: 3", 0, 6, ["**loop**", "Bounded iteration inside the unit."]],
    ["the key max inside loop", "    loop: { max: 3", 0, 13, ["**max** · in `units.<name>.loop`", "Most iterations"]],
    ["a top-level key", "\nunits:", 0, 3, ["**units**", "required"]],
    ["a plain value", "    phase: extract", 0, 12, ["**phase: extract**", "Phase label used for grouping"]],
    ["a value with allowed values", "kind: snapshot", 0, 2, ["**kind**"]],
  ])("on %s: the schema's description", (_name, needle, nth, delta, expected) => {
    const text = hoverText(MARKET, needle, nth, delta);
    for (const part of expected) expect(text).toContain(part);
  });

  it("every key of the example contract answers a hover", () => {
    const analysis = market;
    const silent: string[] = [];
    const keys = [...MARKET.matchAll(/^(\s*(?:- )?)([a-z_]+):/gm)];
    for (const m of keys) {
      const offset = m.index! + m[1]!.length + 1;
      const h = hover(analysis, analysis.parsed.lines.offsetToPosition(offset));
      if (!h) silent.push(m[2]!);
    }
    expect(silent).toEqual([]);
  });

  it("on a unit with a side-effecting tool: what recovery does with it", () => {
    const post = spec("publish-post.task.yaml");
    const text = hoverText(post, "  publish:\n", 0, 3);
    expect(text).toMatch(/- recovery: create_post \(dedup\): .*find_post/);
    expect(text).not.toContain("recovery: search_web");
  });

  it("never shows a secret input's value: *** in the input's hover and the value's", () => {
    const SECRET = "PLANTED-hover-secret-0001";
    const base = [
      "contract: 1",
      "task: { id: t, goal: g, timeout: 10m, outputs: [out], done: [ok] }",
      "budgets: { tool_calls: 5 }",
      "inputs:",
      `  pw: { kind: decision, value: ${SECRET} }`,
      "  key: { kind: external, secret: true }",
      "tools:",
      "  mail: { class: idempotent, args: { password: { secret: true }, to: { safe: true } }, result: { id: string, token: { type: string, secret: true } } }",
      "verifiers:",
      '  ok: { kind: rule, check: "result.ok" }',
      "units:",
      "  u: { needs: { pw: content, key: content }, uses: [mail], produces: [out], verify: [ok] }",
      "",
    ].join("\n");
    // the plan that compiled knew the value; the text now marks it secret (C037, no new plan)
    const good = analyzeText(base, 1);
    expect(good.current).toBe(true);
    const marked = base.replace(`pw: { kind: decision, value: ${SECRET} }`, `pw: { kind: decision, secret: true, value: ${SECRET} }`);
    const analysis = analyzeText(marked, 2, good);
    const at = (needle: string, delta: number) => (hover(analysis, positionOf(marked, needle, 0, delta))?.contents as MarkupContent).value;
    const onInput = at("pw: content", 1);
    expect(onInput).toContain("- value: `***`");
    expect(onInput).toContain("- secret: never stored");
    expect(at(SECRET, 3)).toContain("**value: ***");
    for (const text of [onInput, at(SECRET, 3)]) expect(text).not.toContain(SECRET);
    expect(at("key: content", 1)).toContain("- secret: never stored");
    const onTool = at("uses: [mail]", "uses: [m".length);
    expect(onTool).toContain("- secret arguments (never stored, `***`): password");
    expect(onTool).toContain("- arguments shown in the intent: to");
    expect(onTool).toContain("- secret result fields (never stored): token");
  });

  it("answers from the last good version while the text is broken", () => {
    const good = analyzeText(MARKET, 1);
    const broken = MARKET.replace("  S04:\n    phase: synthesize", "  S04:\n    phase: [synthesize");
    const analysis = analyzeText(broken, 2, good);
    expect(analysis.current).toBe(false);
    const h = hover(analysis, positionOf(broken, "  A03:\n", 0, 3));
    expect((h?.contents as MarkupContent).value).toContain("as of version 1");
  });
});

describe("completion", () => {
  const base = MARKET.slice(0, MARKET.indexOf("\nunits:\n") + 1);
  it.each([
    ["top-level keys", "contract: 1\n‸", ["task", "inputs", "budgets", "tools", "verifiers", "units", "impact"], []],
    [
      "unit keys",
      MARKET.replace("\nimpact:", "\n  Z01:\n    ‸\nimpact:"),
      ["phase", "needs", "uses", "produces", "verify", "loop", "retry", "approval", "timeout"],
      ["class"],
    ],
    ["tool keys", "tools:\n  t:\n    ‸", ["class", "key", "lookup", "compensate", "result", "approval"], ["needs"]],
    [
      "unit keys it does not have yet",
      MARKET.replace("    phase: audit\n", "    phase: audit\n    ‸\n"),
      ["loop", "approval", "retry"],
      ["phase", "needs", "uses", "produces"],
    ],
    ["top-level keys not written yet", MARKET.replace("\nimpact:", "\n‸\nimpact:"), [], ["task", "units", "budgets"]],
    [
      "needs: units and inputs, never itself or a unit downstream of it",
      MARKET.replace("needs: { V03: content, V06: [content, policy] }", "needs: { V03: content, ‸ }"),
      ["V01", "E03", "audience", "group-c"],
      ["S04", "A01", "A03", "F01", "V03"],
    ],
    ["edge kinds", MARKET.replace("V03: content, V06", "V03: str‸, V06"), ["content", "structure", "policy", "audience"], []],
    [
      "tools in uses",
      MARKET.replace("uses: [fetch_page, write_file]", "uses: [fetch_page, ‸]"),
      ["write_file", "fetch_page"],
      ["has_claims"],
    ],
    [
      "verifiers in verify",
      MARKET.replace("verify: [has_claims, claims_checked]", "verify: [has_claims, ‸]"),
      ["claims_checked", "tone_ok"],
      ["write_file"],
    ],
    ["verifiers in task.done", MARKET.replace("done: [all_outputs_current, cross_file_audit]", "done: [‸]"), ["cross_file_audit"], []],
    ["recovery classes", `${base}tools:\n  t: { class: ‸`, ["read", "idempotent", "dedup", "compensable", "irreversible"], []],
    ["approval values from the schema", MARKET.replace("    phase: audit\n", "    phase: audit\n    approval: ‸\n"), ["human", "rule"], []],
    ["expression names", MARKET.replace('until: "result.claims_check.passed"', 'until: "‸"'), ["result", "count"], []],
    ["fields inside an expression", MARKET.replace('until: "result.claims_check.passed"', 'until: "unit.‸"'), ["id"], ["count"]],
    [
      "names inside a template",
      MARKET.replace('key: "${run.id}/${unit.id}/${attempt.id}/${args.name}"', 'key: "${‸}"'),
      ["run", "unit", "attempt", "iteration", "args", "task"],
      [],
    ],
  ])("%s", (_name, marked, want, notWant) => {
    const { analysis, position } = at(marked);
    const got = labels(complete(analysis, position));
    for (const w of want) expect(got).toContain(w);
    for (const n of notWant) expect(got).not.toContain(n);
  });

  it("after `result.`: the fields the contract's checks read from this unit's result, with where", () => {
    const { analysis, position } = at(MARKET.replace('until: "result.claims_check.passed"', 'until: "result.‸"'));
    const items = complete(analysis, position);
    // S04 uses has_claims (result.claims) and claims_checked (result.claims_check)
    expect(labels(items)).toEqual(expect.arrayContaining(["claims", "claims_check"]));
    expect(labels(items)).not.toContain("sha256");
    const claims = items.find((i) => i.label === "claims")!;
    expect((claims.documentation as MarkupContent).value).toContain("verifier has_claims");
  });

  it("after a need's name and a dot: the fields read from that unit's result", () => {
    const { analysis, position } = at(MARKET.replace('until: "result.claims_check.passed"', 'until: "V03.‸"'));
    // V03 uses evidence_schema (a schema, no check) and sources_cited (result.uncited_claims)
    expect(labels(complete(analysis, position))).toEqual(["uncited_claims"]);
  });

  it("works out a unit's cycle-free needs once per document version, not per request", () => {
    const marked = MARKET.replace("needs: { V03: content, V06: [content, policy] }", "needs: { V03: content, ‸ }");
    const { analysis, position, text } = at(marked);
    const before = needsComputations.count;
    const first = labels(complete(analysis, position));
    expect(labels(complete(analysis, position))).toEqual(first);
    expect(needsComputations.count - before).toBe(1);
    // the next version (a new unit downstream, one beside) works them out again: never a stale answer
    const added = "units:\n  Z01: { needs: { S04: content } }\n  Z02: { needs: { sources: content } }\n";
    const next = analyzeText(text.replace("\nunits:\n", `\n${added}`), 2, analysis);
    const again = labels(complete(next, positionOf(next.text, "needs: { V03: content, ", 0, "needs: { V03: content, ".length)));
    expect(needsComputations.count - before).toBe(2);
    expect(again).not.toContain("Z01");
    expect(again).toContain("Z02");
    expect(first).not.toContain("Z02");
  });

  it("every item carries documentation, and required keys say so", () => {
    for (const marked of [
      "contract: 1\n‸",
      MARKET.replace("needs: { V03: content, V06: [content, policy] }", "needs: { V03: content, ‸ }"),
      MARKET.replace("uses: [fetch_page, write_file]", "uses: [fetch_page, ‸]"),
      MARKET.replace('until: "result.claims_check.passed"', 'until: "‸"'),
      MARKET.replace("    phase: audit\n", "    phase: audit\n    approval: ‸\n"),
      MARKET.replace("V03: content, V06", "V03: str‸, V06"),
    ]) {
      const { analysis, position } = at(marked);
      const items = complete(analysis, position);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items)
        expect((item.documentation as MarkupContent | undefined)?.value, `${item.label} has documentation`).toBeTruthy();
    }
    const { analysis, position } = at("contract: 1\n‸");
    const task = complete(analysis, position).find((i) => i.label === "task")!;
    expect(task.detail).toBe("required");
    expect((task.documentation as MarkupContent).value).toMatch(/^\*\*required\*\*/);
  });

  it("works on a half-typed line that breaks the YAML", () => {
    const { analysis, position } = at(MARKET.replace("    phase: audit\n", "    phase: audit\n    uses: [wri‸\n"));
    expect(analysis.current).toBe(false);
    expect(labels(complete(analysis, position))).toContain("write_file");
  });
});

describe("navigation", () => {
  it("goes to the definition of a unit, a tool, a verifier, an artifact's producer", () => {
    for (const [needle, nth, target] of [
      ["S04: [content, structure]", 0, "  S04:\n"],
      ["write_file]", 0, "  write_file:\n"],
      ["cross_file_audit]", 0, "  cross_file_audit:\n"],
      ["report, evidence-table", 0, "produces: [report]"],
    ] as const) {
      const [loc] = definition(market, positionOf(MARKET, needle, nth, 1));
      const expected = positionOf(MARKET, target, 0, target.startsWith("  ") ? 2 : "produces: [".length);
      expect(loc?.range.start, needle).toEqual(expected);
    }
  });

  it("finds every reference to a unit", () => {
    const refs = references(market, positionOf(MARKET, "  S04:\n", 0, 3), true);
    // the declaration, A01 and A03 needs
    expect(refs).toHaveLength(3);
  });

  it("renames a unit everywhere", () => {
    const position = positionOf(MARKET, "  S04:\n", 0, 3);
    expect(prepareRename(market, position)?.placeholder).toBe("S04");
    const result = rename(market, position, "S04b");
    if (!("edit" in result)) throw new Error(result.refused);
    const edits = result.edit.changes![market.uri]!;
    expect(edits).toHaveLength(3);
    expect(edits.every((e) => e.newText === "S04b")).toBe(true);
  });

  it("renames an input, a tool, a verifier and an artifact, and the result still compiles", () => {
    for (const [needle, newName] of [
      ["group-c: content", "interviews"],
      ["write_file:\n", "write_out"],
      ["tone_ok: {", "tone_fits"],
      ["evidence-table]", "evidence-sheet"],
    ] as const) {
      const result = rename(market, positionOf(MARKET, needle, 0, 1), newName);
      if (!("edit" in result)) throw new Error(result.refused);
      const renamed = applyEdits(MARKET, result.edit.changes![market.uri]!);
      const after = analyzeText(renamed);
      expect(
        after.diagnostics.filter((d) => d.severity === "error"),
        needle,
      ).toEqual([]);
      expect(renamed).toContain(newName);
    }
  });

  it("renames names inside expressions: a needed unit's result, inputs.<name>", () => {
    const text = MARKET.replace(
      "    verify: [file_written, sources_cited, tone_ok]\n    timeout: 45m\n  A04:",
      '    verify: [file_written, { check: "count(S04.claims) >= 1 && inputs.audience != null" }]\n    timeout: 45m\n  A04:',
    );
    const analysis = analyzeText(text);
    expect(analysis.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const [fromExpression] = definition(analysis, positionOf(text, "S04.claims", 0, 1));
    expect(fromExpression?.range.start).toEqual(positionOf(text, "  S04:\n", 0, 2));
    expect(rename(analysis, positionOf(text, "inputs.audience", 0, "inputs.au".length), "readers")).toHaveProperty("edit");
    for (const [needle, newName, count] of [
      ["  S04:\n", "landscape", 4],
      ["audience: { kind", "readers", 6],
    ] as const) {
      const position = positionOf(text, needle, 0, needle.startsWith("  ") ? 3 : 1);
      expect(references(analysis, position, true), needle).toHaveLength(count);
      const result = rename(analysis, position, newName);
      if (!("edit" in result)) throw new Error(result.refused);
      const renamed = applyEdits(text, result.edit.changes![analysis.uri]!);
      expect(
        analyzeText(renamed).diagnostics.filter((d) => d.severity === "error"),
        renamed,
      ).toEqual([]);
    }
  });

  it.each([
    ["a name already taken by a unit", "S03", /already the name of a unit/],
    ["a name taken by an input (same namespace as units)", "audience", /already the name of an input/],
    ["an invalid name", "has space", /not a valid name/],
  ])("refuses %s", (_name, newName, message) => {
    const result = rename(market, positionOf(MARKET, "  S04:\n", 0, 3), newName);
    expect("refused" in result && result.refused).toMatch(message);
  });

  it("lists units grouped by phase, with bare ids as names", () => {
    const symbols = documentSymbols(market) as DocumentSymbol[];
    const units = symbols.find((s) => s.name === "units")!;
    expect(units.children!.map((c) => c.name)).toEqual([
      "phase extract",
      "phase verify",
      "phase synthesize",
      "phase frame",
      "phase assemble",
      "phase audit",
    ]);
    expect(units.children![2]!.children!.map((c) => c.name)).toEqual(["S01", "S02", "S03", "S04", "S05", "S06"]);
  });

  it("finds workspace symbols across documents", () => {
    const other = analyzeText(spec("publish-post.task.yaml"));
    const found = workspaceSymbols([market, other], "pub");
    expect(found.map((s) => s.name)).toContain("publish");
    expect(workspaceSymbols([market, other], "S04").map((s) => s.name)).toEqual(["S04"]);
  });
});

describe("folding and selection ranges", () => {
  it("folds each section and each unit written as a block", () => {
    const folds = foldingRanges(market);
    const lineOf = (needle: string) => positionOf(MARKET, needle).line;
    const units = folds.find((f) => f.startLine === lineOf("\nunits:") + 1)!;
    expect(units).toBeDefined();
    expect(units.endLine).toBeGreaterThan(lineOf("  F01:"));
    const s04 = folds.find((f) => f.startLine === lineOf("  S04:\n"))!;
    expect(s04.endLine).toBe(lineOf("  S04:\n") + 9);
    // one-line flow mappings do not fold
    expect(folds.find((f) => f.startLine === lineOf("    loop: { max: 3"))).toBeUndefined();
  });

  it("expands from a word to its value, the pair, the unit, the units section, the document", () => {
    const offset = MARKET.indexOf("    timeout: 45m", MARKET.indexOf("  S04:\n")) + 14;
    const position = market.parsed.lines.offsetToPosition(offset);
    const [range] = selectionRanges(market, [position]);
    const chain: string[] = [];
    for (let r: SelectionRange | undefined = range; r; r = r.parent) chain.push(textOf(MARKET, r.range));
    expect(chain[0]).toBe("45m");
    expect(chain).toContain("timeout: 45m");
    expect(chain.some((t) => t.startsWith("S04:\n    phase: synthesize") || t.startsWith("phase: synthesize"))).toBe(true);
    expect(chain[chain.length - 1]).toBe(MARKET);
  });
});

describe("inlay hints, document links, snippets", () => {
  const whole = (a: ReturnType<typeof analyzeText>) => ({
    start: { line: 0, character: 0 },
    end: a.parsed.lines.offsetToPosition(a.text.length),
  });

  it("a unit's worst case after its name, and a loop's bound times its attempts", () => {
    const hints = inlayHints(market, whole(market));
    const s04 = positionOf(MARKET, "  S04:\n", 0, 6);
    const plan = market.good!.plan;
    const unit = plan.units.find((u) => u.id === "S04")!;
    const at = hints.filter((h) => h.position.line === s04.line);
    expect(at.map((h) => h.label)).toEqual([
      ` worst case ${unit.worstCase.model_calls} model calls · ${unit.worstCase.tool_calls} tool calls · ${+(unit.worstCase.tokens / 1000).toFixed(1)}k tokens`,
    ]);
    const loopLine = positionOf(MARKET, "    loop: { max: 3", 0).line;
    // retries: 1 in budgets -> 2 attempts
    expect(hints.find((h) => h.position.line === loopLine)?.label).toBe(" ≤ 3 iterations × 2 attempts = 6 runs");
    expect(hints.filter((h) => String(h.label).startsWith(" worst case"))).toHaveLength(36);
    // only the requested range
    expect(inlayHints(market, { start: positionOf(MARKET, "  S04:\n", 0, 2), end: s04 })).toHaveLength(1);
  });

  it("no hints before the contract ever compiled", () => {
    const broken = analyzeText(MARKET.replace("units:\n", "units:\n  Z99: { needs: { nowhere: content } }\n"));
    expect(inlayHints(broken, whole(broken))).toEqual([]);
  });

  it("links a verifier's schema file, resolved against the contract's folder", () => {
    const links = documentLinks(market);
    expect(links).toHaveLength(1);
    expect(links[0]!.target).toBe("file:///work/schemas/evidence.json");
    expect(textOf(MARKET, links[0]!.range)).toBe("schemas/evidence.json");
  });

  it.each([
    ["units", "new unit", MARKET.replace("\nimpact:", "\n  ‸\nimpact:")],
    ["tools", "new tool", MARKET.replace("\nverifiers:", "\n  ‸\nverifiers:")],
    ["verifiers", "new verifier", MARKET.replace("\nunits:", "\n  ‸\nunits:")],
  ])("a snippet under %s that compiles once its placeholders are filled", (_section, label, marked) => {
    const { analysis, position, text, offset } = at(marked);
    const item = complete(analysis, position, true).find((i) => i.label === label)!;
    expect(item.insertTextFormat).toBe(2);
    expect(complete(analysis, position, false).find((i) => i.label === label)).toBeUndefined();
    const fill: Record<string, string> = {
      U01: "Z01",
      input: "audience",
      tool: "write_file",
      artifact: "z-out",
      verifier: "has_claims",
      tool_name: "z_tool",
      verifier_name: "z_check",
    };
    const body = (item.textEdit as { newText: string }).newText
      .replace(/\$\{\d+:([^}]*)\}/g, (_m, d: string) => fill[d] ?? d)
      .replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, "$1");
    const expanded = text.slice(0, offset) + body + text.slice(offset);
    const errors = compile(expanded).diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => `${d.code} ${d.message}`)).toEqual([]);
  });
});

describe("signature help", () => {
  it.each([
    ["count(|", "count(list) -> number", 0],
    ["all(exists(result.a), |", "all(boolean | list, ...) -> boolean", 0],
    ["count(result.claims) >= 1 && len('a, b(' + x, |", "len(string | list) -> number", 0],
  ])("inside %s", (source, label, active) => {
    const text = MARKET.replace('check: "count(result.claims) >= 1"', `check: "${source.replace("|", "‸")}"`);
    const { analysis, position } = at(text);
    const help = signatureHelp(analysis, position);
    expect(help?.signatures[0]?.label).toBe(label);
    expect(help?.activeParameter).toBe(active);
    expect((help?.signatures[0]?.documentation as MarkupContent).value).toContain("example:");
  });

  it("nothing outside a call", () => {
    const { analysis, position } = at(MARKET.replace('check: "count(result.claims) >= 1"', 'check: "count(result.claims) >= 1‸"'));
    expect(signatureHelp(analysis, position)).toBeNull();
  });

  it("finds the open call and the argument index, skipping strings and lists", () => {
    expect(openCall("all(a, [b, c], ")).toEqual({ name: "all", argument: 2 });
    expect(openCall('any("x(", ')).toEqual({ name: "any", argument: 1 });
    expect(openCall("count(x) + 1")).toBeUndefined();
  });
});

describe("impact lenses", () => {
  it("places a lens on every unit and input without computing it", () => {
    const lenses = codeLenses(market);
    expect(lenses).toHaveLength(36 + 14);
    expect(lenses.every((l) => l.command === undefined)).toBe(true);
  });

  it("resolves to the counts by kind and the show command", () => {
    const lens = codeLenses(market).find((l) => (l.data as { node: string }).node === "S04")!;
    const resolved = resolveCodeLens(market, lens);
    // only the kinds that are not zero
    expect(resolved.command?.title).toBe("impact: 3 units (content 3 · structure 2)");
    expect(resolved.command?.command).toBe("taskspec.showImpact");
  });

  it("counts from the version's count index, never building its plan (hashing every unit)", () => {
    const fresh = analyzeText(MARKET);
    const { version, text, counts } = fresh.good!;
    const planless: Analysis = {
      ...fresh,
      good: {
        version,
        text,
        counts,
        get plan(): never {
          throw new Error("the lens built the plan");
        },
      },
    };
    const plan = market.good!.plan;
    for (const lens of codeLenses(planless)) {
      const node = (lens.data as { node: string }).node;
      const total = invalidatedBy(plan, [{ origin: node, kinds: "all" }]).length;
      expect(resolveCodeLens(planless, lens).command?.title).toMatch(new RegExp(`^impact: ${total} units?\\b`));
    }
  });

  it("the command lists invalidated units with explanation paths", () => {
    const result = impactOfNode(market, "S04", ["structure"])!;
    expect(result.invalidated).toEqual([
      { unit: "A01", path: "S04 --structure--> A01" },
      { unit: "F01", path: "S04 --structure--> A01 --content--> F01" },
    ]);
    expect(impactOfNode(market, "audience")!.invalidated.map((u) => u.unit)).toEqual(["U27", "U28", "U29", "U30", "A01", "A03", "F01"]);
  });
});

describe("impact lenses and impact stay linear", () => {
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };

  it("a contract that never compiled gets one lens saying so, not one per unit", () => {
    const broken = analyzeText(MARKET.replace("units:\n", "units:\n  Z99: { needs: { nowhere: content } }\n"));
    expect(broken.good).toBeUndefined();
    const lenses = codeLenses(broken);
    expect(lenses).toHaveLength(1);
    expect(lenses[0]!.range.start).toEqual({ line: 0, character: 0 });
    expect(lenses[0]!.command?.title).toBe("impact: not known until the contract compiles");
  });

  it("a lens at the head of a 4,000-unit chain only counts (no explanation paths)", () => {
    const chain = analyzeText(generateChain(4000));
    void chain.good!.plan;
    const lens = codeLenses(chain).find((l) => (l.data as { node: string }).node === "sources")!;
    const start = cpuMs();
    const resolved = resolveCodeLens(chain, lens);
    // Building every unit's path here was 8M hops of text: seconds and gigabytes.
    expect(cpuMs() - start).toBeLessThan(1500);
    expect(resolved.command?.title).toBe("impact: 4000 units (content 4000)");
  });

  it("the impact of a chain's head lists the first units with bounded, elided paths, counts all, and says it is partial", () => {
    const chain = analyzeText(generateChain(3000));
    // the default budget but no clock: a loaded machine must not change the answer
    const result = impactOfNode(chain, "sources", "all", { ...DEFAULT_PATH_BUDGET, ms: 60_000 })!;
    expect(result.total).toBe(3000);
    // the list stops at 1,000 units (the whole list's size: bench/RESULTS.md, "figures behind code comments")
    expect(result.invalidated).toHaveLength(1000);
    expect(result.invalidated[999]).toEqual({ unit: "C00999" });
    expect(result.invalidated[1]).toEqual({ unit: "C00001", path: "sources --content--> C00000 --content--> C00001" });
    expect(result.invalidated[199]!.path).toBe(
      "sources --content--> C00000 --(188 more hops)--> C00188" +
        Array.from({ length: 11 }, (_, i) => ` --content--> C00${189 + i}`).join(""),
    );
    expect(result.invalidated[200]).toEqual({ unit: "C00200" });
    expect(result.partial).toBe(
      "Partial: the first 1000 of 3000 invalidated units are listed (plan order); explanation paths for the first 200 of 3000 units; " +
        "188 paths are longer than 12 hops and shown with the middle elided.",
    );
    expect(JSON.stringify(result).length).toBeLessThan(100_000);
    expect(result.byKind).toEqual({ content: 3000, structure: 0, policy: 0, audience: 0 });
  });

  it("path building stops at its time budget and says so", () => {
    const report = impact(compile(generateChain(50)).plan!, [{ origin: "sources", kinds: "all" }]);
    let clock = 0;
    const { invalidated, partial } = boundedPaths(report.invalidated, { listed: 1000, units: 100, hops: 12, ms: 10 }, () => (clock += 4));
    expect(invalidated.filter((u) => u.path !== undefined)).toHaveLength(3);
    expect(partial).toBe("Partial: explanation paths for the first 3 of 50 units (time budget reached).");
  });

  it("an elided path keeps the origin, the first hop and the last hops", () => {
    const report = impact(compile(generateChain(6)).plan!, [{ origin: "sources", kinds: "all" }]);
    const last = report.invalidated[5]!;
    expect(last.path).toBe(
      "sources --content--> C00000 --content--> C00001 --content--> C00002 --content--> C00003 --content--> C00004 --content--> C00005",
    );
    expect(boundedPath(last.cause, 6)).toEqual({ path: last.path, hops: 6 });
    expect(boundedPath(last.cause, 4)).toEqual({
      path: "sources --content--> C00000 --(2 more hops)--> C00002 --content--> C00003 --content--> C00004 --content--> C00005",
      hops: 6,
    });
    expect(boundedPath(last.cause, 5).path).toBe(
      "sources --content--> C00000 --(1 more hop)--> C00001 --content--> C00002 --content--> C00003 --content--> C00004 --content--> C00005",
    );
  });
});

describe("impact of this edit", () => {
  it("compares the buffer with a baseline text", () => {
    const edited = MARKET.replace(
      "audience: { kind: decision, value: product-team",
      "audience: { kind: decision, value: investment-committee",
    );
    const result = impactOfEdit(analyzeText(edited), "saved", { text: MARKET });
    expect(result.changes).toEqual([{ node: "audience", kinds: "all" }]);
    expect(result.invalidated.map((u) => u.unit)).toEqual(["U27", "U28", "U29", "U30", "A01", "A03", "F01"]);
    expect(result.kept).toContain("S04");
    // as lsp/README.md shows it
    expect(result.counts).toEqual({ invalidated: 7, kept: 29, added: 0, removed: 0 });
  });

  it("lists at most the budget's units in each list, with counts of all and a partial sentence", () => {
    const text = generateChain(30) as string;
    const edited = text.replace("sources: { kind: snapshot, version: v1 }", "sources: { kind: snapshot, version: v2 }");
    const result = impactOfEdit(analyzeText(edited), "saved", { text }, { listed: 10, units: 5, hops: 12, ms: 60_000 });
    expect(result.counts).toEqual({ invalidated: 30, kept: 0, added: 0, removed: 0 });
    expect(result.invalidated).toHaveLength(10);
    expect(result.partial).toBe(
      "Partial: the first 10 of 30 invalidated units are listed (plan order); explanation paths for the first 5 of 30 units.",
    );
    const renamed = text.replace(/C0000(\d)/g, "R0000$1");
    const moved = impactOfEdit(analyzeText(renamed), "saved", { text }, { listed: 4, units: 5, hops: 12, ms: 60_000 });
    expect(moved.counts).toMatchObject({ added: 10, removed: 10 });
    expect(moved.added).toHaveLength(4);
    expect(moved.removed).toHaveLength(4);
    expect(moved.partial).toContain("Partial: the first 4 of 10 added units are listed; the first 4 of 10 removed units are listed.");
  });

  it("says why when there is no baseline", () => {
    expect(impactOfEdit(market, "head", { unavailable: "not in git" }).unavailable).toBe("not in git");
  });
});

describe("the graph request", () => {
  it("draws the graph with the change highlighted, and says when there is no SVG", () => {
    const drawn = graphOf(market, [{ node: "audience" }])!;
    expect(drawn.svg).toBe(true);
    expect(drawn.graph.dot).toContain("digraph");
    expect(drawn.graph.partial).toBeUndefined();
    const big = graphOf(market, [], { units: 100, svgUnits: 10 })!;
    expect(big.svg).toBe(false);
    expect(big.graph.mermaid).toContain("U27");
    expect(big.graph.partial).toBe("Partial: no SVG: the graph has 36 units, and SVG is laid out for at most 10.");
  });

  it("above its limit, answers a one-node summary", () => {
    const chain = analyzeText(generateChain(300));
    const drawn = graphOf(chain, [{ node: "sources" }], { units: 200, svgUnits: 100 })!;
    expect(drawn.svg).toBe(false);
    expect(drawn.graph.partial).toBe(
      "Partial: the contract has 300 units; graphs of more than 200 units are not drawn (the impact answer counts every unit).",
    );
    expect(drawn.graph.dot).toContain('label="300 units: too many to draw (the limit is 200)"');
    expect(drawn.graph.dot).not.toContain("C00001");
    expect(graphOf(chain, [], { units: 300, svgUnits: 100 })!.graph.dot).toContain("C00299");
  });
});

describe("quick fixes", () => {
  it.each([
    ["C021", "invalid/C021-loop-without-max.task.yaml"],
    ["C030", "invalid/C030-no-compensator.task.yaml"],
    ["C033", "invalid/C033-dedup-without-key.task.yaml"],
    ["C034", "invalid/C034-no-approval-gate.task.yaml"],
    ["C051", "invalid/C051-no-done.task.yaml"],
    ["C010", "invalid/C010-unknown-need.task.yaml"],
    ["C070", "invalid/C070-unknown-edge-kind.task.yaml"],
    ["C002", "invalid/C002-unknown-key.task.yaml"],
  ])("%s has a repair that removes it", (code, file) => {
    const text = spec(file);
    const analysis = analyzeText(text);
    const d = analysis.diagnostics.find((x) => x.code === code);
    expect(d, `${file} reports ${code}`).toBeDefined();
    const actions = codeActions(analysis, d!.range);
    const action = actions.find((a) => a.diagnostics?.[0]?.code === code);
    expect(action, `a quick fix for ${code}`).toBeDefined();
    const fixed = applyEdits(text, action!.edit!.changes![analysis.uri]!);
    expect(analyzeText(fixed).diagnostics.filter((x) => x.code === code && x.message === d!.message)).toEqual([]);
  });
});

/** Applies LSP text edits (non-overlapping) to a text. */
export function applyEdits(
  text: string,
  edits: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[],
): string {
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}
