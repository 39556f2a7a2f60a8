/** The compiler-style text rendering: position, code frame, carets, notes, help, summary. */
import { describe, expect, it, vi } from "vitest";
import { makeDiagnostic, LineIndex } from "@taskspec/compiler";
import { FRAMES_PER_FILE, renderText, summary } from "../src/render/diagnostics.js";
import { FRAME_WIDTH } from "../src/render/code-frame.js";

describe("renderText", () => {
  const text = "a: 1\n\tkey: value\r\nlast: x\n";
  const lines = new LineIndex(text);
  const start = text.indexOf("value");

  it("prints file:line:col, the source line and carets under the range (tabs kept)", () => {
    const d = makeDiagnostic(lines, "C002", { start, end: start + 5 }, "bad value", {
      related: [{ message: "see here", span: { start: text.indexOf("last"), end: text.indexOf("last") + 4 } }],
      fixes: [{ title: "Change it", edits: [{ span: { start, end: start + 5 }, newText: "v" }], safe: true }],
    });
    vi.stubEnv("TASKSPEC_DOCS_URL", "https://docs.example/taskspec/diagnostics.md");
    expect(renderText({ file: "f.task.yaml", text, diagnostics: [d] }, { color: false }).split("\n")).toEqual([
      "f.task.yaml:2:7: error C002: bad value",
      " 2 | \tkey: value",
      "   | \t     ^^^^^",
      "f.task.yaml:3:1: note: see here",
      "  help: Change it",
      "  docs: https://docs.example/taskspec/diagnostics.md#c002", // TASKSPEC_DOCS_URL, stubbed above
      "",
    ]);
    vi.unstubAllEnvs();
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
    expect(
      summary([
        { file: "a", text, diagnostics: [d] },
        { file: "b", text, diagnostics: [] },
      ]),
    ).toBe("0 errors, 1 warning in 2 files\n");
  });

  it("clips a long line to a window around the caret", () => {
    const long = `key: ${"a".repeat(6000)}BAD${"b".repeat(6000)}\n`;
    const at = long.indexOf("BAD");
    const d = makeDiagnostic(new LineIndex(long), "C002", { start: at, end: at + 3 }, "bad");
    const [, frame, carets] = renderText({ file: "f", text: long, diagnostics: [d] }, { color: false }).split("\n");
    expect(frame!.length).toBeLessThan(FRAME_WIDTH + 10);
    expect(frame).toMatch(/^ 1 \| …a+BADb+…$/);
    expect(carets!.indexOf("^")).toBe(frame!.indexOf("BAD"));
    expect(carets!.replace(/^ *\| */, "")).toBe("^^^");
  });

  it("frames only the first diagnostics of a file and counts the rest; output grows linearly", () => {
    const long = `key: ${"x".repeat(13_000)}\n`;
    const lines = new LineIndex(long);
    const many = Array.from({ length: 20_000 }, (_, i) =>
      makeDiagnostic(lines, "C002", { start: 5 + (i % 13_000), end: 6 + (i % 13_000) }, "bad"),
    );
    const out = renderText({ file: "f", text: long, diagnostics: many }, { color: false });
    expect(out.length).toBeLessThan(2_000_000);
    expect(out.split("\n").filter((l) => l.startsWith(" 1 | ")).length).toBe(FRAMES_PER_FILE);
    expect(out).toContain(`f: ${20_000 - FRAMES_PER_FILE} more diagnostics shown without code frame, notes or help`);
  });

  it("shows control characters in frames and messages as escapes, never raw", () => {
    const hostile = "title: \u001b]0;pwned\u0007\u001b[2J0 errors\u202e\n";
    const d = makeDiagnostic(new LineIndex(hostile), "C001", { start: 7, end: 8 }, `bad '\u001b[2J'`);
    const out = renderText({ file: "f\u001b.task.yaml", text: hostile, diagnostics: [d] }, { color: false });
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(out).toContain(" 1 | title: \\e]0;pwned\\a\\e[2J0 errors\\u202e");
    expect(out).toContain("error C001: bad '\\e[2J'");
    expect(out.split("\n")[2]).toBe("   |        ^^");
  });
});
