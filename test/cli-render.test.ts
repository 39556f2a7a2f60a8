/** The compiler-style text rendering: position, code frame, carets, notes, help, summary. */
import { describe, expect, it } from "vitest";
import { makeDiagnostic, LineIndex } from "../compiler/src/index.js";
import { renderText, summary } from "../cli/src/render/diagnostics.js";

describe("renderText", () => {
  const text = "a: 1\n\tkey: value\r\nlast: x\n";
  const lines = new LineIndex(text);
  const start = text.indexOf("value");

  it("prints file:line:col, the source line and carets under the range (tabs kept)", () => {
    const d = makeDiagnostic(lines, "C002", { start, end: start + 5 }, "bad value", {
      related: [{ message: "see here", span: { start: text.indexOf("last"), end: text.indexOf("last") + 4 } }],
      fixes: [{ title: "Change it", edits: [{ span: { start, end: start + 5 }, newText: "v" }], safe: true }],
    });
    expect(renderText({ file: "f.task.yaml", text, diagnostics: [d] }, { color: false }).split("\n")).toEqual([
      "f.task.yaml:2:7: error C002: bad value",
      " 2 | \tkey: value",
      "   | \t     ^^^^^",
      "f.task.yaml:3:1: note: see here",
      "  help: Change it",
      "  docs: https://github.com/taskspec/taskspec/blob/main/docs/diagnostics.md#c002",
      "",
    ]);
  });

  it("draws one caret for an empty range and stops a multi-line range at the line end", () => {
    const empty = makeDiagnostic(lines, "C041", { start: 0, end: 0 }, "x");
    const multi = makeDiagnostic(lines, "C001", { start: 0, end: text.length }, "y");
    const out = renderText({ file: "f", text, diagnostics: [empty, multi] }, { color: false }).split("\n");
    expect(out[2]).toBe("   | ^");
    expect(out[6]).toBe("   | ^^^^");
  });

  it("summarises counts across files", () => {
    const d = makeDiagnostic(lines, "C080", { start: 0, end: 1 }, "w");
    expect(summary([{ file: "a", text, diagnostics: [d] }, { file: "b", text, diagnostics: [] }])).toBe("0 errors, 1 warning in 2 files\n");
  });
});
