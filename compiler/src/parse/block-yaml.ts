/**
 * A fast path for the YAML that contracts are written in: block mappings and
 * sequences, single-line flow collections, plain and single-line quoted
 * scalars, literal and folded block scalars, comments. It builds the same
 * `yaml` nodes, with the same values and source ranges, as yaml's own
 * composer, several times faster and with far less garbage, because a
 * 10,000-unit contract spends most of its compile time in the general YAML
 * parser.
 *
 * Anything else (anchors, aliases, tags, directives, multi-line flow or plain
 * scalars, escapes, tabs, a lone CR, and every syntax error) returns `undefined`
 * and the caller parses with `yaml` as before: the fast path never decides
 * what a document means when it is unsure, and never words an error.
 * compiler/test/block-yaml.test.ts checks it against yaml node by node.
 */
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, visit, type Node, type Schema } from "yaml";

/** Thrown inside the scanner when the text needs the general parser. */
class Unsupported {}
const UNSUPPORTED = new Unsupported();

const NL = 10;
const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const COMMA = 44;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;

/** The double-quoted escapes the fast path decodes; any other takes the general parser. */
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0", " ": " " };

/** Characters that cannot start a plain scalar here (YAML indicators; `-` is checked apart). */
const INDICATOR = new Set([..."?:,[]{}#&*!|>'\"%@`"].map((c) => c.charCodeAt(0)));
const FLOW_END = new Set([..."[]{},"].map((c) => c.charCodeAt(0)));

/**
 * The document's root node as yaml would compose it (null for an empty
 * document), or `undefined` when the text needs the general parser.
 */
export function parseBlockYaml(text: string, reuse?: EntryReuse): Document.Parsed | undefined {
  if (text.charCodeAt(0) === 0xfeff) return undefined;
  if (text.includes("\r")) return parseCrlf(text);
  const doc = new Document() as Document.Parsed;
  const root = attempt(text, () => new BlockScanner(text, doc.schema, 0, reuse).document());
  if (root === undefined) return undefined;
  doc.contents = root as Document.Parsed["contents"];
  return doc;
}

/**
 * Offered each entry of a mapping two collections deep (a unit, an input, a
 * tool: one definition) before it is scanned, its key at `at` ending at
 * `colon`, the mapping at column `col`: the pair and where the next entry's
 * line starts, taken from an earlier tree when that entry's text is
 * unchanged (parse/incremental.ts), or undefined to scan it.
 */
export type EntryReuse = (at: number, colon: number, col: number) => { pair: Pair; next: number } | undefined;

/**
 * A CRLF document is scanned as its LF text and every range is moved back to
 * the original offsets, so CRLF and LF documents take the same parser and get
 * the same values and diagnostics (with the general parser for one and the
 * fast path for the other, a 1,100-character key or a bracket in a plain
 * scalar passed with LF and failed with CRLF). A lone CR is left to yaml.
 */
function parseCrlf(text: string): Document.Parsed | undefined {
  if (/\r(?!\n)/.test(text)) return undefined;
  const lf = text.replaceAll("\r\n", "\n");
  const doc = parseBlockYaml(lf);
  if (!doc) return undefined;
  // original offset = LF offset + the line ends before it (one CR was dropped from each)
  const lineEnds: number[] = [];
  for (let i = lf.indexOf("\n"); i !== -1; i = lf.indexOf("\n", i + 1)) lineEnds.push(i);
  const toOriginal = (offset: number): number => offset + countBelow(lineEnds, offset);
  visit(doc, {
    Node(_, node) {
      const range = node.range;
      if (range) node.range = [toOriginal(range[0]), toOriginal(range[1]), toOriginal(range[2])];
    },
  });
  return doc;
}

