/**
 * C034: an irreversible tool is never retried blindly and its UNKNOWN blocks
 * for a person, so every unit that uses one must declare an approval gate
 * where the work is (`approval:` on the unit).
 */
import type { CheckContext } from "./context.js";
import { insertFirstKey } from "./fixes.js";

export function checkApprovalGates(ctx: CheckContext): void {
  const tools = ctx.contract.tools ?? {};
  for (const site of ctx.parsed.model.references) {
    if (site.kind !== "uses" || !Object.hasOwn(tools, site.name) || tools[site.name]!.class !== "irreversible") continue;
    const unit = ctx.contract.units[site.owner.name];
    if (!unit || unit.approval) continue;
    const who = tools[site.name]!.approval ?? "human";
    const map = ctx.parsed.model.units.get(site.owner.name)?.map;
    const edit = map ? insertFirstKey(ctx.sink.lines, map, ["approval", who]) : undefined;
    ctx.sink.report(
      "C034",
      site.span,
      `unit '${site.owner.name}' uses irreversible tool '${site.name}' without an approval gate: add 'approval: ${who}' to the unit so the run pauses before the effect`,
      edit ? { fixes: [{ title: `Add 'approval: ${who}' to unit '${site.owner.name}'`, edits: [edit], safe: true }] } : {},
    );
  }
}
