/**
 * The formatter's printer: text in the subset of YAML below, laid out as
 * format-yaml.ts lays it out, without the `yaml` library. Everything else is
 * refused (undefined) and formatted by format-yaml.ts, which is also the
 * oracle this printer is property-tested against (lsp/test/format-print.test.ts,
 * format-relayout.test.ts). Text is formatted already exactly when printing it
 * gives it back (format-layout.ts).
 *
 * The subset, read line by line (LF line ends; no tab, no CR), `c` a column:
 *
 *   text      := mapping(c) blank*                no blank line before its first line
 *   mapping(c):= (comments(c) entry(c))+          each entry at column c
 *   seq(c)    := (comments(c) item(c))+           each `-` at column c
 *   entry(c)  := KEY ":" sp VALUE tail
 *              | KEY ":" sp HEADER NL content(> c)
 *              | KEY ":" sp* NL (mapping(d) | seq(d)), d > c, or seq(c)
 *   item(c)   := "-" sp (VALUE tail | HEADER NL content(> c) | entry(d) mapping(d)?)
 *                where d is the column of that first key
 *   tail      := (sp "#" any*)? " "*               a comment ends in no space
 *   comments(c):= (blank | " "* "#" any* at column c)*
 *   content(>c):= the lines of a block scalar: the first non-blank one deeper
 *                than c sets its column; it ends at the first non-blank line
 *                left of that column
 *   sp        := " "+
 *
 * KEY, VALUE (a flow collection three deep at most, a quoted scalar on one
 * line, a plain scalar on one line) are format-tokens.ts's; a flow collection
 * is re-spaced by format-flow.ts. HEADER is `|` or `>` with an optional `-` or
 * `+` (no indentation indicator, no comment).
 *
 * Why a line reader of its own, and not the compiler's block-YAML scanner
 * (compiler/src/parse/block-yaml.ts): the scanner gives values and their
 * offsets; printing needs what it throws away (the columns of comment lines,
 * where blank lines are, the spaces around colons and dashes), and reads
 * text it does not have to print again (multi-line scalars).
 *
 * The layout printed: each block one step (the client's width) deeper than
 * its key, a sequence one step below its key, a sequence item's mapping two
 * columns past the dash; one space after `:`, after `-` and before a trailing
 * comment; no trailing spaces; a run of blank lines as one, none at the start
 * of a block after `key:` or at the end of the text; one newline at the end;
 * a flow collection spaced `{ a: 1 }` and `[a, b]`; a block scalar's lines
 * moved by one amount, so that its first line sits one step past its key (two
 * columns past a lone dash), as format-yaml.ts moves them (blockLines).
 *
 * Why that is what format-yaml.ts gives: every line keeps its content (key,
 * value, comment) character for character and only separation changes. The
 * nesting is read from the columns as YAML reads block collections, in a
 * subset where that reading is unambiguous: a block is entered only right
 * after `key:` (deeper, or a sequence at the key's own column) and left only
 * to a column an open block has, so no line can be a continuation of a
 * scalar or anything but an entry of the block it lands in. Comment lines sit
 * at the column of the entry below them, where yaml attaches them to it.
 *
 * Refused, because yaml places or keeps them otherwise: a blank line at the
 * start or right after `key:`; a comment after `key:` on its line, at the end
 * of the text, or with a blank run below it (yaml keeps the run); a comment
 * ending in spaces (yaml keeps them); a `key:` with nothing below it; a
 * sequence at the top level; a block scalar without content, with a content
 * line ending in a space, or with a line of spaces longer than its
 * indentation (yaml keeps those spaces). The blank lines after a kept block
 * (`+`) are its content, not separation: such a block is printed only where
 * nothing moves (its lines at their column already, one blank line after it
 * and an entry below), where the blank-line rule above prints them as they
 * are; anything else about them is left to yaml.
 *
 * A line already in its printed form is taken as it stands (Lines), so text
 * formatted already is read, not rebuilt: that is the usual text, and its
 * answer is the text itself.
 */
import { respacedFlow } from "./format-flow.js";
import { indentStep } from "./format-options.js";
import { KEY, VALUE } from "./format-tokens.js";

