/**
 * A proof, without the `yaml` library, that text is already in the layout
 * format-yaml.ts gives it, so formatting it changes nothing. The first Format
 * Document of a freshly opened contract spent its time in yaml's parse and
 * print of text that was formatted already (yaml's cost goes with the bytes it
 * reads); a contract as people and generators write it is mostly such text.
 *
 * It reads lines, not YAML: a narrow subset whose layout it knows exactly, and
 * anything else (tabs, CR, block scalars, anchors, tags, quoted or unusual
 * keys, comments or blank lines where yaml might move them, spacing it does
 * not expect) is a refusal, and the caller formats with `yaml` as before. A
 * wrong "yes" could only keep a layout unformatted, never change what the text
 * means (the text is left as it is), and lsp/test/format.test.ts checks every
 * "yes" against format-yaml.ts on generated layouts.
 *
 * The subset, at `indent` spaces per level:
 * - a block mapping of `key: value` and `key:` (whose block follows one level
 *   deeper) lines, at the top level and nested; a block sequence of `- value`
 *   and `- key: value` items one level below its key, the item's mapping at
 *   the dash's column plus two;
 * - values: plain scalars, single-line quoted scalars, and single-line flow
 *   collections written `{ a: 1, b: [x, y] }` (`{}` and `[]` when empty);
 * - a trailing comment one space after a value; comment lines right above an
 *   entry at that entry's column; single blank lines between entries.
 */
import { KEY, VALUE } from "./format-tokens.js";

/** True only when formatting `text` with `indent` spaces per level gives back `text` itself. */
export function alreadyFormatted(text: string, indent: number): boolean {
  const step = Math.min(8, Math.max(1, Math.floor(indent) || 2));
  if (!text.endsWith("\n") || text.endsWith("\n\n") || text.includes("\r") || text.includes("\t")) return false;
  /** Open blocks, innermost last: the column of their entries and whether they are a sequence. */
  const cols: number[] = [0];
  const seqs: boolean[] = [false];
  /** After `key:`: the column its block must start at. */
  let child = -1;
  /** Comment lines above the next entry: their column. */
  let comment = -1;
  let blank = false;
  let nl: number;
  for (let at = 0; at < text.length; at = nl + 1) {
    nl = text.indexOf("\n", at);
    if (nl === at) {
      // one blank line between entries or after comment lines; none after a `key:`, where yaml may place it otherwise
      if (at === 0 || blank || child !== -1) return false;
      blank = true;
      continue;
    }
    blank = false;
    let col = 0;
    while (text.charCodeAt(at + col) === SPACE) col++;
    if (at + col === nl || text.charCodeAt(nl - 1) === SPACE) return false;
    if (text.charCodeAt(at + col) === HASH) {
      if ((child !== -1 && col !== child) || (comment !== -1 && comment !== col)) return false;
      comment = col;
      continue;
    }
    if (comment !== -1 && comment !== col) return false;
    comment = -1;
    const seq = text.charCodeAt(at + col) === DASH && text.charCodeAt(at + col + 1) === SPACE;
    if (child !== -1) {
      if (col !== child) return false;
      cols.push(col);
      seqs.push(seq);
      child = -1;
    } else {
      while (cols.length > 0 && col < cols[cols.length - 1]!) {
        cols.pop();
        seqs.pop();
      }
      if (cols.length === 0 || col !== cols[cols.length - 1] || seq !== seqs[seqs.length - 1]) return false;
    }
    const entry = seq ? col + 2 : col;
    OPENER.lastIndex = entry + at;
    const opener = OPENER.test(text);
    if (!opener) {
      ENTRY.lastIndex = entry + at;
      if (!ENTRY.test(text)) {
        if (!seq) return false;
        // `- value`
        ITEM.lastIndex = entry + at;
        if (!ITEM.test(text)) return false;
        continue;
      }
    }
    // `- key: value`: a mapping whose first entry sits on the dash's line, the rest at its column
    if (seq) {
      cols.push(entry);
      seqs.push(false);
    }
    if (opener) child = entry + step;
  }
  return child === -1 && comment === -1;
}

const SPACE = 32;
const HASH = 35;
const DASH = 45;

/*
 * One regular expression per kind of line, tried where the line's content
 * starts (sticky) up to its end: one native match per line, not a walk in
 * JavaScript.
 */
/** A value, then the line's end or a comment one space after it. */
const LINE_VALUE = `${VALUE}(?: #.*)?$`;
const OPENER = new RegExp(`${KEY}:$`, "my");
const ENTRY = new RegExp(`${KEY}: ${LINE_VALUE}`, "my");
const ITEM = new RegExp(LINE_VALUE, "my");
