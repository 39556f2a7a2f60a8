/**
 * Prints diagnostics like a compiler: `file:line:col: error C020: message`,
 * the source line and carets under the range, then related locations as
 * notes, fixes as help lines and the code's section of docs/diagnostics.md. Also the `--format json` shape of
 * architecture.md. Positions printed for people are 1-based; JSON keeps the
 * 0-based LSP positions.
 */
import { docsUrl, LineIndex, type Diagnostic } from "@taskspec/compiler";

export interface FileResult {
  file: string;
  text: string;
  diagnostics: Diagnostic[];
}

export interface TextStyle {
  color: boolean;
}

const SEVERITY_COLOR = { error: "\u001b[31;1m", warning: "\u001b[33;1m", info: "\u001b[36;1m" } as const;
const BOLD = "\u001b[1m";
const DIM = "\u001b[2m";
const RESET = "\u001b[0m";

/** Colour only on a terminal, and never with NO_COLOR set. */
export function colorFor(stream: NodeJS.WriteStream): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR;
}

export function renderText(result: FileResult, style: TextStyle): string {
  const lines = new LineIndex(result.text);
  const paint = (code: string, s: string) => (style.color ? `${code}${s}${RESET}` : s);
  let out = "";
  for (const d of result.diagnostics) {
    const { line, character } = d.range.start;
    out += `${paint(BOLD, `${result.file}:${line + 1}:${character + 1}:`)} ${paint(SEVERITY_COLOR[d.severity], `${d.severity} ${d.code}`)}: ${d.message}\n`;
    out += codeFrame(lines, d, (s) => paint(SEVERITY_COLOR[d.severity], s));
    for (const r of d.related ?? []) {
      out += `${paint(DIM, `${result.file}:${r.range.start.line + 1}:${r.range.start.character + 1}:`)} note: ${r.message}\n`;
    }
    for (const fix of d.fixes ?? []) out += `  help: ${fix.title}\n`;
    out += `${paint(DIM, `  docs: ${docsUrl(d.code)}`)}\n`;
  }
  return out;
}

function codeFrame(lines: LineIndex, d: Diagnostic, paint: (s: string) => string): string {
  const { start, end } = d.range;
  if (start.line >= lines.lineCount) return "";
  const source = lines.lineText(start.line);
  const gutter = String(start.line + 1);
  const pad = " ".repeat(gutter.length);
  const endCharacter = end.line === start.line ? end.character : source.length;
  const width = Math.max(1, Math.min(endCharacter, source.length) - start.character);
  // keep tabs in the indentation so the carets line up under them
  const indent = source.slice(0, start.character).replace(/[^\t]/g, " ");
  return ` ${gutter} | ${source}\n ${pad} | ${indent}${paint("^".repeat(width))}\n`;
}

export function summary(results: FileResult[]): string {
  const count = (severity: string) => results.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === severity).length, 0);
  const errors = count("error");
  const warnings = count("warning");
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(errors, "error")}, ${plural(warnings, "warning")} in ${plural(results.length, "file")}\n`;
}

/** The `--format json` document: `{ files: [ { file, diagnostics: [ { code, severity, message, range } ] } ] }`. */
export function renderJson(results: FileResult[]): string {
  const files = results.map((r) => ({
    file: r.file,
    diagnostics: r.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message, range: d.range })),
  }));
  return `${JSON.stringify({ files }, null, 2)}\n`;
}
