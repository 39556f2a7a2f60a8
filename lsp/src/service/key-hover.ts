/**
 * Hover on a key (`needs`, `timeout`, `loop`) or on a plain value
 * (`phase: extract`): what the contract JSON Schema (compiler/
 * contract.schema.json, the one source of truth that completion and
 * yaml-language-server read too) says about that key, whether it is
 * required, and the values it allows.
 */
import type { Span } from "@taskspec/compiler";
import type { Analysis } from "./analysis.js";
import { keysAt, schemaAt, valuesAt } from "./schema-walk.js";
import { pathAt } from "./yaml-path.js";
import { scalarValue } from "./decl-values.js";

export function schemaHover(analysis: Analysis, offset: number): { text: string; span: Span } | undefined {
  const steps = pathAt(analysis.parsed.doc, offset);
  const last = steps[steps.length - 1];
  if (!last || (last.role !== "key" && last.role !== "value") || last.path.length === 0) return undefined;
  // the key a value belongs to: the nearest enclosing pair
  const path = last.path;
  const keyPath = path[path.length - 1] === "[]" ? trimItems(path) : path;
  if (keyPath.length === 0) return undefined;
  const key = keyPath[keyPath.length - 1]!;
  const parent = keyPath.slice(0, -1);
  const declared = keysAt(parent).find((k) => k.key === key);
  const node = schemaAt(keyPath);
  const description = declared?.description || node?.description;
  if (!description) return undefined;
  const where = parent.map((p) => (p === "[]" ? "[]" : isDeclaredKey(parent, p) ? p : "<name>")).join(".");
  const lines: string[] = [];
  if (last.role === "key") {
    lines.push(`**${key}**${where ? ` · in \`${where}\`` : ""}${declared?.required ? " · required" : ""}`, "", description);
  } else {
    lines.push(`**${key}: ${secretValueAt(analysis, keyPath) ? "***" : (last.text ?? "")}**`, "", description);
  }
  const allowed = valuesAt(keyPath);
  if (allowed.length > 0) lines.push("", `one of: ${allowed.map((v) => `\`${v}\``).join(", ")}`);
  return { text: lines.join("\n"), span: last.span };
}

function trimItems(path: string[]): string[] {
  let end = path.length;
  while (end > 0 && path[end - 1] === "[]") end--;
  return path.slice(0, end);
}

/** Whether `step` (a key on the way to `path`) is a declared property, not a name such as a unit id. */
function isDeclaredKey(path: string[], step: string): boolean {
  const i = path.indexOf(step);
  return keysAt(path.slice(0, i)).some((k) => k.key === step);
}

/** `inputs.<name>.value` of an input marked `secret: true`: its text is never echoed (shown as `***`). */
function secretValueAt(analysis: Analysis, keyPath: string[]): boolean {
  if (keyPath[0] !== "inputs" || keyPath.length < 3 || keyPath[2] !== "value") return false;
  const decl = analysis.parsed.model.inputs.get(keyPath[1]!);
  return decl !== undefined && scalarValue(decl, "secret") === "true";
}
