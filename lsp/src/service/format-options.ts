/**
 * The two rules every part of the formatter shares: how wide one level of
 * indentation is, and how to name a placeholder the text cannot contain.
 * Written once so the printer (format-relayout.ts), the `yaml` fallback
 * (format-yaml.ts) and the pieces (format-pieces.ts) never disagree on them.
 */

/** Spaces per level for the client's `tabSize`: 1 to 8, 2 when it is not a number. */
export function indentStep(tabSize: number): number {
  return Math.min(8, Math.max(1, Math.floor(tabSize) || 2));
}

/**
 * `tsfmt<n><kind>` for the smallest n the text does not contain, so a
 * placeholder or a made-up key never matches the author's words. `kind` keeps
 * the formatter's uses apart (a scalar's placeholder, a shape's hole, a
 * made-up sibling), since one text may need several at once.
 */
export function unusedName(text: string, kind: string): string {
  let n = 0;
  while (text.includes(`tsfmt${n}${kind}`)) n++;
  return `tsfmt${n}${kind}`;
}
