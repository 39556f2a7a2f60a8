/**
 * Formatting a large contract in pieces, remembering each piece's result, so
 * Format Document after an edit formats only the unit that changed instead of
 * the whole file (the `yaml` library's parse and print go with the bytes they
 * read; bench/RESULTS.md, "figures behind code comments").
 *
 * The pieces: everything before the first entry of `units`, each entry of
 * `units` but the last, and the last entry with everything after it. Each is
 * formatted inside a small document that gives it the neighbours it has in
 * the whole file: the `units:` key above it, a made-up sibling before it
 * (unless it is the first entry) and one after it (unless it is the end of
 * the file). Comments and blank lines around a piece's edges then attach as
 * they would in the whole document; the made-up siblings' lines are cut from
 * the result. lsp/test/format.test.ts checks that the pieces joined are
 * exactly the whole document formatted at once.
 *
 * Only text the compiler's block-YAML fast path accepted is cut this way (no
 * multi-line flow or plain scalars, so every line at the entries' column is an
 * entry's key); anything unusual formats as one piece.
 *
 * A piece (or, with nothing remembered, the whole text) goes first to the
 * printer (format-relayout.ts), which lays out its subset of YAML without
 * `yaml`; only what it refuses is formatted by format-yaml.ts. Pieces that
 * differ only in their scalars share that formatting (their shape): layout
 * never depends on a scalar's text, since format-yaml.ts prints every scalar
 * as a placeholder and puts its source back afterwards, and the scalars here
 * are single-line. So the first time a shape comes back, its skeleton (each
 * scalar a placeholder) is formatted once, checked against the piece
 * formatted when the shape was first seen, and from then on every piece of
 * that shape is its template filled with its own scalars: a freshly opened
 * contract costs a few dozen `yaml` runs instead of one per unit.
 */
import { isCollection, isPair, isScalar, type Document } from "yaml";
import { indentStep, unusedName } from "./format-options.js";
import { relaidOut } from "./format-relayout.js";
import { formatYaml } from "./format-yaml.js";

/** Piece results of a document's earlier versions: the key is the piece in its context and the indentation. */
export type PieceMemo = Map<string, string>;

/** A scalar's source as [start, end) offsets into the text; `block` for a literal or folded block. */
export interface ScalarSpan {
  start: number;
  end: number;
  block: boolean;
}

/**
 * Shapes of a document's earlier pieces: a shape seen once keeps that piece's
 * scalars and result (to check a template against), a shape seen again its
 * template (literal text between the scalars), and null when its template did
 * not reproduce that piece (its pieces are then formatted one by one).
 */
export type ShapeMemo = Map<string, { scalars: string[]; result: string } | { template: string[] } | null>;

export interface Shapes {
  /**
   * The text's scalars in order, from the compiler's parse of this very text;
   * asked for only when some piece is not remembered. Undefined: not known.
   */
  scalars: () => readonly ScalarSpan[] | undefined;
  memo: ShapeMemo;
}

export interface PiecesResult {
  /** The formatted text, or undefined when it does not parse cleanly. */
  formatted: string | undefined;
  /**
   * How many times the `yaml` library formatted something: pieces, and
   * skeletons of shapes (the rest came from the memo, a shape's template or
   * the printer); 1 when the text was formatted whole, 0 when the printer
   * laid it all out.
   */
  formattedPieces: number;
}

/** Fewer units than this are formatted whole: pieces pay off on large contracts. */
const MIN_UNITS = 8;

/**
 * The first this many pieces missing from the memo are formatted directly:
 * after an edit one or two are, and reading every scalar of the document for
 * shapes would cost more than formatting them.
 */
const DIRECT_PIECES = 8;

/**
 * Formats `text` with `indent` spaces per level. `cuttable`: the text is in
 * the subset the block-YAML fast path parses (see above). `memo` is read and
 * left holding exactly this text's pieces (none when the text was proved or
 * laid out whole); `shapes`, when given, likewise for their shapes.
 */
