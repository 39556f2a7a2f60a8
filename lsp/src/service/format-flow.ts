/**
 * A flow collection on one line, re-spaced as yaml prints it: `[a, b]`,
 * `{ a: 1, b: [x] }`, `[]`, `{}`. Hand-written contracts often have `{a: 1}`
 * or `[ a , b ]`, and the printer (format-relayout.ts) would otherwise
 * leave such a line, and its whole piece, to the `yaml` library.
 *
 * Only the spaces around the flow indicators (`[ ] { } ,` and a map key's
 * `: `) change; they are separation in YAML's flow context. Every key and
 * scalar is kept as written and must be one format-tokens.ts knows (a plain
 * key; a plain scalar without flow indicators, `:` or `#`; a quoted scalar on
 * the line). Anything else, which yaml might read or print otherwise (a key
 * without `: `, `a:b`, an empty entry, a trailing comma, a comment, nesting
 * past three levels), is refused.
 */
import { FLOW_PLAIN, KEY, QUOTED } from "./format-tokens.js";

/** The collection starting at `at` (`[` or `{`), re-spaced, and where it ends in `text`; undefined when refused. */
export function respacedFlow(text: string, at: number, depth = 1): { flow: string; end: number } | undefined {
  const open = text.charCodeAt(at);
  if ((open !== BRACKET && open !== BRACE) || depth > MAX_DEPTH) return undefined;
  const map = open === BRACE;
  const close = map ? CLOSE_BRACE : CLOSE_BRACKET;
  const items: string[] = [];
  let pos = skipSpaces(text, at + 1);
  if (text.charCodeAt(pos) === close) return { flow: map ? "{}" : "[]", end: pos + 1 };
  for (;;) {
    let key = "";
    if (map) {
      // `key: ` with the colon right after the key and a space after it (`a:b` is one plain scalar in flow)
      KEY_AT.lastIndex = pos;
      if (!KEY_AT.test(text) || text.charCodeAt(KEY_AT.lastIndex) !== COLON || text.charCodeAt(KEY_AT.lastIndex + 1) !== SPACE)
        return undefined;
      key = text.slice(pos, KEY_AT.lastIndex) + ": ";
      pos = skipSpaces(text, KEY_AT.lastIndex + 2);
    }
    const c = text.charCodeAt(pos);
    let value: string;
    if (c === BRACKET || c === BRACE) {
      const inner = respacedFlow(text, pos, depth + 1);
      if (!inner) return undefined;
      value = inner.flow;
      pos = inner.end;
    } else {
      SCALAR_AT.lastIndex = pos;
      if (!SCALAR_AT.test(text)) return undefined;
      value = text.slice(pos, SCALAR_AT.lastIndex);
      pos = SCALAR_AT.lastIndex;
    }
    items.push(key + value);
    pos = skipSpaces(text, pos);
    const next = text.charCodeAt(pos);
    if (next === close) break;
    if (next !== COMMA) return undefined;
    pos = skipSpaces(text, pos + 1);
    // a trailing comma or an empty entry: refused
    if (text.charCodeAt(pos) === close || text.charCodeAt(pos) === COMMA) return undefined;
  }
  const body = items.join(", ");
  return { flow: map ? `{ ${body} }` : `[${body}]`, end: pos + 1 };
}

/** Nesting as deep as format-tokens.ts's flow expression reads. */
const MAX_DEPTH = 3;

function skipSpaces(text: string, at: number): number {
  while (text.charCodeAt(at) === SPACE) at++;
  return at;
}

const SPACE = 32;
const COMMA = 44;
const COLON = 58;
const BRACKET = 91;
const CLOSE_BRACKET = 93;
const BRACE = 123;
const CLOSE_BRACE = 125;
const KEY_AT = new RegExp(KEY, "y");
const SCALAR_AT = new RegExp(`${FLOW_PLAIN}|${QUOTED}`, "y");
