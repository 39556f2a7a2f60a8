/**
 * Text -> yaml Document with C001 (syntax, binary, size, depth, alias
 * expansion) and C011 (duplicate keys) diagnostics. Parsing keeps going after
 * errors when yaml could recover, so editors still get a partial model.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type YAMLError } from "yaml";
import type { DiagnosticSink } from "../source/diagnostic.js";
import { parseBlockYaml } from "./block-yaml.js";
import { reparseEdit, reparseReusing, type Reusable } from "./incremental.js";
import { DEFAULT_LIMITS, firstBinaryOffset, flowDepthExceededAt, type Limits } from "./limits.js";
import { DEFINITION_DEPTH, keyName, keySpan, nodeSpan, type AliasTable } from "./yaml-nodes.js";
import { identityMemo } from "../memo.js";

export interface ParsedYaml {
  /** Absent only when the text was refused before parsing (size, binary, nesting). */
  doc?: Document.Parsed;
  /** True when `doc` came from the block-YAML fast path, so an editor may re-parse it incrementally. */
  fast: boolean;
  aliases: AliasTable;
  /** True when a C001 was reported: semantic checks do not run. */
  syntaxBroken: boolean;
}

/** `previous`: a fast-path tree of an earlier version of this text, consumed by an incremental re-parse. */
export function parseYaml(text: string, sink: DiagnosticSink, limits: Limits = DEFAULT_LIMITS, previous?: Reusable): ParsedYaml {
  const aliases: AliasTable = new Map();
  const refuse = (offset: number, message: string): ParsedYaml => {
    sink.report("C001", { start: offset, end: Math.min(offset + 1, text.length) }, message);
    return { aliases, syntaxBroken: true, fast: false };
  };
  if (text.length > limits.maxChars) {
    return refuse(0, `file is ${megabytes(text.length)} MB; contracts larger than ${megabytes(limits.maxChars)} MB are refused`);
  }
  const binaryAt = firstBinaryOffset(text);
  if (binaryAt !== -1) {
    const code = text.charCodeAt(binaryAt).toString(16).toUpperCase().padStart(4, "0");
    return refuse(binaryAt, `binary data (U+${code}) is not allowed in a contract; is this a YAML text file?`);
  }
  const fastDoc = previous ? (reparseEdit(previous, text) ?? reparseReusing(previous, text)) : parseBlockYaml(text);
  // yaml's parser recurses per flow level; the fast path caps nesting itself
  const deepAt = fastDoc ? -1 : flowDepthExceededAt(text, limits.maxDepth);
  if (deepAt !== -1) return refuse(deepAt, `nesting deeper than ${limits.maxDepth} levels`);
  const doc = fastDoc ?? parseGeneral(text);
  if (!doc) return refuse(0, "the YAML reader ran out of stack on this file: is a '[' or '{' left open before thousands of lines?");
  const syntaxBroken = doc.errors.length > 0;
  reportSyntaxErrors(doc.errors, sink);
  // after a syntax error, yaml's recovery can nest oddly: still stop the walk, but say nothing more
  const walk = new NodeWalk(aliases, sink, limits, syntaxBroken);
  walk.visit(doc.contents, 0);
  return { doc, aliases, syntaxBroken: syntaxBroken || walk.refused, fast: fastDoc !== undefined };
}

/**
 * The `yaml` library's document, or undefined when its parser overflows the
 * stack: it recurses once per entry inside an unclosed flow collection, so
 * 2,000 short lines after a `[` (14 KB) used to make compile() throw.
 */
