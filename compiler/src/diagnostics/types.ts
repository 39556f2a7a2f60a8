/**
 * Diagnostics are data: every user-facing problem the compiler finds is one of
 * these, with a stable code. `span` is a pair of offsets into the source text
 * (what the core computes); `range` is the same place as 0-based line/character
 * (what the CLI, the LSP and JSON output consume).
 */

export type Severity = "error" | "warning" | "info";

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Span {
  start: number;
  end: number;
}

export interface TextEdit {
  span: Span;
  range: Range;
  newText: string;
}

/** A repair as data: the LSP turns it into a code action, the CLI can print it. */
export interface Fix {
  title: string;
  edits: TextEdit[];
  /** true when applying it cannot change the meaning of anything else. */
  safe: boolean;
}

export interface RelatedInformation {
  message: string;
  span: Span;
  range: Range;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  span: Span;
  range: Range;
  related?: RelatedInformation[];
  fixes?: Fix[];
}

export const DiagnosticCodes = {
  C001: { severity: "error", title: "YAML syntax error" },
  C002: { severity: "error", title: "schema violation: unknown key, wrong type, bad value" },
  C010: { severity: "error", title: "unknown reference (unit, input, tool, verifier, artifact)" },
  C011: { severity: "error", title: "duplicate key or id" },
  C012: { severity: "error", title: "artifact produced by two units, or a task output no unit produces" },
  C013: { severity: "error", title: "referenced file does not exist (a schema verifier's schema:)" },
  C014: { severity: "error", title: "a file the contract names lies outside the contract's folder" },
  C020: { severity: "error", title: "dependency cycle" },
  C021: { severity: "error", title: "unbounded loop or retry" },
  C022: { severity: "warning", title: "unit that calls tools has no timeout (neither its own nor task.timeout)" },
  C030: { severity: "error", title: "compensable tool without a compensator" },
  C031: { severity: "error", title: "compensator or lookup missing, of the wrong class, or undeclared" },
  C032: { severity: "error", title: "compensation argument names an undeclared result field" },
  C033: { severity: "error", title: "dedup tool without key or lookup" },
  C034: { severity: "error", title: "irreversible tool used by a unit without an approval gate" },
  C035: { severity: "warning", title: "tool key changes on every attempt (reads attempt.*)" },
  C036: { severity: "warning", title: "tool key echoes the call's own args instead of naming the intent" },
  C037: {
    severity: "error",
    title: "a secret value where the store keeps it in clear (a key, the plan) or must give it back (a compensation)",
  },
  C038: { severity: "warning", title: "a gated unit's work before its irreversible call that the sending attempt cannot replay" },
  C039: {
    severity: "error",
    title: "a dedup or irreversible tool's key reads what the handler chooses (args), and the unit declares no bound",
  },
  C040: { severity: "warning", title: "worst-case cost exceeds a budget" },
  C041: { severity: "error", title: "budgets missing" },
  C050: { severity: "error", title: "unit with a side-effecting tool has no verifier" },
  C051: { severity: "error", title: "task has no end-to-end verifier (task.done)" },
  C052: { severity: "warning", title: "only soft (model) verification where a hard one is needed" },
  C060: { severity: "error", title: "expression syntax error, unknown name or type mismatch" },
  C070: { severity: "error", title: "unknown edge kind" },
  C080: { severity: "warning", title: "unit contributes to no task output (dead work)" },
  C090: { severity: "warning", title: "suppression comment that suppresses nothing" },
  C091: { severity: "error", title: "malformed suppression comment (no reason, unknown code, or an error's code)" },
  C100: { severity: "error", title: "MCP server missing: a binding names an undeclared server, or a server lacks one clear transport" },
  C101: { severity: "error", title: "a bound MCP tool's key has nowhere to go (no key argument, no lookup to find the effect by it)" },
  C102: { severity: "error", title: "a secret written in plain text in an MCP server's declaration (header, URL, argument, env value)" },
  C103: { severity: "error", title: "a bound MCP tool the server does not have (by the lock)" },
  C104: { severity: "error", title: "an `args:` marking or `key_arg` that does not fit the tool's input schema (by the lock)" },
  C105: { severity: "error", title: "a `result:` field the tool's output schema does not have, or types otherwise (by the lock)" },
  C106: { severity: "error", title: "a recovery class the server's annotations contradict (read-only, idempotent, destructive)" },
  C107: { severity: "error", title: "the MCP lock is missing, unreadable, or older than the contract's servers and bindings" },
} as const satisfies Record<string, { severity: Severity; title: string }>;

export type DiagnosticCode = keyof typeof DiagnosticCodes;

/**
 * Where each code is explained (the LSP sends it as codeDescription.href):
 * the copy of docs/diagnostics.md shipped in this package (compiler/docs/,
 * copied at pack time), unless an adapter or the user sets TASKSPEC_DOCS_URL
 * to another base: the CLI and the editor extension point it at the copy they
 * ship, a team at its own mirror. Never a site the project does not own.
 */
export const DOCS_BASE = new URL("../../docs/diagnostics.md", import.meta.url).href;
export function docsUrl(code: DiagnosticCode, base: string = docsBase()): string {
  return `${base}#${code.toLowerCase()}`;
}

function docsBase(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.TASKSPEC_DOCS_URL || DOCS_BASE;
}
