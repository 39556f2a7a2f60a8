/**
 * Compiler diagnostics -> LSP diagnostics. Nothing is checked here: the code,
 * severity, message, range and related locations are the compiler's; this
 * only adds the link to the code's docs section and the source name.
 */
import { docsUrl, type Diagnostic as CompilerDiagnostic } from "@taskspec/compiler";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";

/** What the client said it can show (publishDiagnostics capabilities). */
export interface DiagnosticSupport {
  relatedInformation: boolean;
  codeDescription: boolean;
}

export const DIAGNOSTIC_SOURCE = "taskspec";

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
} as const;

export function toLspDiagnostics(analysis: Analysis, support: DiagnosticSupport): Diagnostic[] {
  return analysis.diagnostics.map((d) => toLspDiagnostic(analysis.uri, d, support));
}

export function toLspDiagnostic(uri: string, d: CompilerDiagnostic, support: DiagnosticSupport): Diagnostic {
  const out: Diagnostic = {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: DIAGNOSTIC_SOURCE,
    message: d.message,
  };
  if (support.codeDescription) out.codeDescription = { href: docsUrl(d.code) };
  if (d.related && d.related.length > 0) {
    if (support.relatedInformation) {
      out.relatedInformation = d.related.map((r) => ({ location: { uri, range: r.range }, message: r.message }));
    } else {
      // Without related-location support the places still reach the author, in the message.
      out.message = d.message + d.related.map((r) => `\n  ${r.message} (line ${r.range.start.line + 1})`).join("");
    }
  }
  return out;
}
