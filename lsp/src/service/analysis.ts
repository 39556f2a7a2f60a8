/**
 * One analysed version of a document: the positioned syntax model (always
 * there, even for broken text) and the compile result. Every service function
 * reads an Analysis; the server computes one per document version.
 *
 * When the current text does not compile, `good` still points at the newest
 * version of this document that did, so hover, lenses and impact can answer
 * from the last good plan instead of going blank while the author types.
 */
import { compile, type Diagnostic, type ParsedContract, type Plan } from "@taskspec/compiler";

export interface CompiledVersion {
  version: number;
  text: string;
  parsed: ParsedContract;
  plan: Plan;
}

export interface Analysis {
  uri: string;
  version: number;
  text: string;
  parsed: ParsedContract;
  diagnostics: Diagnostic[];
  /** This version's plan, or the newest earlier version's that compiled. */
  good: CompiledVersion | undefined;
  /** True when `good` is this version. */
  current: boolean;
}

/** Analyses a document version; `previous` is the analysis of an earlier version of the same document. */
export function analyze(uri: string, version: number, text: string, previous?: Analysis): Analysis {
  const { plan, parsed, diagnostics } = compile(text);
  const good = plan ? { version, text, parsed, plan } : previous?.good;
  return { uri, version, text, parsed, diagnostics, good, current: plan !== undefined };
}
