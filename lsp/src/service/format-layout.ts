/**
 * A proof, without the `yaml` library, that text is already in the layout
 * format-yaml.ts gives it, so formatting it changes nothing. The first Format
 * Document of a freshly opened contract spent its time in yaml's parse and
 * print of text that was formatted already (yaml's cost goes with the bytes it
 * reads); a contract as people and generators write it is mostly such text.
 *
 * It reads lines, not YAML: a narrow subset whose layout it knows exactly, and
 * anything else (tabs, CR, anchors, tags, quoted or unusual keys, comments
 * or blank lines where yaml might move them, spacing it does not expect) is a
 * refusal, and the caller formats with `yaml` as before. A
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
 *   entry at that entry's column; single blank lines between entries;
 * - block scalars (`|`, `>`, either with `-` or `+`) as values, with their
 *   content where format-yaml.ts puts it (below).
 *
 * A block scalar: format-yaml.ts keeps its header and its lines as written and
 * shifts the lines so that the least indented (the first, as YAML reads a
 * block's indentation from it) sits where the `yaml` library puts the value:
 * one step deeper than its key, two columns past a sequence dash. Blank lines
 * inside stay (empty: a line of spaces is refused). Blank lines after it are
 * read as blank lines between entries, so one at most: yaml keeps one before
 * the next entry and drops the rest (a kept block, `+`, keeps them all, but a
 * run of them is refused here as any other).
 * Refused: a header with an indentation indicator (`|2`, which yaml prints
 * from the value and may change) or a comment, a block with no content line,
 * and a first content line elsewhere than that column. The block ends at the
 * first non-blank line left of that column, as in YAML.
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
    BLOCK_HEADER.lastIndex = entry + at;
    if (BLOCK_HEADER.test(text)) {
      // `- |` (only in a sequence): its content two columns past the dash; `key: |` and `- key: |`: one step past the key
      const lone = text.charCodeAt(at + entry) === PIPE || text.charCodeAt(at + entry) === GT;
      if (lone && !seq) return false;
      const end = blockEnd(text, nl + 1, lone ? col + 2 : entry + step);
      if (end === -1) return false;
      if (seq && !lone) {
        cols.push(entry);
        seqs.push(false);
      }
      nl = end - 1;
      continue;
    }
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

/**
 * Where the block scalar whose content starts at `at` ends: the start of the
 * line after its last content line (blank lines after it are the caller's),
 * or -1 when refused. `col`: the column formatting gives its content.
 */
function blockEnd(text: string, at: number, col: number): number {
  let end = -1;
  let nl: number;
  for (; at < text.length; at = nl + 1) {
    nl = text.indexOf("\n", at);
    if (nl === at) continue;
    let indent = 0;
    while (text.charCodeAt(at + indent) === SPACE) indent++;
    // a line of spaces (yaml empties it), a trailing space, a first line elsewhere than `col` (yaml moves it): refused
    if (at + indent === nl || text.charCodeAt(nl - 1) === SPACE || (end === -1 && indent !== col)) return -1;
    if (indent < col) break;
    end = nl + 1;
  }
  return end;
}

const SPACE = 32;
const HASH = 35;
const DASH = 45;
const GT = 62;
const PIPE = 124;

/*
 * One regular expression per kind of line, tried where the line's content
 * starts (sticky) up to its end: one native match per line, not a walk in
 * JavaScript.
 */
/** A value, then the line's end or a comment one space after it. */
const LINE_VALUE = `${VALUE}(?: #.*)?$`;
const OPENER = new RegExp(`${KEY}:$`, "my");
/** A block scalar's header after `key: ` or alone (after a dash): no indentation indicator, no comment. */
const BLOCK_HEADER = new RegExp(`(?:${KEY}: )?[|>][-+]?$`, "my");
const ENTRY = new RegExp(`${KEY}: ${LINE_VALUE}`, "my");
const ITEM = new RegExp(LINE_VALUE, "my");
