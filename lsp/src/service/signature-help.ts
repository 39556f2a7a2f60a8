/**
 * Signature help inside an expression call: `count(|`, `all(a, |`. Finds the
 * innermost call left open before the cursor (quotes and nested brackets
 * skipped) and which argument the cursor is in; the signature, summary and
 * parameters are the function table's (compiler/src/expr/functions.ts).
 */
import { MarkupKind, type Position, type SignatureHelp } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { functionDoc, functionSpec, siteAt } from "./expressions.js";
import { offsetAt } from "./lsp-ranges.js";

export function signatureHelp(analysis: Analysis, position: Position): SignatureHelp | null {
  const offset = offsetAt(analysis, position);
  const at = siteAt(analysis, offset);
  if (!at) return null;
  const call = openCall(at.site.source.slice(0, at.inner));
  const fn = call ? functionSpec(call.name) : undefined;
  if (!call || !fn) return null;
  const variadic = fn.params[fn.params.length - 1] === "...";
  const active = variadic ? Math.min(call.argument, fn.params.length - 2) : Math.min(call.argument, fn.params.length - 1);
  return {
    signatures: [
      {
        label: fn.signature,
        documentation: { kind: MarkupKind.Markdown, value: functionDoc(fn) },
        parameters: fn.params.filter((p) => p !== "...").map((label) => ({ label })),
      },
    ],
    activeSignature: 0,
    activeParameter: Math.max(0, active),
  };
}

/** The innermost unclosed `name(` in `before` and the index of the argument being written. */
export function openCall(before: string): { name: string; argument: number } | undefined {
  const stack: { name: string | undefined; argument: number }[] = [];
  let quote = "";
  for (let i = 0; i < before.length; i++) {
    const c = before[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") {
      const name = c === "(" ? /([A-Za-z_][\w]*)\s*$/.exec(before.slice(0, i))?.[1] : undefined;
      stack.push({ name, argument: 0 });
    } else if (c === ")" || c === "]") stack.pop();
    else if (c === "," && stack.length > 0) stack[stack.length - 1]!.argument++;
  }
  for (let i = stack.length - 1; i >= 0; i--) {
    const level = stack[i]!;
    if (level.name !== undefined) return { name: level.name, argument: level.argument };
    // inside a list literal of a call, the call's argument is the list
  }
  return undefined;
}
