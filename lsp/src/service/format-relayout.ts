/**
 * Lays text out as format-yaml.ts would, without the `yaml` library, when
 * only whitespace that YAML reads as layout is to change: the indentation of
 * each level (any width in, the client's width out), the spaces after a
 * key's colon and after a sequence dash, the spaces before a trailing
 * comment, trailing spaces, runs of blank lines (one is kept), blank lines
 * at the end, the spaces inside a flow collection on one line
 * (format-flow.ts), and the indentation of a block scalar's content (`|`,
 * `>`, with `-` or `+`: every line moved by the same amount, the first to one
 * step past its key, as format-yaml.ts moves it; see blockLines). A
 * contract re-indented throughout (pasted, or written at another width)
 * otherwise costs a `yaml` parse and print per piece: 413 ms CPU at 2,000
 * units, where every other request answers in a few.
 *
 * Why the result is what formatting gives: every line keeps its content (key,
 * value, comment) character for character, and only separation changes. The
 * nesting is read from the columns as YAML reads block collections, in a
 * subset where that reading is unambiguous: a block is entered only right
 * after `key:` (deeper, or a sequence at the key's own column), and left only
 * to a column an open block has, so no line can be a continuation of a
 * scalar or anything but an entry of the block it lands in. Comment lines
 * must sit at the column of the entry below them (where yaml attaches them to
 * that entry), blank lines between entries. The values are those format-
 * layout.ts knows (format-tokens.ts). Anything else is refused and formats
 * through `yaml`. The result must then pass format-layout.ts's proof that it
 * is a fixed point of formatting, or it is refused too; lsp/test/format-
 * relayout.test.ts checks every result against format-yaml.ts on generated
 * and mutated layouts.
 */
import { alreadyFormatted } from "./format-layout.js";
import { respacedFlow } from "./format-flow.js";
import { KEY, VALUE } from "./format-tokens.js";

/** `text` laid out with `indent` spaces per level, or undefined when this reader cannot prove it. */
export function relaidOut(text: string, indent: number): string | undefined {
  const step = Math.min(8, Math.max(1, Math.floor(indent) || 2));
  if (text.includes("\r") || text.includes("\t")) return undefined;
  const out: string[] = [];
  /** Open blocks, innermost last. */
  const blocks: Block[] = [];
  /** After `key:`: the key's column in the text and in the output; its block must come next. */
  let opener: { col: number; out: number } | undefined;
  /** Blank and comment lines waiting for the entry below them, which decides the comments' column. */
  const waiting: (string | null)[] = [];
  let commentCol = -1;
  let nl: number;
  for (let at = 0; at < text.length; at = nl + 1) {
    nl = text.indexOf("\n", at);
    if (nl === -1) nl = text.length;
    let col = 0;
    while (text.charCodeAt(at + col) === SPACE) col++;
    if (at + col === nl) {
      // a blank line: none at the start or after `key:`, where yaml may place it otherwise; runs become one
      if ((blocks.length === 0 && waiting.length === 0) || opener) return undefined;
      if (waiting[waiting.length - 1] !== null) waiting.push(null);
      // but yaml keeps a run below a comment line as it is: left to yaml
      else if (commentCol !== -1) return undefined;
      continue;
    }
    if (text.charCodeAt(at + col) === HASH) {
      if (commentCol !== -1 && commentCol !== col) return undefined;
      commentCol = col;
      waiting.push(text.slice(at + col, nl));
      continue;
    }
    if (commentCol !== -1 && commentCol !== col) return undefined;
    commentCol = -1;
    const seq = text.charCodeAt(at + col) === DASH && text.charCodeAt(at + col + 1) === SPACE;
    if (opener) {
      // the block of `key:` starts deeper than the key, or at its column for a sequence
      if (col < opener.col || (col === opener.col && !seq)) return undefined;
      blocks.push({ col, out: opener.out + step, seq });
      opener = undefined;
    } else if (blocks.length === 0) {
      if (seq) return undefined; // the top level is a mapping (as format-layout.ts requires)
      blocks.push({ col, out: 0, seq });
    } else {
      let top = blocks[blocks.length - 1]!;
      // leave every deeper block, and a sequence at its key's column when the line is that key's sibling
      while (col < top.col || (col === top.col && top.seq && !seq && blocks[blocks.length - 2]?.col === col)) {
        blocks.pop();
        if (blocks.length === 0) return undefined;
        top = blocks[blocks.length - 1]!;
      }
      if (col !== top.col || seq !== top.seq) return undefined;
    }
    const block = blocks[blocks.length - 1]!;
    const pad = " ".repeat(block.out);
    for (const line of waiting) out.push(line === null ? "" : pad + line);
    waiting.length = 0;
    let entry = at + col;
    let head = pad;
    if (seq) {
      entry += 2;
      while (text.charCodeAt(entry) === SPACE) entry++;
      head += "- ";
    }
    BLOCK.lastIndex = entry;
    const b = BLOCK.exec(text);
    if (b) {
      // a block scalar: `key: |`, `- key: |`, or `- |` (only in a sequence)
      const [, key, header] = b;
      if (key === undefined && !seq) return undefined;
      out.push(head + (key === undefined ? "" : key + ": ") + header!);
      const keyOut = seq ? block.out + 2 : block.out;
      if (seq && key !== undefined) blocks.push({ col: entry - at, out: keyOut, seq: false });
      // its content is deeper than the key, or than a lone dash; formatting puts it one step past the key, two past the dash
      const end =
        key === undefined ? blockLines(text, nl + 1, col, block.out + 2, out) : blockLines(text, nl + 1, entry - at, keyOut + step, out);
      // a kept block's (`+`) blank lines after it are its content, which the blank-line rules below would change
      if (end === undefined || (header!.endsWith("+") && end < text.length && blankAt(text, end))) return undefined;
      nl = end - 1;
      continue;
    }
    ENTRY.lastIndex = entry;
    const m = ENTRY.exec(text) ?? respacedEntry(text, entry, false);
    if (m) {
      const [, key, value, comment] = m;
      // `key: # comment` is refused: yaml moves such a comment
      if (value === undefined && comment !== undefined) return undefined;
      out.push(head + key + ":" + (value === undefined ? "" : " " + value) + (comment === undefined ? "" : " " + comment));
      // `- key: value`: a mapping whose first entry sits on the dash's line, the rest at its column
      if (seq) blocks.push({ col: entry - at, out: block.out + 2, seq: false });
      if (value === undefined) opener = { col: entry - at, out: seq ? block.out + 2 : block.out };
      continue;
    }
    if (!seq) return undefined;
    ITEM.lastIndex = entry;
    const item = ITEM.exec(text) ?? respacedEntry(text, entry, true);
    if (!item) return undefined;
    out.push(head + item[1]! + (item[2] === undefined ? "" : " " + item[2]));
  }
  // a `key:` with nothing below it, or comments with no entry below them: refused (yaml places them otherwise)
  if (opener || commentCol !== -1) return undefined;
  // blank lines at the end go: formatting ends the text with one newline
  const laid = out.join("\n") + "\n";
  return alreadyFormatted(laid, step) ? laid : undefined;
}

