/**
 * LF and CRLF give the same diagnostics, positions, fixes and plans: one
 * parser decides meaning for both (block-yaml.ts scans a CRLF text as its LF
 * text and maps ranges back). Table cases for what differed (a 1,100-character
 * key, brackets counted inside plain scalars, a last line that is a comment),
 * every spec contract, and a property over random comment and blank lines.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, type Diagnostic } from "../src/index.js";
import { DiagnosticSink } from "../src/source/diagnostic.js";
import { LineIndex } from "../src/source/line-index.js";
import { parseYaml } from "../src/parse/parse-yaml.js";

const SPECS = fileURLToPath(new URL("../../specs/", import.meta.url));
const specFiles = [
  ...readdirSync(SPECS)
    .filter((f) => f.endsWith(".task.yaml"))
    .map((f) => join(SPECS, f)),
  ...readdirSync(join(SPECS, "invalid"))
    .filter((f) => f.endsWith(".task.yaml"))
    .map((f) => join(SPECS, "invalid", f)),
];
const base = readFileSync(join(SPECS, "publish-post.task.yaml"), "utf8");
const toCrlf = (lf: string) => lf.replaceAll("\n", "\r\n");

/** What an editor sees of a diagnostic: line/character positions, never offsets; fix text with its line ends made LF. */
function seen(diagnostics: readonly Diagnostic[]) {
  return diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    range: d.range,
    related: d.related?.map((r) => ({ message: r.message, range: r.range })),
    fixes: d.fixes?.map((f) => ({
      title: f.title,
      edits: f.edits.map((e) => ({ range: e.range, newText: e.newText.replaceAll("\r\n", "\n") })),
    })),
  }));
}

function expectSame(lf: string): void {
  const a = compile(lf);
  const b = compile(toCrlf(lf));
  expect(seen(b.diagnostics)).toEqual(seen(a.diagnostics));
  expect(b.plan?.planHash).toEqual(a.plan?.planHash);
}

const cases: Array<{ name: string; lf: string; codes: string[] }> = [
  {
    // the general parser limits implicit keys to 1024 characters; with CRLF only it parsed this one
    name: "a 1,100-character input name",
    lf: base.replace("  web: { kind: external", `  ${"k".repeat(1100)}: { kind: decision, value: "x" }\n  web: { kind: external`),
    codes: [],
  },
  {
    // the nesting pre-check counts brackets in the text; it ran only when the fast path declined (CRLF)
    name: "70 brackets inside a plain scalar",
    lf: base.replace("goal: Publish one researched", `goal: Publish ${"[".repeat(70)} one researched`),
    codes: [],
  },
  { name: "a last line that is a comment (no final newline)", lf: `${base}# the end`, codes: [] },
  {
    name: "a trailing comment after a block scalar",
    lf: base.replace("contract: 1", "contract: 1\nnotes: |\n  two\n  lines\n# after"),
    codes: ["C002"],
  },
  { name: "an unknown key with a rename fix", lf: base.replace("  goal: Publish", "  gaol: Publish"), codes: ["C002"] },
];

describe("LF and CRLF compile alike", () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(compile(c.lf).diagnostics.map((d) => d.code)).toEqual(c.codes);
      expectSame(c.lf);
    });
  }

  it("a CRLF document takes the same (fast) parser as its LF text", () => {
    const lf = cases[0]!.lf;
    const parse = (text: string) => parseYaml(text, new DiagnosticSink(new LineIndex(text)));
    expect(parse(lf).fast).toBe(true);
    expect(parse(toCrlf(lf)).fast).toBe(true);
  });

  it("a fix inserting lines into a CRLF document inserts CRLF", () => {
    const withFix = (text: string) =>
      compile(text)
        .diagnostics.flatMap((d) => d.fixes ?? [])
        .flatMap((f) => f.edits);
    const lf = specFiles.map((f) => readFileSync(f, "utf8")).find((t) => withFix(t).some((e) => e.newText.includes("\n")));
    expect(lf, "a spec with a multi-line fix").toBeDefined();
    const edits = withFix(toCrlf(lf!)).filter((e) => e.newText.includes("\n"));
    expect(edits.length).toBeGreaterThan(0);
    for (const e of edits) expect(e.newText).not.toMatch(/(^|[^\r])\n/);
  });

  it.each(specFiles.map((f) => [f.slice(SPECS.length), f]))("%s", (_, file) => {
    expectSame(readFileSync(file, "utf8"));
  });

  it("property: random comment and blank lines, LF against CRLF", () => {
    const texts = specFiles.map((f) => readFileSync(f, "utf8"));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: texts.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom("", "# note", "   # indented note", "    ")), { maxLength: 6 }),
        fc.boolean(),
        (pick, inserts, dropFinalNewline) => {
          const lines = texts[pick]!.split("\n");
          for (const [at, line] of inserts) lines.splice(at % (lines.length + 1), 0, line);
          let lf = lines.join("\n");
          if (dropFinalNewline) lf = lf.replace(/\n+$/, "");
          expectSame(lf);
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});