function parseGeneral(text: string): Document.Parsed | undefined {
  try {
    return parseDocument(text, { uniqueKeys: false, prettyErrors: false, keepSourceTokens: false });
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** At most this many C001 per file: after a real error yaml often reports every later token. */
const MAX_SYNTAX_ERRORS = 10;

/**
 * One C001 per line and per kind of message, and none of the "Unexpected ...
 * in YAML stream" errors that follow a first error: those are the cascade of
 * a parser that lost track of the document (one bad indent makes every later
 * line "not at the same column"), not further problems.
 */
function reportSyntaxErrors(errors: readonly YAMLError[], sink: DiagnosticSink): void {
  const lines = new Set<number>();
  const messages = new Set<string>();
  for (const error of [...errors].sort((a, b) => a.pos[0] - b.pos[0])) {
    const [start, end] = error.pos;
    const line = sink.lines.offsetToPosition(start).line;
    const message = firstLine(error.message);
    if (lines.size > 0 && (lines.has(line) || messages.has(message) || message.includes("in YAML stream"))) continue;
    if (lines.size === MAX_SYNTAX_ERRORS) break;
    lines.add(line);
    messages.add(message);
    sink.report("C001", { start, end: Math.max(end, start) }, `YAML syntax error: ${message}`);
  }
}

function megabytes(chars: number): string {
  return (chars / (1024 * 1024)).toFixed(1);
}

function firstLine(message: string): string {
  const nl = message.indexOf("\n");
  return (nl === -1 ? message : message.slice(0, nl)).replace(/ at line \d+, column \d+:?$/, "");
}

/** Definition node -> its node count, for definitions whose walk found nothing. */
const cleanDefinitions = identityMemo<Node, number>("parse/parse-yaml: node count by clean definition node", {
  acrossCompilesOnly: true,
});

/** One ordered pass: anchors and aliases, nesting depth, node count, duplicate keys. */
class NodeWalk {
  private readonly anchors = new Map<string, Node>();
  private nodes = 0;
  /** Keys from the root to the node being visited (joined only to word a C011). */
  private readonly path: string[] = [];
  refused = false;

  constructor(
    private readonly aliases: AliasTable,
    private readonly sink: DiagnosticSink,
    private readonly limits: Limits,
    private readonly quiet: boolean,
  ) {}

  visit(node: unknown, depth: number): void {
    if (this.refused || !node) return;
    if (++this.nodes > this.limits.maxNodes) return this.refuse(node as Node, `more than ${this.limits.maxNodes} YAML nodes`);
    const n = node as Node;
    if (depth === DEFINITION_DEPTH && (isMap(n) || isSeq(n))) return this.visitDefinition(n, depth);
    this.visitNode(n, depth);
  }

  /**
   * A definition (a unit, tool, ... two levels down) found clean before is
   * not walked again: an incremental re-parse keeps the nodes of every
   * definition it did not touch. Clean: no diagnostic, anchor or alias inside.
   */
  private visitDefinition(n: Node, depth: number): void {
    const known = cleanDefinitions.get(n);
    if (known !== undefined) {
      this.nodes += known - 1;
      if (this.nodes > this.limits.maxNodes) this.refuse(n, `more than ${this.limits.maxNodes} YAML nodes`);
      return;
    }
    const before = { nodes: this.nodes, reported: this.sink.diagnostics.length, anchors: this.anchors.size, aliases: this.aliases.size };
    this.visitNode(n, depth);
    const clean =
      !this.refused &&
      this.sink.diagnostics.length === before.reported &&
      this.anchors.size === before.anchors &&
      this.aliases.size === before.aliases;
    if (clean) cleanDefinitions.set(n, this.nodes - before.nodes + 1);
  }

  private visitNode(n: Node, depth: number): void {
    if (isAlias(n)) {
      const target = this.anchors.get(n.source);
      this.aliases.set(n, target);
      // an error in YAML, which the library reads as an empty value: a C001 like a syntax error, and nothing else
      if (!target) {
        this.refused = true;
        if (!this.quiet) this.sink.report("C001", nodeSpan(n, { start: 0, end: 0 }), `alias '*${n.source}' refers to no anchor before it`);
      }
      return;
    }
    if ((isScalar(n) || isMap(n) || isSeq(n)) && n.anchor) this.anchors.set(n.anchor, n);
    if (depth > this.limits.maxDepth) return this.refuse(n, `nesting deeper than ${this.limits.maxDepth} levels`);
    if (isMap(n)) {
      const first = new Map<string, Node>();
      for (const pair of n.items) {
        const name = keyName(pair);
        const earlier = first.get(name);
        if (earlier && pair.key) {
          const line = this.sink.lines.offsetToPosition(earlier.range?.[0] ?? 0).line + 1;
          const where = this.path.length === 0 ? "the top level" : `'${this.path.join(".")}'`;
          this.sink.report("C011", keySpan(pair), `duplicate key '${name}' in ${where}; the first one is on line ${line}`, {
            related: [{ message: `first '${name}'`, span: nodeSpan(earlier, { start: 0, end: 0 }) }],
          });
        } else if (pair.key) first.set(name, pair.key as Node);
        this.visit(pair.key, depth + 1);
        this.path.push(name);
        this.visit(pair.value, depth + 1);
        this.path.pop();
      }
    } else if (isSeq(n)) {
      for (const item of n.items) this.visit(item, depth + 1);
    }
  }

  private refuse(node: Node, message: string): void {
    this.refused = true;
    if (this.quiet) return;
    const start = node.range?.[0] ?? 0;
    this.sink.report("C001", { start, end: start + 1 }, message);
  }
}
