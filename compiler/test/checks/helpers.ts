/** Builds small contracts for check tests and reads diagnostics as [code, text at span]. */
import { compile, type Diagnostic, type Fix } from "../../src/index.js";

export interface Parts {
  units: string;
  tools?: string;
  inputs?: string;
  extra?: string;
  budgets?: string | null;
  done?: string;
  /** `task.timeout` (default `10m`, so units with tools do not warn C022); null leaves it out. */
  timeout?: string | null;
}

/** A valid frame around the given sections; `units`/`tools`/`inputs` are indented entries. */
export function contract(parts: Parts): string {
  return [
    "contract: 1",
    "task:",
    "  id: t",
    "  goal: test",
    parts.timeout === null ? "" : `  timeout: ${parts.timeout ?? "10m"}`,
    "  outputs: [out]",
    `  done: ${parts.done ?? "[ok]"}`,
    parts.budgets === null ? "" : `budgets: ${parts.budgets ?? "{ model_calls: 100 }"}`,
    parts.inputs ? `inputs:\n${parts.inputs}` : "",
    parts.tools ? `tools:\n${parts.tools}` : "",
    "verifiers:",
    '  ok: { kind: rule, check: "result.ok" }',
    "  soft: { kind: model, describe: reads well }",
    `units:\n${parts.units}`,
    parts.extra ?? "",
  ]
    .filter((line) => line !== "")
    .join("\n")
    .concat("\n");
}

/** `[code, source text under the span]` for each diagnostic. */
export function found(text: string, diagnostics = compile(text).diagnostics): [string, string][] {
  return diagnostics.map((d) => [d.code, text.slice(d.span.start, d.span.end)]);
}

export function only(text: string, code: string): Diagnostic[] {
  return compile(text).diagnostics.filter((d) => d.code === code);
}

/** Applies a fix's edits (last first, so earlier offsets stay valid). */
export function applyFix(text: string, fix: Fix): string {
  let out = text;
  for (const edit of [...fix.edits].sort((a, b) => b.span.start - a.span.start)) {
    out = out.slice(0, edit.span.start) + edit.newText + out.slice(edit.span.end);
  }
  return out;
}