/** `text` laid out with `indent` spaces per level, or undefined when it is outside the printer's subset. */
export function relaidOut(text: string, indent: number): string | undefined {
  const step = indentStep(indent);
  if (text.includes("\r") || text.includes("\t")) return undefined;
  const out = new Lines(text);
  /** Open blocks, innermost last. */
  const blocks: Block[] = [];
  /** After `key:`: the key's column in the text and in the output; its block must come next. */
  let opener: { col: number; out: number } | undefined;
  /** Blank and comment lines waiting for the entry below them, which decides the comments' column. */
  const waiting: Waiting[] = [];
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
      const last = waiting[waiting.length - 1];
      if (last === undefined || last.from !== last.end) waiting.push({ line: at, from: nl, end: nl });
      // but yaml keeps a run below a comment line as it is
      else if (commentCol !== -1) return undefined;
      continue;
    }
    if (text.charCodeAt(at + col) === HASH) {
      if ((commentCol !== -1 && commentCol !== col) || text.charCodeAt(nl - 1) === SPACE) return undefined;
      commentCol = col;
      waiting.push({ line: at, from: at + col, end: nl });
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
      if (seq) return undefined; // the top level is a mapping
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
    // most lines have nothing waiting; skipping the loop's setup matters on a cold first format (see below)
    if (waiting.length > 0) {
      for (const w of waiting) {
        if (w.from === w.end) out.blank(w.line, w.end);
        else if (w.from - w.line === block.out) out.keep(w.line, w.end);
        else out.put(" ".repeat(block.out) + text.slice(w.from, w.end));
      }
      waiting.length = 0;
    }
    let entry = at + col;
    if (seq) {
      entry += 2;
      while (text.charCodeAt(entry) === SPACE) entry++;
    }
    /** Where the line's entry sits in the output. */
    const entryOut = seq ? block.out + 2 : block.out;
    // only a line ending in a header can be one: the match is not tried on the others
    const b = endsInHeader(text, nl) ? ((BLOCK.lastIndex = entry), BLOCK.exec(text)) : null;
    if (b) {
      // a block scalar: `key: |`, `- key: |`, or `- |` (only in a sequence)
      // indexed, not destructured: destructuring runs the iterator protocol, which the first format
      // pays per line before V8 optimizes this loop (bench/RESULTS.md, "The formatter as one printer")
      const key = b[1];
      const header = b[2]!;
      if (key === undefined && !seq) return undefined;
      // printed as it stands when at its column, one space after its dash and its colon
      if (col === block.out && (!seq || entry === at + col + 2) && b[0].length === (key === undefined ? 0 : key.length + 2) + header.length)
        out.keep(at, nl);
      else out.put(" ".repeat(block.out) + (seq ? "- " : "") + (key === undefined ? "" : key + ": ") + header);
      if (seq && key !== undefined) blocks.push({ col: entry - at, out: entryOut, seq: false });
      // its content is deeper than the key, or than a lone dash; formatting puts it one step past the key, two past the dash
      const lines =
        key === undefined ? blockLines(text, nl + 1, col, block.out + 2, out) : blockLines(text, nl + 1, entry - at, entryOut + step, out);
      if (lines === undefined || (header.endsWith("+") && !keptBlankPrinted(text, lines))) return undefined;
      nl = lines.end - 1;
      continue;
    }
    // a line in its printed form already: one space after a dash, every separation as printed
    if (col === block.out && (!seq || entry === at + col + 2) && text.charCodeAt(nl - 1) !== SPACE) {
      PRINTED_ENTRY.lastIndex = entry;
      if (PRINTED_ENTRY.test(text)) {
        out.keep(at, nl);
        // `- key: value`: a mapping whose first entry sits on the dash's line, the rest at its column
        if (seq) blocks.push({ col: entry - at, out: entryOut, seq: false });
        OPENER.lastIndex = entry;
        if (text.charCodeAt(nl - 1) === COLON && OPENER.test(text)) opener = { col: entry - at, out: entryOut };
        else nl = printedRun(text, nl, blocks[blocks.length - 1]!, out);
        continue;
      }
      PRINTED_ITEM.lastIndex = entry;
      if (seq && PRINTED_ITEM.test(text)) {
        out.keep(at, nl);
        continue;
      }
    }
    const head = " ".repeat(block.out) + (seq ? "- " : "");
    ENTRY.lastIndex = entry;
    const m = ENTRY.exec(text) ?? respacedEntry(text, entry, false);
    if (m) {
      const [, key, value, comment] = m;
      // `key: # comment`: yaml moves such a comment
      if ((value === undefined && comment !== undefined) || comment?.endsWith(" ")) return undefined;
      out.put(head + key + ":" + (value === undefined ? "" : " " + value) + (comment === undefined ? "" : " " + comment));
      if (seq) blocks.push({ col: entry - at, out: entryOut, seq: false });
      if (value === undefined) opener = { col: entry - at, out: entryOut };
      continue;
    }
    if (!seq) return undefined;
    ITEM.lastIndex = entry;
    const item = ITEM.exec(text) ?? respacedEntry(text, entry, true);
    if (!item || item[2]?.endsWith(" ")) return undefined;
    out.put(head + item[1]! + (item[2] === undefined ? "" : " " + item[2]));
  }
  // no entry at all, a `key:` with nothing below it, or comments with no entry below them: yaml places them otherwise
  if (blocks.length === 0 || opener || commentCol !== -1) return undefined;
  // blank lines at the end go: formatting ends the text with one newline
  return out.text();
}