/** How many of the sorted `values` are below `x`. */
function countBelow(values: readonly number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One `key: value` entry of a block mapping at column `col`, its key at `at`,
 * nested `depth` collections deep: the pair and the start of the line where
 * the next entry (or whatever ends the mapping) begins. `undefined` when the
 * entry needs the general parser. The incremental re-parse is built on it.
 */
export function parseBlockEntry(
  text: string,
  schema: Schema,
  at: number,
  col: number,
  depth: number,
): { pair: Pair; next: number } | undefined {
  return attempt(text, () => new BlockScanner(text, schema, depth).entry(at, col));
}

/** What `scan` returns, or `undefined` when the text needs the general parser. */
function attempt<T>(text: string, scan: () => T): T | undefined {
  if (text.includes("\r") || text.includes("\t")) return undefined;
  try {
    return scan();
  } catch (err) {
    if (err === UNSUPPORTED) return undefined;
    throw err;
  }
}

function unsupported(): never {
  // A shared sentinel, not an Error: declining is routine and must not pay for a stack trace.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw UNSUPPORTED;
}

/** The nodes the scanner builds; a block collection's range ends at its last item's range[2]. */
type Parsed = Scalar | YAMLMap | YAMLSeq;

/**
 * The items of a finished collection in an array of their own length: an
 * array grown by push keeps room for 16 more, and a contract's tree is
 * mostly small collections that live as long as the parse.
 */
function exact<T>(items: T[]): T[] {
  return items.slice();
}

/**
 * yaml's node classes with the range kept in three fields of the node: a
 * three-number array costs more than the scalar it belongs to, and the tree
 * has one per node. `range` reads as a new array each time, so it is
 * changed by assigning a new one (parse/incremental.ts does), never in place.
 */
class RangedMap extends YAMLMap {
  r0 = -1;
  r1 = 0;
  r2 = 0;
}
class RangedSeq extends YAMLSeq {
  r0 = -1;
  r1 = 0;
  r2 = 0;
}
interface FieldRange {
  r0: number;
  r1: number;
  r2: number;
}
const fieldRange: PropertyDescriptor = {
  get(this: FieldRange): [number, number, number] | undefined {
    return this.r0 < 0 ? undefined : [this.r0, this.r1, this.r2];
  },
  set(this: FieldRange, range: readonly [number, number, number] | null | undefined) {
    if (range) [this.r0, this.r1, this.r2] = range;
    else this.r0 = -1;
  },
  configurable: true,
};
for (const ranged of [RangedMap, RangedSeq]) Object.defineProperty(ranged.prototype, "range", fieldRange);

/**
 * Scalars and pairs, most of a tree's nodes, are made without yaml's
 * constructors, which define the node's type on every node with
 * `Object.defineProperty` (slow, and a property per node). Here the type is
 * on the prototype, where yaml's guards (`isScalar`, `isPair`: they read
 * `node[NODE_TYPE]`) find it all the same, and `instanceof Scalar` and
 * `instanceof Pair` still hold. Every field is set in the constructor, so
 * all scalars share one shape.
 */
const NODE_TYPE = Symbol.for("yaml.node.type");

class FieldScalar {
  value: unknown;
  source: string;
  type: Scalar.Type;
  r0: number;
  r1: number;
  r2: number;
  constructor(value: unknown, source: string, type: Scalar.Type, r0: number, r1: number, r2: number) {
    this.value = value;
    this.source = source;
    this.type = type;
    this.r0 = r0;
    this.r1 = r1;
    this.r2 = r2;
  }
}
Object.setPrototypeOf(FieldScalar.prototype, Scalar.prototype);
Object.defineProperty(FieldScalar.prototype, "range", fieldRange);
Object.defineProperty(FieldScalar.prototype, NODE_TYPE, { value: Symbol.for("yaml.scalar") });

class FieldPair {
  key: unknown;
  value: unknown;
  constructor(key: unknown, value: unknown) {
    this.key = key;
    this.value = value;
  }
}
Object.setPrototypeOf(FieldPair.prototype, Pair.prototype);
Object.defineProperty(FieldPair.prototype, NODE_TYPE, { value: Symbol.for("yaml.pair") });

/** A scalar as yaml's composer makes it, with its source text, style and range. */
function newScalar(value: unknown, source: string, type: Scalar.Type, start: number, end: number, after: number): Scalar {
  return new FieldScalar(value, source, type, start, end, after) as unknown as Scalar;
}

function newPair(key: Parsed, value: Parsed): Pair {
  return new FieldPair(key, value) as unknown as Pair;
}

/** Deeper nesting than any contract needs takes the general parser (and its limits), not our stack. */
const MAX_NESTING = 64;

/** Plain scalars up to this length are shared by text (longer slices already share the text's characters). */
const SHARED_MAX = 12;
const SHARED_SLOTS = 4096;

class BlockScanner {
  private readonly recent: string[] = new Array<string>(SHARED_SLOTS).fill("");

  constructor(
    private readonly text: string,
    private readonly schema: Schema,
    private depth = 0,
    private readonly reuse?: EntryReuse,
  ) {}

  entry(at: number, col: number): { pair: Pair; next: number } {
    const colon = this.keyColon(at);
    if (colon === -1) unsupported();
    const reused = this.depth === 2 && this.reuse ? this.reuse(at, colon, col) : undefined;
    if (reused) return reused;
    const value = this.valueAfterIndicator(colon + 1, col, true);
    const pair = newPair(this.keyScalar(at, colon), value);
    return { pair, next: this.nextEntryLine(this.resumeAt(value.range![2]), col) };
  }

  document(): Node | null {
    const first = this.nextContentLine(0);
    if (first === this.text.length) return null;
    const root = this.blockNode(first, this.indentAt(first));
    if (this.nextContentLine(this.resumeAt(root.range![2])) !== this.text.length) unsupported();
    // comments after the root belong to the document, not to its range
    const [start, end] = root.range!;
    root.range = [start, end, end];
    return root;
  }

  // ---- lines -------------------------------------------------------------

  private indentAt(lineStart: number): number {
    let i = lineStart;
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i - lineStart;
  }

  /** From a line start, skips blank and comment-only lines; returns the next content line's start or the text's end. */
  private nextContentLine(from: number): number {
    const t = this.text;
    let line = from;
    while (line < t.length) {
      const at = line + this.indentAt(line);
      const c = t.charCodeAt(at);
      if (c !== NL && c !== HASH && at < t.length) {
        // directives and document markers belong to the general parser
        if (at === line && (t.startsWith("---", at) || t.startsWith("...", at) || c === 37) /* % */) unsupported();
        return line;
      }
      const nl = t.indexOf("\n", at);
      line = nl === -1 ? t.length : nl + 1;
    }
    return t.length;
  }

  /**
   * The next entry's line after a value of a collection at column `col`. A
   * comment line indented deeper than `col` in between would belong to the
   * value in ways yaml's ranges encode unevenly: the general parser's job.
   */
  private nextEntryLine(from: number, col: number): number {
    const next = this.nextContentLine(from);
    for (let line = from; line < next; line = this.lineEnd(line)) {
      const indent = this.indentAt(line);
      if (this.text.charCodeAt(line + indent) === HASH && indent > col) unsupported();
    }
    return next;
  }

  /**
   * Where to look for the next entry after a value whose range ends at `end`:
   * a range that runs over the next line's indentation resumes at that line's start.
   */
  private resumeAt(end: number): number {
    const start = this.lineStartOf(end);
    for (let i = start; i < end; i++) if (this.text.charCodeAt(i) !== SPACE) return end;
    return start;
  }

  /** End of the line containing `at`, after its newline. */
  private lineEnd(at: number): number {
    const nl = this.text.indexOf("\n", at);
    return nl === -1 ? this.text.length : nl + 1;
  }

  /**
   * After a value ends at `at` on its line: trailing spaces, an optional
   * comment, the newline. Anything else on the line is not for the fast path.
   */
  private restOfLine(at: number): number {
    const t = this.text;
    let i = at;
    while (t.charCodeAt(i) === SPACE) i++;
    if (i < t.length && t.charCodeAt(i) !== NL) {
      if (t.charCodeAt(i) !== HASH || i === at) unsupported();
    }
    return this.lineEnd(i);
  }

  /**
   * A block collection at column `col` also owns the comment lines after it
   * that are indented at least as far; once it owns one, yaml's range[2]
   * runs on to the next token (over blank lines and the next line's indent).
   */
  private trailingComments(from: number, col: number): number {
    const t = this.text;
    let line = from;
    let owned = false;
    while (line < t.length) {
      const indent = this.indentAt(line);
      const c = t.charCodeAt(line + indent);
      if (c === HASH && indent >= col) {
        owned = true;
        line = this.lineEnd(line);
      } else if (c === NL) line = line + indent + 1;
      else if (c === HASH && owned)
        unsupported(); // a shallower comment after ours
      else return owned ? Math.min(line + indent, t.length) : from;
    }
    return owned ? t.length : from;
  }

  // ---- block structure ---------------------------------------------------

  /** The node on the content line at `line`, indented `col`. */
  private blockNode(line: number, col: number): Parsed {
    const at = line + col;
    if (this.isDashIndicator(at)) return this.blockSeq(at, col);
    if (this.keyColon(at) !== -1) return this.blockMap(at, col);
    unsupported(); // a lone scalar on its own line (root or `key:\n  value`)
  }

  private isDashIndicator(at: number): boolean {
    const next = this.text.charCodeAt(at + 1);
    return this.text.charCodeAt(at) === DASH && (next === SPACE || next === NL || at + 1 === this.text.length);
  }

  private blockMap(first: number, col: number): YAMLMap {
    this.enter();
    const map = new RangedMap(this.schema);
    const items: Pair[] = [];
    let at = first;
    let end: number;
    for (;;) {
      const { pair, next } = this.entry(at, col);
      items.push(pair);
      end = (pair.value as Parsed).range![2];
      if (next === this.text.length) break;
      const indent = this.indentAt(next);
      if (indent < col) break;
      if (indent > col || this.isDashIndicator(next + indent)) unsupported();
      at = next + indent;
    }
    map.items = exact(items);
    map.range = [first, end, this.trailingComments(end, col)];
    this.depth--;
    return map;
  }

  private blockSeq(first: number, col: number): YAMLSeq {
    this.enter();
    const seq = new RangedSeq(this.schema);
    const items: Parsed[] = [];
    let at = first;
    let end: number;
    for (;;) {
      const value = this.valueAfterIndicator(at + 1, col, false);
      items.push(value);
      end = value.range![2];
      const next = this.nextEntryLine(this.resumeAt(end), col);
      if (next === this.text.length) break;
      const indent = this.indentAt(next);
      if (indent < col) break;
      if (indent > col) unsupported();
      // a zero-indented sequence under a key ends at that map's next key
      if (!this.isDashIndicator(next + indent)) break;
      at = next + indent;
    }
    seq.items = exact(items);
    seq.range = [first, end, this.trailingComments(end, col)];
    this.depth--;
    return seq;
  }

  /**
   * The value after `key:` or `- ` (indicator ending at `from`) of a
   * collection at column `col`: on the same line, or on the lines below.
   */
  private valueAfterIndicator(from: number, col: number, inMap: boolean): Parsed {
    const t = this.text;
    let at = from;
    while (t.charCodeAt(at) === SPACE) at++;
    const c = t.charCodeAt(at);
    if (at >= t.length || c === NL || c === HASH) {
      // `key: # note` gives an empty value whose yaml range[2] follows token details: the general parser's job
      if (c === HASH) unsupported();
      const lineEnd = this.lineEnd(at);
      const next = this.nextContentLine(lineEnd);
      if (next < t.length) {
        const indent = this.indentAt(next);
        if (indent > col) return this.blockNode(next, indent);
        if (inMap && indent === col && this.isDashIndicator(next + indent)) return this.blockSeq(next + indent, col);
      }
      // comment lines after an empty value stretch its yaml range[2] in ways not worth copying
      for (let line = lineEnd; line < next; line = this.lineEnd(line)) {
        if (this.text.charCodeAt(line + this.indentAt(line)) === HASH) unsupported();
      }
      return newScalar(null, "", "PLAIN", at, at, at);
    }
    if (!inMap) {
      if (this.isDashIndicator(at)) unsupported(); // `- - x`
      // `- key: value` starts a mapping at this column
      if (this.keyColon(at) !== -1) return this.blockMap(at, at - this.lineStartOf(at));
    }
    return this.inlineValue(at, col);
  }

  private lineStartOf(at: number): number {
    return this.text.lastIndexOf("\n", at - 1) + 1;
  }

  /** A value that starts on its indicator's line. */
  private inlineValue(at: number, col: number): Parsed {
    const t = this.text;
    const c = t.charCodeAt(at);
    let node: Parsed;
    let valueEnd: number;
    if (c === 91 /* [ */ || c === 123 /* { */) {
      node = this.flowCollection(at);
      valueEnd = node.range![1];
    } else if (c === DQUOTE || c === SQUOTE) {
      node = this.quoted(at);
      valueEnd = node.range![1];
    } else if (c === 124 /* | */ || c === 62 /* > */) {
      return this.blockScalar(at, col);
    } else {
      if (INDICATOR.has(c) || this.isDashIndicator(at)) unsupported();
      valueEnd = this.plainEnd(at, false);
      // `a: b: c` and friends are errors yaml words better
      if (this.keyColon(at) !== -1) unsupported();
      node = this.plainScalar(at, valueEnd);
    }
    node.range = [at, valueEnd, this.restOfLine(valueEnd)];
    return node;
  }

  // ---- keys --------------------------------------------------------------

  /** Offset of the `:` ending a simple key that starts at `at`, or -1 if the line is not `key: ...`. */
  private keyColon(at: number): number {
    const t = this.text;
    const c = t.charCodeAt(at);
    if (c === DQUOTE || c === SQUOTE) {
      const close = this.closingQuote(at);
      if (close === -1) return -1;
      return t.charCodeAt(close + 1) === COLON && this.endsIndicator(close + 2) ? close + 1 : -1;
    }
    if (INDICATOR.has(c) || (c === DASH && this.isDashIndicator(at))) return -1;
    for (let i = at; i < t.length; i++) {
      const ch = t.charCodeAt(i);
      if (ch === NL) return -1;
      if (ch === COLON && this.endsIndicator(i + 1)) return t.charCodeAt(i - 1) === SPACE ? unsupported() : i;
      if (ch === HASH && t.charCodeAt(i - 1) === SPACE) return -1;
    }
    return -1;
  }

  private endsIndicator(at: number): boolean {
    const c = this.text.charCodeAt(at);
    return c === SPACE || c === NL || at >= this.text.length;
  }

  private keyScalar(at: number, colon: number): Scalar {
    const c = this.text.charCodeAt(at);
    const key = c === DQUOTE || c === SQUOTE ? this.quoted(at) : this.plainScalar(at, colon);
    key.range = [at, colon, colon];
    return key;
  }

  // ---- scalars -----------------------------------------------------------

  /** End of a plain scalar starting at `at`: before ` #`, the line's end or (in flow) a flow indicator or `: `. */
  private plainEnd(at: number, flow: boolean): number {
    const t = this.text;
    let i = at;
    let end = at;
    for (; i < t.length; i++) {
      const ch = t.charCodeAt(i);
      if (ch === NL) break;
      if (ch === HASH && t.charCodeAt(i - 1) === SPACE) break;
      if (flow && (FLOW_END.has(ch) || (ch === COLON && (this.endsIndicator(i + 1) || FLOW_END.has(t.charCodeAt(i + 1)))))) break;
      if (ch !== SPACE) end = i + 1;
    }
    return end;
  }

  /** A plain scalar's text resolved by the YAML 1.2 core schema, as yaml does it. */
  private plainScalar(start: number, end: number): Scalar {
    const source = this.shared(start, end);
    const scalar = newScalar(resolvePlain(source), source, "PLAIN", start, end, end);
    if (typeof scalar.value === "number" && source.includes(".") && source.endsWith("0")) {
      scalar.minFractionDigits = source.length - source.indexOf(".") - 1;
    }
    return scalar;
  }

  /**
   * text[start, end), as the string last taken for the same short text when
   * there is one: keys repeat on every unit, and a short slice is a copy of
   * its own (a long one points into the text). A direct-mapped table of
   * recent strings, so a miss costs no more than the slice.
   */
  private shared(start: number, end: number): string {
    const t = this.text;
    const length = end - start;
    if (length > SHARED_MAX || length === 0) return t.slice(start, end);
    const slot =
      (length * 961 + t.charCodeAt(start) * 31 + t.charCodeAt(start + (length >> 1)) * 7 + t.charCodeAt(end - 1)) & (SHARED_SLOTS - 1);
    const known = this.recent[slot]!;
    if (known.length === length && t.startsWith(known, start)) return known;
    return (this.recent[slot] = t.slice(start, end));
  }

  /** Offset of the quote closing the quoted scalar at `at` on the same line, or -1. */
  private closingQuote(at: number): number {
    const t = this.text;
    const quote = t.charCodeAt(at);
    for (let i = at + 1; i < t.length; i++) {
      const ch = t.charCodeAt(i);
      if (ch === NL) return -1;
      if (quote === DQUOTE && ch === BACKSLASH) {
        if (!(this.text[i + 1]! in ESCAPES)) return -1; // rarer escapes: the general parser
        i++;
        continue;
      }
      if (ch === quote) {
        if (quote === SQUOTE && t.charCodeAt(i + 1) === SQUOTE) {
          i++;
          continue;
        }
        return i;
      }
    }
    return -1;
  }

  /** A single-line quoted scalar at `at`; range set to the quotes (callers widen range[2]). */
  private quoted(at: number): Scalar {
    const close = this.closingQuote(at);
    if (close === -1) unsupported();
    const raw = this.text.slice(at + 1, close);
    const single = this.text.charCodeAt(at) === SQUOTE;
    const value = single ? raw.replaceAll("''", "'") : raw.includes("\\") ? raw.replace(/\\(.)/g, (_, c: string) => ESCAPES[c]!) : raw;
    return newScalar(value, value, single ? "QUOTE_SINGLE" : "QUOTE_DOUBLE", at, close + 1, close + 1);
  }

  /**
   * `|` or `>` with optional `-` chomping, in a collection at column `col`.
   * Keep chomping, indentation indicators, and folded text with more-indented
   * lines take the general parser.
   */
  private blockScalar(at: number, col: number): Scalar {
    const t = this.text;
    const folded = t.charCodeAt(at) === 62;
    let i = at + 1;
    let strip = false;
    if (t.charCodeAt(i) === DASH) {
      strip = true;
      i++;
    }
    const c = t.charCodeAt(i);
    if (c !== SPACE && c !== NL && i < t.length) unsupported();
    let line = this.restOfLine(i);
    const lines: string[] = [];
    let indent = -1;
    let end = line;
    let pendingEmpty = 0;
    while (line < t.length) {
      const spaces = this.indentAt(line);
      const ch = t.charCodeAt(line + spaces);
      const nl = t.indexOf("\n", line);
      const next = nl === -1 ? t.length : nl + 1;
      if (ch === NL || line + spaces >= t.length) {
        if (indent !== -1 ? spaces > indent : spaces > col + 1) unsupported(); // spaces that may be content
        pendingEmpty++;
        line = next;
        continue;
      }
      if (indent === -1) {
        if (spaces <= col || pendingEmpty > 0) unsupported(); // empty block scalar or leading empty lines
        indent = spaces;
      }
      if (spaces < indent) break;
      if (folded && spaces > indent) unsupported();
      const content = t.slice(line + indent, nl === -1 ? t.length : nl);
      if (lines.length > 0) lines.push(folded ? (pendingEmpty > 0 ? "\n".repeat(pendingEmpty) : " ") : "\n".repeat(pendingEmpty + 1));
      lines.push(content);
      pendingEmpty = 0;
      end = line = next;
      if (nl === -1) break;
    }
    if (indent === -1) unsupported();
    const body = lines.join("");
    const value = strip ? body : body + "\n";
    return newScalar(value, value, folded ? "BLOCK_FOLDED" : "BLOCK_LITERAL", at, end, end);
  }

  // ---- flow collections (one line) ---------------------------------------

  private flowCollection(at: number): YAMLMap | YAMLSeq {
    this.enter();
    const t = this.text;
    const isMap = t.charCodeAt(at) === 123;
    const close = isMap ? 125 : 93;
    const collection = isMap ? new RangedMap(this.schema) : new RangedSeq(this.schema);
    collection.flow = true;
    const items: (Pair | Parsed)[] = [];
    let i = this.skipSpaces(at + 1);
    if (t.charCodeAt(i) === close) {
      collection.range = [at, i + 1, i + 1];
      this.depth--;
      return collection;
    }
    for (;;) {
      if (isMap) {
        const key = this.flowItem(i);
        if (t.charCodeAt(key.range![2]) !== COLON || !this.endsIndicator(key.range![2] + 1)) unsupported();
        if (key.range![1] !== key.range![2]) unsupported(); // `a : b`
        const value = this.flowItem(this.skipSpaces(key.range![2] + 1));
        items.push(newPair(key, value));
        i = value.range![2];
      } else {
        const item = this.flowItem(i);
        if (t.charCodeAt(item.range![2]) === COLON) unsupported(); // `[a: b]`
        items.push(item);
        i = item.range![2];
      }
      const ch = t.charCodeAt(i);
      if (ch === close) break;
      if (ch !== COMMA) unsupported();
      i = this.skipSpaces(i + 1);
      if (t.charCodeAt(i) === close) unsupported(); // trailing comma
    }
    collection.items = exact(items) as Pair[] & Parsed[];
    collection.range = [at, i + 1, i + 1];
    this.depth--;
    return collection;
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING) unsupported();
  }

  private skipSpaces(at: number): number {
    let i = at;
    while (this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** One flow item; range[2] is after the spaces that follow it. */
  private flowItem(at: number): Parsed {
    const t = this.text;
    const c = t.charCodeAt(at);
    let node: Parsed;
    let end: number;
    if (c === 91 || c === 123) {
      node = this.flowCollection(at);
      end = node.range![1];
    } else if (c === DQUOTE || c === SQUOTE) {
      node = this.quoted(at);
      end = node.range![1];
    } else {
      if (INDICATOR.has(c) || (c === DASH && (this.isDashIndicator(at) || FLOW_END.has(t.charCodeAt(at + 1))))) unsupported();
      end = this.plainEnd(at, true);
      if (end === at) unsupported();
      node = this.plainScalar(at, end);
    }
    const after = this.skipSpaces(end);
    if (t.charCodeAt(after) === NL || after >= t.length || t.charCodeAt(after) === HASH) unsupported(); // multi-line flow
    node.range = [at, end, after];
    return node;
  }
}

/** YAML 1.2 core schema for a plain scalar; forms with a `format` (hex, octal, exponent, inf, nan) take the general parser. */
function resolvePlain(source: string): string | number | boolean | null {
  const c = source.charCodeAt(0);
  // only these can start a non-string: digits, sign, dot, ~, n/N, t/T, f/F
  if (source === "" || source === "~" || source === "null" || source === "Null" || source === "NULL") return null;
  if (source === "true" || source === "True" || source === "TRUE") return true;
  if (source === "false" || source === "False" || source === "FALSE") return false;
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    if (/^[-+]?[0-9]+$/.test(source)) return Number(source);
    if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(source)) return parseFloat(source);
    if (
      /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(
        source,
      )
    )
      unsupported();
  }
  return source;
}
