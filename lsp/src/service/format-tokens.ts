/**
 * The pieces of a line that formatting's own readers (format-layout.ts, which
 * proves text already laid out, and format-relayout.ts, which lays text out)
 * know exactly, as regular-expression sources: both must agree on what a key
 * and a value are, or a piece re-laid by one would be refused by the other.
 * Flow collections nest three deep here; deeper ones are refused.
 */

/** A plain key (quoted, odd or very long keys are refused). */
export const KEY = String.raw`[A-Za-z0-9_][\w./-]{0,199}`;
/** What may start a plain scalar: no indicator (`-` only before a digit or letter). */
const PLAIN_START = String.raw`(?:[^\-?:,\[\]{}#&*!|>'"%@\x60 \n]|-[A-Za-z0-9])`;
/** A plain scalar in a block value: no `: `, no ` #`, no doubled or trailing space, no trailing colon. */
const BLOCK_PLAIN = String.raw`${PLAIN_START}(?:[^ :\n]|:(?=[^ \n])| (?=[^ #\n]))*`;
/** A plain scalar inside a flow collection: no flow indicator, colon, quote or `#`, no doubled or trailing space. */
const FLOW_PLAIN = String.raw`${PLAIN_START}(?:[^,\[\]{}#:'" \n]| (?=[^,\[\]{}#:'" \n]))*`;
const QUOTED = String.raw`(?:"(?:[^"\\\n]|\\[^\n])*"|'(?:[^'\n]|'')*')`;
/** Flow collections as yaml prints them: `[a, b]`, `{ a: 1, b: 2 }`, `[]`, `{}`. */
const flowOf = (item: string) => String.raw`(?:\[(?:${item}(?:, ${item})*)?\]|\{(?: ${KEY}: ${item}(?:, ${KEY}: ${item})* )?\})`;
const FLOW_SCALAR = `(?:${FLOW_PLAIN}|${QUOTED})`;
const FLOW = flowOf(`(?:${FLOW_SCALAR}|${flowOf(`(?:${FLOW_SCALAR}|${flowOf(FLOW_SCALAR)})`)})`);
/** A value on one line as yaml prints it (whatever follows it is the caller's): a flow collection, a quoted or a plain scalar. */
export const VALUE = `(?:${FLOW}|${QUOTED}|${BLOCK_PLAIN})`;
