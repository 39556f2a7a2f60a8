/** Prints an operator preview: what a decision would reuse, invalidate or undo. */
import type { operator } from "@taskspec/runtime";

type Preview = Awaited<ReturnType<typeof operator.previewRerun>>["preview"];

export function printPreview(p: Preview, recorded: boolean, bind?: { scope: string; expiresAt?: string }): void {
  const out: string[] = [`${recorded ? "decision" : "preview"}: ${p.action}`];
  out.push(`  reuses ${p.reuse.length} unit(s)${p.reuse.length ? `: ${p.reuse.join(" ")}` : ""}`);
  out.push(`  invalidates ${p.invalidate.length} unit(s)`);
  for (const i of p.invalidate) out.push(`    ${i.unit}: ${i.why}`);
  for (const u of p.undo ?? []) out.push(`  undoes ${u.effect}: ${u.intent} with ${u.compensator}${u.first ? ` (${u.first})` : ""}`);
  for (const c of p.cannotUndo ?? []) out.push(`  cannot undo ${c.effect}: ${c.intent}: ${c.why}`);
  if (p.prepared) out.push(...renderPrepared(p.prepared, "  ", { scope: bind?.scope ?? "unit", expiresAt: bind?.expiresAt }));
  for (const n of p.notes) out.push(`  ${n}`);
  if (!recorded) out.push("  (dry run: nothing recorded)");
  process.stdout.write(`${out.join("\n")}\n`);
}

type Prepared = NonNullable<Preview["prepared"]>;

/**
 * A request prepared at a gate: exactly what will be sent (tool, arguments,
 * key, request hash) and what an approval of it binds (the gate unit's
 * input and need digests, the plan version; with `bind`, scope and expiry).
 */
export function renderPrepared(p: Prepared, indent: string, bind?: { scope: string; expiresAt?: string | undefined }): string[] {
  const out = [`${indent}will send: ${p.tool} (effect ${p.effect}, prepared ${p.preparedAt})`];
  for (const [name, value] of Object.entries(p.args)) out.push(`${indent}  ${name}: ${JSON.stringify(value)}`);
  if (p.masked?.length) out.push(`${indent}  (redacted for display: ${p.masked.join(", ")}; the request hash covers the exact values)`);
  out.push(`${indent}  key: ${p.key ?? "none"}`);
  out.push(`${indent}  request sha256: ${p.requestHash}`);
  out.push(
    `${indent}bound to: plan ${p.planVersion}${bind ? `, scope ${bind.scope}${bind.expiresAt ? `, expires ${bind.expiresAt}` : ""}` : ""}` +
      (p.renderedUnder !== p.planVersion ? ` (rendered under plan ${p.renderedUnder}: the call renders it again)` : ""),
  );
  for (const [name, d] of Object.entries(p.inputs)) out.push(`${indent}  input ${name}: sha256:${d}`);
  for (const [name, d] of Object.entries(p.needs)) out.push(`${indent}  need ${name}: sha256:${d}`);
  out.push(`${indent}  inputs digest sha256:${p.inputsDigest} · needs digest sha256:${p.needsDigest}`);
  for (const c of p.changed ?? []) out.push(`${indent}changed since the last approval or prepared request: ${c}`);
  if (p.approvedBy)
    out.push(`${indent}approved: ${p.approvedBy.id} by ${p.approvedBy.by}, until ${p.approvedBy.expiresAt} (resume to send)`);
  return out;
}
