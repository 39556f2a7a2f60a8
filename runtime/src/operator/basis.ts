/**
 * What a preview was made for, so a decision confirmed on it can be checked:
 * a basis is the run's checkpoint version and a digest of everything the
 * preview shows. A decision recomputes its preview first; a different digest
 * means the person confirmed something the decision would no longer do, and
 * it is refused with what changed and the fresh preview, never applied.
 */
import { StalePreviewError } from "../errors.js";
import { canonicalJson, sha256 } from "../model/identity.js";
import type { Preview } from "./preview.js";

/** `v<checkpoint>-<16 hex>`: short enough to type after `--if-preview`. */
export type PreviewBasis = string;

export function basisOf(preview: Preview, runVersion: number): PreviewBasis {
  return `v${runVersion}-${sha256(canonicalJson(preview)).slice(0, 16)}`;
}

const BASIS_PATTERN = /^v(\d+)-([0-9a-f]{16})$/;

/** The checkpoint version a basis names, or undefined for text that is not a basis. */
export function basisVersion(basis: string): number | undefined {
  const m = BASIS_PATTERN.exec(basis);
  return m ? Number(m[1]) : undefined;
}

/** What differs between the preview a person saw and the fresh one, one line each (empty: nothing the preview shows). */
export function previewChanges(seen: Preview, fresh: Preview): string[] {
  const out: string[] = [];
  const sets: Array<[string, string[], string[]]> = [
    ["reuses", seen.reuse, fresh.reuse],
    ["invalidates", seen.invalidate.map((i) => i.unit), fresh.invalidate.map((i) => i.unit)],
    ["undoes", (seen.undo ?? []).map((u) => u.effect), (fresh.undo ?? []).map((u) => u.effect)],
    ["cannot undo", (seen.cannotUndo ?? []).map((c) => c.effect), (fresh.cannotUndo ?? []).map((c) => c.effect)],
  ];
  for (const [what, before, after] of sets) {
    const was = new Set(before);
    const now = new Set(after);
    const added = after.filter((x) => !was.has(x));
    const gone = before.filter((x) => !now.has(x));
    if (added.length) out.push(`${what} now also ${added.join(" ")}`);
    if (gone.length) out.push(`${what} no longer ${gone.join(" ")}`);
  }
  const whyBefore = new Map(seen.invalidate.map((i) => [i.unit, i.why]));
  for (const i of fresh.invalidate) {
    const was = whyBefore.get(i.unit);
    if (was !== undefined && was !== i.why) out.push(`${i.unit}: ${was} -> ${i.why}`);
  }
  const seenNotes = new Set(seen.notes);
  for (const n of fresh.notes) if (!seenNotes.has(n)) out.push(`now: ${n}`);
  const freshNotes = new Set(fresh.notes);
  for (const n of seen.notes) if (!freshNotes.has(n)) out.push(`no longer: ${n}`);
  if (canonicalJson(seen.prepared ?? null) !== canonicalJson(fresh.prepared ?? null)) out.push("the prepared request differs");
  return out;
}

/**
 * Refuses a decision whose preview is stale: `expected` is the basis the
 * person confirmed (and, when the caller has it, the preview they saw, for
 * the list of changes). Passes when there is nothing to check against.
 */
export function checkBasis(
  action: string,
  expected: { basis: PreviewBasis; seen?: Preview } | undefined,
  fresh: Preview,
  runVersion: number,
): void {
  if (!expected) return;
  const now = basisOf(fresh, runVersion);
  if (expected.basis === now) return;
  const then = basisVersion(expected.basis);
  if (then === undefined)
    throw new StalePreviewError(
      `${action} refused: ${JSON.stringify(expected.basis)} is not a preview basis (v<checkpoint>-<16 hex>, as --dry-run prints it); nothing was changed`,
      [],
      fresh,
    );
  const changed = [
    ...(then !== runVersion ? [`checkpoint v${then} -> v${runVersion}`] : []),
    ...(expected.seen ? previewChanges(expected.seen, fresh) : []),
  ];
  if (changed.length === 0) changed.push("the run changed in what this decision would do");
  throw new StalePreviewError(
    `${action} refused: the run changed since its preview (${expected.basis}, now ${now}): ${changed.join("; ")}; nothing was changed: look at the fresh preview and decide again`,
    changed,
    fresh,
  );
}