/**
 * The printed lines, each followed by a line end. While they are the text's
 * own lines, in order, only how far they reach is kept, and the answer is the
 * text itself (or its start): nothing is copied for text printed as it stands.
 */
class Lines {
  private readonly parts: string[] = [];
  /** While the output is the text's start: the end of that start (past its last line end); -1 once it differs. */
  private reach = 0;
  constructor(private readonly source: string) {}

  /** The source line [start, end) (its line end excluded), printed as it stands. */
  keep(start: number, end: number): void {
    if (this.reach === start) this.reach = end + 1;
    else this.put(this.source.slice(start, end));
  }

  /** A blank line, printed empty: the source line [start, end) is kept when it is empty already. */
  blank(start: number, end: number): void {
    if (start === end) this.keep(start, end);
    else this.put("");
  }

  put(line: string): void {
    if (this.reach >= 0) {
      if (this.reach > 0) this.parts.push(this.source.slice(0, this.reach - 1));
      this.reach = -1;
    }
    this.parts.push(line);
  }

  text(): string {
    if (this.reach < 0) return this.parts.join("\n") + "\n";
    // the whole source, the source and the line end it lacked, or its start (blank lines at its end left out)
    if (this.reach === this.source.length) return this.source;
    return this.reach > this.source.length ? this.source + "\n" : this.source.slice(0, this.reach);
  }
}

/**
 * After a printed `key: value` line: the lines below it that are printed
 * `key: value` lines of the same block (at its column, which is its printed
 * one), taken as they stand in one match; gives the end of the last line
 * taken (`nl` when none). Each is what the loop would keep line by line
 * (PRINTED_ENTRY with a value, no trailing space, so it opens nothing, and at
 * the block's column with nothing waiting), so the loop is spared the lines
 * formatted text is mostly made of (bench/RESULTS.md, "The printer's first
 * format, cold").
 */
function printedRun(text: string, nl: number, block: Block, out: Lines): number {
  if (block.seq || block.col !== block.out) return nl;
  const next = nl + 1;
  let col = 0;
  while (text.charCodeAt(next + col) === SPACE) col++;
  if (col !== block.col) return nl;
  PRINTED_RUN.lastIndex = next;
  if (!PRINTED_RUN.test(text)) return nl;
  out.keep(next, PRINTED_RUN.lastIndex - 1);
  return PRINTED_RUN.lastIndex - 1;
}

/** Whether the line ending at `nl` ends as a block scalar's header does (`|`, `>`, either with `-` or `+`). */
function endsInHeader(text: string, nl: number): boolean {
  let last = text.charCodeAt(nl - 1);
  if (last === DASH || last === PLUS) last = text.charCodeAt(nl - 2);
  return last === PIPE || last === GT;
}

/** A blank line (`from === end`) or a comment line waiting for its entry: its start, its content's start and its end. */
interface Waiting {
  line: number;
  from: number;
  end: number;
}

/** Where a block scalar's content lines end, and whether they moved. */
interface BlockLines {
  /** The start of the line after its last content line (blank lines after it are the caller's). */
  end: number;
  moved: boolean;
}

