/**
 * The terminals of the printer's grammar (format-relayout.ts): the keys and
 * the one-line values it knows exactly, as regular-expression sources, shared
 * with the re-spacing of flow collections (format-flow.ts) so the two agree on
 * what a key and a scalar are. Flow collections nest three deep here; deeper
 * ones are refused.
 */

/** A plain key (quoted, odd or very long keys are refused). */
export const KEY = String.raw`[A-Za-z0-9_][\w./-]{0,199}`;
/** What may start a plain scalar: no indicator (`-` only before a digit or letter). */
const PLAIN_START = String.raw`(?:[^\-?:,\[\]{}#&*!|>'"%@\x60 \n]|-[A-Za-z0-9])`;
/** A plain scalar in a block value: no `: `, no ` #`, no doubled or trailing space, no trailing colon. */
const BLOCK_PLAIN = String.raw`${PLAIN_START}(?:[^ :\n]|:(?=[^ \n])| (?=[^ #\n]))*`;
/** A plain scalar inside a flow collection: no flow indicator, colon, quote or `#`, no doubled or trailing space. */
export const FLOW_PLAIN = String.raw`${PLAIN_START}(?:[^,\[\]{}#:'" \n]| (?=[^,\[\]{}#:'" \n]))*`;
export const QUOTED = String.raw`(?:"(?:[^"\\\n]|\\[^\n])*"|'(?:[^'\n]|'')*')`;
/**
 * Flow collections as yaml prints them: `[a, b]`, `{ a: 1, b: 2 }`, `[]`, `{}`.
 * Each item is followed by its separator or, seen ahead, the closing bracket
 * (no item starts with one), so an item appears once per kind of collection
 * rather than twice as in `item(, item)*`: three levels of nesting multiply
 * that, and the size of the expression is what V8 pays to compile it on a
 * server's first format.
 */
const flowOf = (item: string) =>
  String.raw`(?:\[(?:${item}(?:, (?!\])|(?=\])))*\]|\{(?: ${KEY}: ${item}(?:,(?= [A-Za-z0-9_])| (?=\})))*\})`;
const FLOW_SCALAR = `(?:${FLOW_PLAIN}|${QUOTED})`;
const FLOW = flowOf(`(?:${FLOW_SCALAR}|${flowOf(`(?:${FLOW_SCALAR}|${flowOf(FLOW_SCALAR)})`)})`);
/** A value on one line as yaml prints it (whatever follows it is the caller's): a flow collection, a quoted or a plain scalar. */
export const VALUE = `(?:${FLOW}|${QUOTED}|${BLOCK_PLAIN})`;
