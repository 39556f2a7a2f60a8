/**
 * Quick fixes: the compiler attaches repairs to its diagnostics as data
 * (`fixes`: title, edits, safe); this turns the ones under the requested range
 * into code actions. No repair is invented here, so a fix is always the
 * compiler's answer to its own diagnostic. Edits touch only the spans they
 * name, so the rest of the file keeps its formatting.
 */
import type { Diagnostic as CompilerDiagnostic, Fix } from "@taskspec/compiler";
import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { toLspDiagnostic } from "./diagnostics.js";

export function codeActions(analysis: Analysis, range: Range, sent: readonly Diagnostic[] = []): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const d of analysis.diagnostics) {
    if (!d.fixes || d.fixes.length === 0 || !overlaps(d.range, range)) continue;
    const diagnostic =
      sent.find((s) => s.code === d.code && sameRange(s.range, d.range)) ??
      toLspDiagnostic(analysis.uri, d, { relatedInformation: true, codeDescription: true });
    for (const fix of d.fixes) actions.push(actionOf(analysis.uri, d, fix, diagnostic));
  }
  return actions;
}

function actionOf(uri: string, d: CompilerDiagnostic, fix: Fix, diagnostic: Diagnostic): CodeAction {
  return {
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    // The only repair for its diagnostic, and one that cannot change anything else: let editors apply it on "fix all".
    isPreferred: fix.safe && d.fixes!.length === 1,
    edit: { changes: { [uri]: fix.edits.map((e) => ({ range: e.range, newText: e.newText })) } },
  };
}

function before(a: Range["start"], b: Range["start"]): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function overlaps(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}
