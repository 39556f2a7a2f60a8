/** Prints an operator preview: what a decision would reuse, invalidate or undo. */
import type { operator } from "@taskspec/runtime";

type Preview = Awaited<ReturnType<typeof operator.previewRerun>>["preview"];

export function printPreview(p: Preview, recorded: boolean): void {
  const out: string[] = [`${recorded ? "decision" : "preview"}: ${p.action}`];
  out.push(`  reuses ${p.reuse.length} unit(s)${p.reuse.length ? `: ${p.reuse.join(" ")}` : ""}`);
  out.push(`  invalidates ${p.invalidate.length} unit(s)`);
  for (const i of p.invalidate) out.push(`    ${i.unit}: ${i.why}`);
  for (const u of p.undo ?? []) out.push(`  undoes ${u.effect}: ${u.intent} with ${u.compensator}${u.first ? ` (${u.first})` : ""}`);
  for (const c of p.cannotUndo ?? []) out.push(`  cannot undo ${c.effect}: ${c.intent}: ${c.why}`);
  for (const n of p.notes) out.push(`  ${n}`);
  if (!recorded) out.push("  (dry run: nothing recorded)");
  process.stdout.write(`${out.join("\n")}\n`);
}