export function formatInPieces(text: string, indent: number, cuttable: boolean, memo: PieceMemo, shapes?: Shapes): PiecesResult {
  const crlf = text.includes("\r\n");
  const source = crlf ? text.replace(/\r\n/g, "\n") : text;
  /** The whole text laid out by the printer; undefined when it refuses. */
  const withoutYaml = (): PiecesResult | undefined => {
    const whole = relaidOut(source, indent);
    if (whole === undefined) return undefined;
    return { formatted: whole === source ? text : crlf ? whole.replace(/\n/g, "\r\n") : whole, formattedPieces: 0 };
  };
  if (!cuttable) memo.clear();
  // With nothing remembered (a document's first format, or the printer took the whole text last time),
  // a whole text that needs no yaml is one pass: per-piece work would cost more than printing it.
  const triedWhole = memo.size === 0;
  const whole = triedWhole ? withoutYaml() : undefined;
  if (whole) return whole;
  // (cut only now: finding the pieces is a pass over the lines too)
  const pieces = cuttable ? cut(source) : undefined;
  if (!pieces) {
    memo.clear();
    return (triedWhole ? undefined : withoutYaml()) ?? { formatted: formatYaml(text, { indent }), formattedPieces: 1 };
  }
  const name = unusedName(source, "s");
  const pad = " ".repeat(pieces.column);
  const before = `${pad}${name}p: 0\n`;
  const after = `${pad}${name}n: 0\n`;
  const outPad = " ".repeat(indentStep(indent));
  const outBefore = `units:\n${outPad}${name}p: 0\n`;
  const outAfter = `${outPad}${name}n: 0\n`;
  const used: PieceMemo = new Map();
  const usedShapes: ShapeMemo = new Map();
  const out: string[] = [];
  let formattedPieces = 0;
  // the scalars, read once some piece needs formatting (CRLF text: its offsets are not those of `source`)
  let scalars: ScalarCursor | null | undefined = shapes && !crlf ? undefined : null;
  let missed = 0;
  const formatPiece = (context: string, first: boolean, last: boolean): string | undefined => {
    formattedPieces++;
    const formatted = formatYaml(context, { indent });
    return formatted === undefined ? undefined : strip(formatted, first ? "" : outBefore, last ? "" : outAfter);
  };
  for (let i = 0; i < pieces.bounds.length - 1; i++) {
    const start = pieces.bounds[i]!;
    const end = pieces.bounds[i + 1]!;
    const body = source.slice(start, end);
    const first = i === 0;
    const last = i === pieces.bounds.length - 2;
    // the head ends with its `units:` line; every later piece starts at an entry's key
    const wrap = (piece: string) => (first ? "" : `units:\n${before}`) + piece + (last ? "" : after);
    const context = wrap(body);
    const key = `${indent}\n${context}`;
    let result = used.get(key) ?? memo.get(key);
    // a piece in the printer's subset is laid out without yaml (one already laid out comes back as it is)
    if (result === undefined) {
      const laid = relaidOut(context, indent);
      if (laid !== undefined) result = strip(laid, first ? "" : outBefore, last ? "" : outAfter);
    }
    if (result === undefined) {
      missed++;
      if (scalars === undefined && missed > DIRECT_PIECES) scalars = scalarCursor(source, shapes!.scalars());
      const shape = scalars ? scalars.shapeOf(start, end) : undefined;
      if (shape) {
        const shapeKey = `${indent}\n${wrap(shape.skeleton)}`;
        const known = usedShapes.has(shapeKey) ? usedShapes.get(shapeKey) : shapes!.memo.get(shapeKey);
        if (known === undefined) {
          result = formatPiece(context, first, last);
          usedShapes.set(shapeKey, result === undefined ? null : { scalars: shape.scalars, result });
        } else if (known === null) {
          result = formatPiece(context, first, last);
          usedShapes.set(shapeKey, null);
        } else {
          let template = "template" in known ? known.template : undefined;
          if (!("template" in known)) {
            // seen a second time: format the skeleton once, and trust it only if it gives back the first piece
            const skeleton = formatPiece(wrap(scalars!.placeholders(shape)), first, last);
            template = skeleton === undefined ? undefined : templateOf(skeleton, shape.scalars.length, scalars!.marker);
            if (template && fill(template, known.scalars) !== known.result) template = undefined;
          }
          usedShapes.set(shapeKey, template ? { template } : null);
          result = template ? fill(template, shape.scalars) : formatPiece(context, first, last);
        }
      } else result = formatPiece(context, first, last);
      if (result === undefined) {
        // a piece that does not stand on its own: the whole text decides
        memo.clear();
        shapes?.memo.clear();
        return { formatted: formatYaml(text, { indent }), formattedPieces: formattedPieces + 1 };
      }
    }
    used.set(key, result);
    out.push(result);
  }
  memo.clear();
  for (const [k, v] of used) memo.set(k, v);
  if (shapes && usedShapes.size > 0) {
    shapes.memo.clear();
    for (const [k, v] of usedShapes) shapes.memo.set(k, v);
  }
  const formatted = out.join("");
  return { formatted: crlf ? formatted.replace(/\n/g, "\r\n") : formatted, formattedPieces };
}

/** The literal parts of a formatted skeleton around its placeholders `marker0z` ... `marker{count-1}z`, which must come in order, each once. */
function templateOf(formatted: string, count: number, marker: string): string[] | undefined {
  const parts = formatted.split(new RegExp(`${marker}(\\d+)z`));
  // split keeps the captured indices at the odd positions
  if ((parts.length - 1) / 2 !== count) return undefined;
  for (let k = 1; k < parts.length; k += 2) if (Number(parts[k]) !== (k - 1) / 2) return undefined;
  return parts.filter((_, k) => k % 2 === 0);
}

/** A template filled with scalars (one fewer scalar than parts). */
function fill(template: string[], scalars: string[]): string {
  let out = template[0]!;
  for (let k = 0; k < scalars.length; k++) out += scalars[k]! + template[k + 1]!;
  return out;
}

/** A piece with its scalars taken out: `skeleton` has a character the text never holds where each scalar was. */
interface Shape {
  skeleton: string;
  scalars: string[];
}