/**
 * The content of the block scalar whose lines start at `at`, moved to `outCol`
 * onto `out` as format-yaml.ts moves it (every line by the same amount, the
 * first, least indented, to `outCol`; lines of spaces emptied), and where
 * the line after its last content line starts (blank lines after it are the
 * caller's); undefined when refused. YAML reads the block's indentation from
 * its first non-blank line, which must be deeper than `parentCol`, and ends
 * the block at the first non-blank line left of it. Refused: no content, a
 * line of spaces longer than that indentation (yaml keeps its spaces, or
 * finds an error), a content line ending in a space.
 */
function blockLines(text: string, at: number, parentCol: number, outCol: number, out: string[]): number | undefined {
  let srcCol = -1;
  let nl: number;
  for (let i = at; i < text.length && srcCol === -1; i = nl + 1) {
    nl = text.indexOf("\n", i);
    if (nl === -1) nl = text.length;
    let indent = 0;
    while (text.charCodeAt(i + indent) === SPACE) indent++;
    if (i + indent !== nl) srcCol = indent;
  }
  if (srcCol <= parentCol) return undefined;
  const pad = " ".repeat(outCol);
  let blanks = 0;
  let end = -1;
  for (; at < text.length; at = nl + 1) {
    nl = text.indexOf("\n", at);
    if (nl === -1) nl = text.length;
    let indent = 0;
    while (text.charCodeAt(at + indent) === SPACE) indent++;
    if (at + indent === nl) {
      if (indent > srcCol) return undefined;
      blanks++;
      continue;
    }
    if (indent < srcCol) break;
    if (text.charCodeAt(nl - 1) === SPACE) return undefined;
    for (; blanks > 0; blanks--) out.push("");
    out.push(pad + text.slice(at + srcCol, nl));
    end = nl + 1;
  }
  return end;
}

/** Whether the line starting at `at` is blank (empty or spaces only). */
function blankAt(text: string, at: number): boolean {
  while (text.charCodeAt(at) === SPACE) at++;
  return at >= text.length || text.charCodeAt(at) === NEWLINE;
}

/** A block collection: its entries' column in the text and in the output. */
interface Block {
  col: number;
  out: number;
  seq: boolean;
}

const NEWLINE = 10;
const SPACE = 32;
const HASH = 35;
const DASH = 45;

/*
 * Sticky, from where a line's entry starts to the line's end: the value and
 * the comment are captured as written; the spaces around them are dropped.
 * A comment keeps its trailing spaces (yaml keeps them); the check of the
 * result then refuses such a line.
 */
const TAIL = String.raw`(?: +(#.*))? *$`;
const ENTRY = new RegExp(`(${KEY}):(?: +(${VALUE}))?${TAIL}`, "my");
const ITEM = new RegExp(`(${VALUE})${TAIL}`, "my");
const KEY_COLON = new RegExp(`${KEY}:`, "y");
/** A block scalar's header, after `key:` or alone: no indentation indicator, no comment, no trailing space (yaml keeps those). */
const BLOCK = new RegExp(`(?:(${KEY}): +)?([|>][-+]?)$`, "my");
const REST = new RegExp(TAIL, "my");

/**
 * A line whose value is a flow collection yaml would re-space (`{a: 1}`,
 * `[ x ,y ]`: format-flow.ts), as ENTRY's captures (`item`: ITEM's), or
 * undefined when it is not one.
 */
function respacedEntry(text: string, entry: number, item: boolean): (string | undefined)[] | undefined {
  let at = entry;
  let key: string | undefined;
  if (!item) {
    KEY_COLON.lastIndex = entry;
    if (!KEY_COLON.test(text) || text.charCodeAt(KEY_COLON.lastIndex) !== SPACE) return undefined;
    key = text.slice(entry, KEY_COLON.lastIndex - 1);
    at = KEY_COLON.lastIndex;
    while (text.charCodeAt(at) === SPACE) at++;
  }
  const flow = respacedFlow(text, at);
  if (!flow) return undefined;
  REST.lastIndex = flow.end;
  const rest = REST.exec(text);
  if (!rest) return undefined;
  return item ? [undefined, flow.flow, rest[1]] : [undefined, key, flow.flow, rest[1]];
}
