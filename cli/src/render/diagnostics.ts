/**
 * Prints diagnostics like a compiler: `file:line:col: error C020: message`,
 * the source line and carets under the range, then related locations as
 * notes, fixes as help lines and the code's section of docs/diagnostics.md. Also the `--format json` shape of
 * architecture.md. Positions printed for people are 1-based; JSON keeps the
 * 0-based LSP positions. Output stays bounded whatever the input: frames
 * are clipped (code-frame.ts), only the first FRAMES_PER_FILE diagnostics of
 * a file get one, messages are clipped at MESSAGE_MAX, and text from the
 * contract is printed with control characters escaped.
 */
import { docsUrl, LineIndex, type Diagnostic, type SuppressedDiagnostic } from "@taskspec/compiler";
import { codeFrame } from "./code-frame.js";
import { clip, visible } from "./visible.js";

export interface FileResult {
  file: string;
  text: string;
  diagnostics: Diagnostic[];
  /** Accepted by inline suppression comments: counted in the summary, listed in JSON and SARIF. */
  suppressed?: SuppressedDiagnostic[];
}

export interface TextStyle {
  color: boolean;
}

const SEVERITY_COLOR = { error: "\u001b[31;1m", warning: "\u001b[33;1m", info: "\u001b[36;1m" } as const;
const BOLD = "\u001b[1m";
const DIM = "\u001b[2m";
const RESET = "\u001b[0m";

/** `--color`: `always` and `never` decide; `auto` (the default) asks the environment and the stream. */
export type ColorWhen = "auto" | "always" | "never";
export const COLOR_CHOICES: readonly ColorWhen[] = ["auto", "always", "never"];

/**
 * Whether to colour what goes to `stream`: `--color always|never` decides;
 * under `auto`, FORCE_COLOR=1 (CI logs) forces colour and FORCE_COLOR=0
 * refuses it; else colour only on a terminal without NO_COLOR. A stream of
 * `false` (a file from -o) gets colour only with `always`.
 */
export function colorFor(stream: NodeJS.WriteStream | false, when: ColorWhen = "auto"): boolean {
  if (when !== "auto") return when === "always";
  if (stream === false) return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return stream.isTTY === true && !process.env.NO_COLOR;
}

/** Diagnostics of one file that get a code frame; the rest get their header line only, and a count says so. */
export const FRAMES_PER_FILE = 50;
/** Longest message printed; a message quoting a huge key is clipped. */
const MESSAGE_MAX = 500;

export function renderText(result: FileResult, style: TextStyle): string {
  const lines = new LineIndex(result.text);
  const paint = (code: string, s: string) => (style.color ? `${code}${s}${RESET}` : s);
  const file = visible(result.file);
  const say = (message: string) => visible(clip(message, MESSAGE_MAX));
  const parts: string[] = [];
  for (const [index, d] of result.diagnostics.entries()) {
    const { line, character } = d.range.start;
    parts.push(
      `${paint(BOLD, `${file}:${line + 1}:${character + 1}:`)} ${paint(SEVERITY_COLOR[d.severity], `${d.severity} ${d.code}`)}: ${say(d.message)}\n`,
    );
    if (index >= FRAMES_PER_FILE) continue;
    parts.push(codeFrame(lines, d, (s) => paint(SEVERITY_COLOR[d.severity], s)));
    for (const r of d.related ?? []) {
      parts.push(`${paint(DIM, `${file}:${r.range.start.line + 1}:${r.range.start.character + 1}:`)} note: ${say(r.message)}\n`);
    }
    for (const fix of d.fixes ?? []) parts.push(`  help: ${say(fix.title)}\n`);
    parts.push(`${paint(DIM, `  docs: ${docsUrl(d.code)}`)}\n`);
  }
  const unframed = result.diagnostics.length - FRAMES_PER_FILE;
  if (unframed > 0)
    parts.push(
      `${paint(DIM, `${file}: ${unframed} more diagnostic${unframed === 1 ? "" : "s"} shown without code frame, notes or help`)}\n`,
    );
  return parts.join("");
}

export function summary(results: FileResult[]): string {
  const count = (severity: string) => results.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === severity).length, 0);
  const errors = count("error");
  const warnings = count("warning");
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const suppressed = results.reduce((n, r) => n + (r.suppressed?.length ?? 0), 0);
  const accepted = suppressed > 0 ? ` (${suppressed} suppressed)` : "";
  return `${plural(errors, "error")}, ${plural(warnings, "warning")}${accepted} in ${plural(results.length, "file")}\n`;
}

/**
 * The `--format json` document: `{ files: [ { file, diagnostics: [ { code, severity, message, range, related?, fixes?, docs } ],
 * suppressed?: [ { code, severity, message, range, reason, comment } ] } ] }`.
 */
export function renderJson(results: FileResult[]): string {
  const files = results.map((r) => ({
    file: r.file,
    diagnostics: r.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      message: d.message,
      range: d.range,
      ...(d.related?.length ? { related: d.related.map((rel) => ({ message: rel.message, range: rel.range })) } : {}),
      ...(d.fixes?.length
        ? {
            fixes: d.fixes.map((f) => ({
              title: f.title,
              safe: f.safe,
              edits: f.edits.map((e) => ({ range: e.range, newText: e.newText })),
            })),
          }
        : {}),
      docs: docsUrl(d.code),
    })),
    ...(r.suppressed?.length
      ? {
          suppressed: r.suppressed.map((s) => ({
            code: s.diagnostic.code,
            severity: s.diagnostic.severity,
            message: s.diagnostic.message,
            range: s.diagnostic.range,
            reason: s.reason,
            comment: s.comment,
          })),
        }
      : {}),
  }));
  return `${JSON.stringify({ files }, null, 2)}\n`;
}