interface ScalarCursor {
  /** The shape of the piece [start, end), or undefined when it has a block scalar or a scalar crosses its edge. */
  shapeOf(start: number, end: number): Shape | undefined;
  /** The skeleton with placeholders `marker0z`, `marker1z`, ... where its scalars were. */
  placeholders(shape: Shape): string;
  marker: string;
}

/** Where a scalar was, in a skeleton (U+0000: no contract holds one; the fast path that makes a text cuttable refuses it). */
const HOLE = "\u0000";

/**
 * Reads shapes of consecutive pieces off the text's scalars in one pass (the
 * pieces are asked for in order). Null when shapes cannot be used: no scalars
 * known, or the text holds the hole character.
 */
function scalarCursor(text: string, spans: readonly ScalarSpan[] | undefined): ScalarCursor | null {
  if (!spans || text.includes(HOLE)) return null;
  let next = 0;
  const marker = unusedName(text, "h");
  return {
    marker,
    shapeOf(start, end) {
      while (next < spans.length && spans[next]!.end <= start) next++;
      const parts: string[] = [];
      const scalars: string[] = [];
      let at = start;
      let k = next;
      for (; k < spans.length && spans[k]!.start < end; k++) {
        const span = spans[k]!;
        if (span.block || span.start < at || span.end > end || span.end === span.start) return undefined;
        parts.push(text.slice(at, span.start));
        scalars.push(text.slice(span.start, span.end));
        at = span.end;
      }
      next = k;
      parts.push(text.slice(at, end));
      return { skeleton: parts.join(HOLE), scalars };
    },
    placeholders(shape) {
      let k = 0;
      return shape.skeleton.replace(/\u0000/g, () => `${marker}${k++}z`);
    },
  };
}

/**
 * Every scalar of a document parsed from the text, keys and values, in text
 * order; a scalar without source text (an empty value) is left out. Walked by
 * hand: yaml's `visit` over every scalar of a large contract took most of the
 * first format's budget (bench/RESULTS.md, "figures behind code comments").
 */
export function scalarSpans(doc: Document): ScalarSpan[] {
  const spans: ScalarSpan[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isScalar(node)) {
      const range = node.range;
      if (range && range[1] > range[0])
        spans.push({ start: range[0], end: range[1], block: node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED" });
    } else if (isPair(node)) stack.push(node.value, node.key);
    else if (isCollection(node)) for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
  }
  // document order is text order; checked, since a wrong order would misplace every scalar after it
  for (let i = 1; i < spans.length; i++) if (spans[i]!.start < spans[i - 1]!.end) return spans.sort((a, b) => a.start - b.start);
  return spans;
}

/** `text` without `prefix` and `suffix`, or undefined when it does not have them. */
function strip(text: string, prefix: string, suffix: string): string | undefined {
  if (!text.startsWith(prefix) || !text.endsWith(suffix) || text.length < prefix.length + suffix.length) return undefined;
  return text.slice(prefix.length, text.length - suffix.length);
}

interface Pieces {
  /** Offsets where pieces start, then the text's length. */
  bounds: number[];
  /** The column of the entries of `units`. */
  column: number;
}

/**
 * Where the pieces start: the first entry of a block `units:` at the top level
 * (on the line right after `units:`), every further entry's key line up to the
 * last one, and the text's end. Undefined when the text has no such section or
 * too few units. It reads columns, not YAML: in text the compiler's block-YAML
 * fast path accepted (`cuttable`), every line at the entries' column is an
 * entry's key; it must also cut text the printer refuses, so it cannot be the
 * printer's reader.
 */
function cut(text: string): Pieces | undefined {
  const unitsLine = /^units:[ ]*(#.*)?\n/m.exec(text);
  if (!unitsLine) return undefined;
  const firstAt = unitsLine.index + unitsLine[0].length;
  const column = indentOf(text, firstAt);
  // the first entry right below `units:`: comments or blank lines in between would attach to the head
  if (column === 0 || text.charCodeAt(firstAt + column) === 35 /* # */ || lineEnd(text, firstAt) === firstAt + column) return undefined;
  const bounds = [0, firstAt];
  for (let at = lineEnd(text, firstAt) + 1; at < text.length; at = lineEnd(text, at) + 1) {
    const indent = indentOf(text, at);
    const end = lineEnd(text, at);
    if (at + indent === end || text.charCodeAt(at + indent) === 35) continue; // blank or comment-only
    if (indent === 0) break; // the next top-level key
    if (indent < column) return undefined; // a shallower line inside the section: not a plain block map
    if (indent === column) bounds.push(at);
  }
  if (bounds.length - 1 < MIN_UNITS) return undefined;
  // the last entry goes with the rest of the file
  bounds.push(text.length);
  return { bounds, column };
}

function indentOf(text: string, lineStart: number): number {
  let i = lineStart;
  while (text.charCodeAt(i) === 32) i++;
  return i - lineStart;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  return nl === -1 ? text.length : nl;
}
