/**
 * Semantic tokens in document coordinates: each token's text as the author
 * wrote it (through quotes, escapes and folded lines), the relative encoding,
 * a range, and the delta between two answers.
 */
import { describe, expect, it } from "vitest";
import {
  SEMANTIC_TOKENS_LEGEND,
  documentTokens,
  encodeTokens,
  semanticTokensInRange,
  tokensDelta,
  type DocumentToken,
} from "../src/service/semantic-tokens.js";
import { analyzeText, spec } from "./helpers.js";

const TEXT = [
  "contract: 1",
  'task: { id: t, goal: g, outputs: [out], done: [{ check: "exists(inputs.brief)" }] }',
  "budgets: { model_calls: 10 }",
  "inputs:",
  "  brief: { kind: decision, value: b }",
  "tools:",
  '  write_file: { class: idempotent, key: "${run.id}/\\u0041/${unit.id}" }',
  "units:",
  "  a:",
  "    needs: { brief: content }",
  "    uses: [write_file]",
  "    produces: [out]",
  "    verify:",
  "      - check: >-",
  "          len(inputs.brief) > 0 &&",
  "          count(result.items) >= 2",
  "",
].join("\n");

function shown(text: string, tokens: DocumentToken[]): string[] {
  const lines = text.split("\n");
  return tokens.map((t) => `${t.line}:${t.kind}:${lines[t.line]!.slice(t.character, t.character + t.length)}`);
}

describe("semantic tokens", () => {
  it("cover every expression and template, at the author's text", () => {
    expect(shown(TEXT, documentTokens(analyzeText(TEXT)))).toEqual([
      "1:function:exists",
      "1:variable:inputs",
      "1:property:brief",
      "6:delimiter:${",
      "6:variable:run",
      "6:property:id",
      "6:delimiter:}",
      "6:delimiter:${",
      "6:variable:unit",
      "6:property:id",
      "6:delimiter:}",
      "14:function:len",
      "14:variable:inputs",
      "14:property:brief",
      "14:operator:>",
      "14:number:0",
      "14:operator:&&",
      "15:function:count",
      "15:variable:result",
      "15:property:items",
      "15:operator:>=",
      "15:number:2",
    ]);
  });

  it("are encoded relative to the previous token, with the legend's type indexes", () => {
    const tokens: DocumentToken[] = [
      { line: 1, character: 4, length: 5, kind: "function" },
      { line: 1, character: 10, length: 6, kind: "variable" },
      { line: 3, character: 2, length: 2, kind: "delimiter" },
    ];
    const types = SEMANTIC_TOKENS_LEGEND.tokenTypes;
    expect(encodeTokens(tokens)).toEqual([
      1,
      4,
      5,
      types.indexOf("function"),
      0,
      0,
      6,
      6,
      types.indexOf("variable"),
      0,
      2,
      2,
      2,
      types.indexOf("operator"),
      0,
    ]);
  });

  it("in a range: only the tokens that overlap it", () => {
    const all = encodeTokens(documentTokens(analyzeText(TEXT)).filter((t) => t.line === 15));
    expect(semanticTokensInRange(analyzeText(TEXT), { start: { line: 15, character: 0 }, end: { line: 16, character: 0 } }).data).toEqual(
      all,
    );
  });

  it("a delta replaces only what changed, and applying it gives the new answer", () => {
    const before = encodeTokens(documentTokens(analyzeText(TEXT)));
    const after = encodeTokens(documentTokens(analyzeText(TEXT.replace("count(result.items) >= 2", "count(result.items) >= 2 && true"))));
    const edits = tokensDelta(before, after);
    expect(edits).toHaveLength(1);
    expect(edits[0]!.data!.length).toBeLessThan(after.length / 4);
    const patched = [...before];
    patched.splice(edits[0]!.start, edits[0]!.deleteCount, ...edits[0]!.data!);
    expect(patched).toEqual(after);
    expect(tokensDelta(after, after)).toEqual([]);
  });

  it("every example contract's tokens lie on its expressions' lines", () => {
    const text = spec("market-entry-pack.task.yaml");
    const lines = text.split("\n");
    const tokens = documentTokens(analyzeText(text));
    expect(tokens.length).toBeGreaterThan(50);
    for (const t of tokens) expect(lines[t.line]!.length).toBeGreaterThanOrEqual(t.character + t.length);
    expect(shown(text, tokens).filter((s) => s.includes(":function:")).length).toBeGreaterThan(5);
  });
});
