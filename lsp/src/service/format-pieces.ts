/**
 * Formatting a large contract in pieces, remembering each piece's result, so
 * Format Document after an edit re-formats only the unit that changed instead
 * of the whole file (the `yaml` library's parse and print of a 2,000-unit
 * contract take seconds on a loaded machine; one unit takes well under a
 * millisecond).
 *
 * The pieces: everything before the first entry of `units`, each entry of
 * `units` but the last, and the last entry with everything after it. Each is
 * formatted (format-yaml.ts) inside a small document that gives it the
 * neighbours it has in the whole file: the `units:` key above it, a made-up
 * sibling before it (unless it is the first entry) and one after it (unless it
 * is the end of the file). Comments and blank lines around a piece's edges
 * then attach as they would in the whole document; the made-up siblings'
 * lines are cut from the result. lsp/test/format.test.ts checks that the
 * pieces joined are exactly the whole document formatted at once.
 *
 * Only text the compiler's block-YAML fast path accepted is cut this way (no
 * multi-line flow or plain scalars, so every line at the entries' column is an
 * entry's key); anything unusual formats as one piece.
 */
import { formatYaml } from "./format-yaml.js";

/** Piece results of a document's earlier versions: the key is the piece in its context and the indentation. */
export type PieceMemo = Map<string, string>;

export interface PiecesResult {
  /** The formatted text, or undefined when it does not parse cleanly. */
  formatted: string | undefined;
  /** How many pieces had to be formatted (the rest came from the memo); 1 when the text was formatted whole. */
  formattedPieces: number;
}

/** Fewer units than this are formatted whole: pieces pay off on large contracts. */
const MIN_UNITS = 8;

/**
 * Formats `text` with `indent` spaces per level. `cuttable`: the text is in
 * the subset the block-YAML fast path parses (see above). `memo` is read and
 * left holding exactly this text's pieces.
 */
export function formatInPieces(text: string, indent: number, cuttable: boolean, memo: PieceMemo): PiecesResult {
  const crlf = text.includes("\r\n");
  const source = crlf ? text.replace(/\r\n/g, "\n") : text;
  const pieces = cuttable ? cut(source) : undefined;
  if (!pieces) {
    memo.clear();
    return { formatted: formatYaml(text, { indent }), formattedPieces: 1 };
  }
  const name = siblingName(source);
  const pad = " ".repeat(pieces.column);
  const before = `${pad}${name}p: 0\n`;
  const after = `${pad}${name}n: 0\n`;
  const outPad = " ".repeat(Math.min(8, Math.max(1, Math.floor(indent) || 2)));
  const outBefore = `units:\n${outPad}${name}p: 0\n`;
  const outAfter = `${outPad}${name}n: 0\n`;
  const used: PieceMemo = new Map();
  const out: string[] = [];
  let formattedPieces = 0;
  for (let i = 0; i < pieces.bounds.length - 1; i++) {
    const body = source.slice(pieces.bounds[i], pieces.bounds[i + 1]);
    const first = i === 0;
    const last = i === pieces.bounds.length - 2;
    // the head ends with its `units:` line; every later piece starts at an entry's key
    const context = (first ? "" : `units:\n${before}`) + body + (last ? "" : after);
    const key = `${indent}\n${context}`;
    let result = used.get(key) ?? memo.get(key);
    if (result === undefined) {
      formattedPieces++;
      const formatted = formatYaml(context, { indent });
      const inner = formatted === undefined ? undefined : strip(formatted, first ? "" : outBefore, last ? "" : outAfter);
      if (inner === undefined) {
        // a piece that does not stand on its own: the whole text decides
        memo.clear();
        return { formatted: formatYaml(text, { indent }), formattedPieces: formattedPieces + 1 };
      }
      result = inner;
    }
    used.set(key, result);
    out.push(result);
  }
  memo.clear();
  for (const [k, v] of used) memo.set(k, v);
  const formatted = out.join("");
  return { formatted: crlf ? formatted.replace(/\n/g, "\r\n") : formatted, formattedPieces };
}

/** `text` without `prefix` and `suffix`, or undefined when it does not have them. */
function strip(text: string, prefix: string, suffix: string): string | undefined {
  if (!text.startsWith(prefix) || !text.endsWith(suffix) || text.length < prefix.length + suffix.length) return undefined;
  return text.slice(prefix.length, text.length - suffix.length);
}

/** A key prefix the text does not contain, for the made-up siblings. */
function siblingName(text: string): string {
  let n = 0;
  while (text.includes(`tsfmt${n}s`)) n++;
  return `tsfmt${n}s`;
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
 * too few units.
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
