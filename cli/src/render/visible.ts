/**
 * Text from a contract (a source line, a key quoted in a message, a file
 * name) made safe to print on a terminal: control characters are shown as
 * escapes (`\e`, `\a`, `\x00`), never sent raw. A raw ESC or BEL in a code
 * frame could set the terminal's title, clear the screen or print a fake
 * "0 errors" line. Bidirectional overrides are escaped too, so a line cannot
 * display in an order other than its bytes. Tabs are kept (code frames line
 * carets up under them).
 */

const NAMED: Record<string, string> = {
  "\u0000": "\\0",
  "\u0007": "\\a",
  "\b": "\\b",
  "\u001b": "\\e",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\v": "\\v",
};

// C0 controls but tab, DEL, C1 controls, line/paragraph separators, bidi embeddings, overrides and isolates
const UNSAFE = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/** `text` with every unsafe character written as a visible escape. */
export function visible(text: string): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE, (c) => NAMED[c] ?? escapeCode(c.charCodeAt(0)));
}

function escapeCode(code: number): string {
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** At most `max` characters of `text`; a longer one ends in `… (N more characters)`. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