/**
 * The content of the block scalar whose lines start at `at`, moved to `outCol`
 * onto `out` as format-yaml.ts moves it (every line by the same amount, the
 * first, least indented, to `outCol`; lines of spaces emptied), and where it
 * ends; undefined when refused. YAML reads the block's indentation from its
 * first non-blank line, which must be deeper than `parentCol`, and ends the
 * block at the first non-blank line left of it. Refused: no content, a line of spaces longer
 * than that indentation (yaml keeps its spaces, or finds an error), a content
 * line ending in a space.
 */
function blockLines(text: string, at: number, parentCol: number, outCol: number, out: Lines): BlockLines | undefined {
  const start = at;
  /** The column of the first non-blank line, which YAML reads the block's indentation from. */
  let srcCol = -1;
  let end = -1;
  /** A line of spaces inside the block (which formatting empties), and one since the last content line. */
  let spaced = false;
  let spacedSince = false;
  /** The longest line of spaces before the first content line. */
  let leading = 0;
  let nl: number;
  for (; at < text.length; at = nl + 1) {
    nl = text.indexOf("\n", at);
    if (nl === -1) nl = text.length;
    let indent = 0;
    while (text.charCodeAt(at + indent) === SPACE) indent++;
    if (at + indent === nl) {
      if (srcCol === -1) leading = Math.max(leading, indent);
      else if (indent > srcCol) return undefined;
      if (indent > 0) spacedSince = true;
      continue;
    }
    if (srcCol === -1) {
      if (indent <= parentCol || leading > indent) return undefined;
      srcCol = indent;
    }
    if (indent < srcCol) break;
    if (text.charCodeAt(nl - 1) === SPACE) return undefined;
    spaced ||= spacedSince;
    spacedSince = false;
    end = nl + 1;
  }
  if (end === -1) return undefined;
  const moved = spaced || srcCol !== outCol;
  // lines that stay as they stand are taken at once; else every line moves by the same amount
  if (!moved) out.keep(start, end - 1);
  else {
    const pad = " ".repeat(outCol);
    for (at = start; at < end; at = nl + 1) {
      nl = text.indexOf("\n", at);
      if (nl === -1) nl = text.length;
      let indent = 0;
      while (text.charCodeAt(at + indent) === SPACE) indent++;
      if (at + indent === nl) out.blank(at, nl);
      else out.put(pad + text.slice(at + srcCol, nl));
    }
  }
  return { end, moved };
}

/**
 * Whether the blank lines after a kept block (its content) come out as they
 * are: none, or one with an entry or comment below it and nothing moved.
 */
function keptBlankPrinted(text: string, lines: BlockLines): boolean {
  if (lines.end >= text.length || !blankAt(text, lines.end)) return true;
  if (lines.moved || text.charCodeAt(lines.end) !== NEWLINE) return false;
  const next = lines.end + 1;
  return next < text.length && !blankAt(text, next);
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
const COLON = 58;
const PLUS = 43;
const GT = 62;
const PIPE = 124;

/*
 * Sticky, from where a line's entry starts to the line's end: the value and
 * the comment are captured as written; the spaces around them are dropped.
 */
const TAIL = String.raw`(?: +(#.*))? *$`;
const ENTRY = new RegExp(`(${KEY}):(?: +(${VALUE}))?${TAIL}`, "my");
const ITEM = new RegExp(`(${VALUE})${TAIL}`, "my");
const KEY_COLON = new RegExp(`${KEY}:`, "y");
/** A block scalar's header, after `key:` or alone: no indentation indicator, no comment, no trailing space (yaml keeps those). */
const BLOCK = new RegExp(`(?:(${KEY}): +)?([|>][-+]?)$`, "my");
const REST = new RegExp(TAIL, "my");
/*
 * The same lines in their printed form (one space after the colon and before
 * a comment), tested without captures: such a line is printed as it stands.
 */
const PRINTED_ENTRY = new RegExp(`${KEY}:(?: ${VALUE}(?: #.*)?)?$`, "my");
const PRINTED_ITEM = new RegExp(`${VALUE}(?: #.*)?$`, "my");
const OPENER = new RegExp(`${KEY}:$`, "my");
/**
 * One or more whole lines, each a PRINTED_ENTRY with a value and no trailing
 * space, all at the first one's indentation (the lookahead's capture).
 */
const PRINTED_RUN = new RegExp(String.raw`(?=( *))(?:\1${KEY}: ${VALUE}(?: #(?:.*[^ \n])?)?\n)+`, "y");

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
