/**
 * One analysed version of a document: the positioned syntax model (always
 * there, even for broken text) and the compile result. Every service function
 * reads an Analysis; the server computes one per document version.
 *
 * When the current text does not compile, `good` still points at the newest
 * version of this document that did, so hover, lenses and impact can answer
 * from the last good plan instead of going blank while the author types.
 */
import {
  checkContract,
  planCountIndex,
  type CompileOptions,
  type CountIndex,
  type Diagnostic,
  type FileProbe,
  type McpLock,
  type McpLockInput,
  type ParsedContract,
  type Plan,
  type Rules,
} from "@taskspec/compiler";
import type { PieceMemo, ShapeMemo } from "./format-pieces.js";
/** What the configuration file says about a document (see `@taskspec/compiler/node`'s config lookup). */
export interface DocumentPolicy {
  rules: Rules;
  /** Ignored by the configuration: analysed for hover and navigation, but no diagnostics are shown. */
  ignored: boolean;
}

export const NO_POLICY: DocumentPolicy = { rules: {}, ignored: false };

/** The newest version that compiled: what hover, lenses and impact answer from. */
export interface CompiledVersion {
  version: number;
  text: string;
  plan: Plan;
  /**
   * What lenses and hovers count from (`countInvalidated`): made from the
   * contract without building the plan or its topology, so opening or
   * editing a file does not make the first lens wait for every unit's
   * definition hash; the plan's own index once the plan exists.
   */
  counts: CountIndex;
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
  /**
   * What the document's earlier versions learnt on the way to an answer, shared
   * by all its versions (format-pieces.ts: formatted pieces, so Format Document
   * after an edit formats only the changed unit).
   */
  memo: DocumentMemo;
  /** The MCP lock beside the document, read once per version when something asks (the checks, completion, hover). */
  mcpLock?: () => McpLock | undefined;
}

/** State a document's versions share; each part is keyed by what it was computed from. */
export interface DocumentMemo {
  formatPieces: PieceMemo;
  /** Templates of pieces that differ only in their scalars (format-pieces.ts). */
  formatShapes: ShapeMemo;
}

/**
 * Analyses a document version; `previous` is the analysis of an earlier
 * version of the same document. The plan is built on first use: diagnostics
 * go out without waiting for it, and a version superseded by the next
 * keystroke before anyone asked never pays for it. `files` answers whether a
 * file the contract names exists (C013); without it file references are not checked.
 */
export function analyze(
  uri: string,
  version: number,
  text: string,
  previous?: Analysis,
  files?: FileProbe,
  policy: DocumentPolicy = NO_POLICY,
  mcp?: () => McpLockInput,
): Analysis {
  // An edit inside one unit re-parses only that unit, reusing (and consuming)
  // the previous version's tree: nothing reads `previous.parsed` after this.
  const reuse = previous?.parsed.reusable;
  const options: CompileOptions = { rules: policy.rules };
  if (reuse) options.previous = reuse;
  if (files) options.files = files;
  let lockRead: McpLockInput | undefined;
  const lockInput = mcp ? (): McpLockInput => (lockRead ??= mcp()) : undefined;
  if (lockInput) options.mcp = lockInput;
  const checked = checkContract(text, options);
  const { buildPlan, countIndex, parsed } = checked;
  const diagnostics = policy.ignored ? [] : checked.diagnostics;
  let plan: Plan | undefined;
  let counts: CountIndex | undefined;
  // dropped once used: they hold the checks' whole context
  let build = buildPlan;
  let count = countIndex;
  const good = build
    ? {
        version,
        text,
        get plan(): Plan {
          if (!plan) {
            plan = build!();
            build = undefined;
            count = undefined;
          }
          return plan;
        },
        get counts(): CountIndex {
          // once the plan exists its index serves (one index per version, cached by identity)
          counts ??= plan ? planCountIndex(plan) : count!();
          count = undefined;
          return counts;
        },
      }
    : previous?.good;
  const memo = previous?.memo ?? { formatPieces: new Map(), formatShapes: new Map() };
  const analysis: Analysis = { uri, version, text, parsed, diagnostics, good, current: buildPlan !== undefined, memo };
  if (lockInput) analysis.mcpLock = () => lockInput().lock;
  return analysis;
}
