/**
 * C034: an irreversible tool is never retried blindly and its UNKNOWN blocks
 * for a person, so every unit that uses one must declare an approval gate
 * where the work is (`approval:` on the unit).
 *
 * C038: a gated unit in front of an irreversible call runs twice, once to
 * prepare the request a person approves and once to send it. The runtime hands
 * the sending attempt back what the first one paid for (model calls, charges)
 * and the effects it made; a `read` tool's answer is not kept, so it is asked
 * again, and another answer renders another request than the one approved.
 */
import type { CheckContext } from "./context.js";
import { insertFirstKey } from "./fixes.js";
import type { PlanView } from "./plan-view.js";

/** Whether a unit's use of a tool of this class needs a gate the unit does not have. */
export function ungated(toolClass: string | undefined, unitApproval: unknown): boolean {
  return toolClass === "irreversible" && !unitApproval;
}

export function ungatedMessage(unit: string, tool: string, who: string): string {
  return `unit '${unit}' uses irreversible tool '${tool}' without an approval gate: add 'approval: ${who}' to the unit so the run pauses before the effect`;
}

export function checkApprovalGates(ctx: CheckContext): void {
  const tools = ctx.contract.tools ?? {};
  for (const site of ctx.parsed.model.references) {
    if (site.kind !== "uses" || !Object.hasOwn(tools, site.name)) continue;
    const unit = ctx.contract.units[site.owner.name];
    if (!unit || !ungated(tools[site.name]!.class, unit.approval)) continue;
    const who = tools[site.name]!.approval ?? "human";
    const map = ctx.parsed.model.units.get(site.owner.name)?.map;
    const edit = map ? insertFirstKey(ctx.sink.lines, map, ["approval", who]) : undefined;
    ctx.sink.report(
      "C034",
      site.span,
      ungatedMessage(site.owner.name, site.name, who),
      edit ? { fixes: [{ title: `Add 'approval: ${who}' to unit '${site.owner.name}'`, edits: [edit], safe: true }] } : {},
    );
  }
}

export function checkGateReplay(ctx: CheckContext): void {
  const tools = ctx.contract.tools ?? {};
  const classOf = (name: string) => (Object.hasOwn(tools, name) ? tools[name]!.class : undefined);
  for (const site of ctx.parsed.model.references) {
    if (site.kind !== "uses" || classOf(site.name) !== "read") continue;
    const unit = ctx.contract.units[site.owner.name];
    if (!unit?.approval) continue;
    const sent = (unit.uses ?? []).find((t) => classOf(t) === "irreversible");
    if (!sent) continue;
    ctx.sink.report(
      "C038",
      site.span,
      `unit '${site.owner.name}' calls read tool '${site.name}' behind its gate in front of irreversible '${sent}': a read's answer is not replayed, ` +
        `so the attempt that sends after the approval reads again, and another answer renders another request than the one approved (the run then asks again). ` +
        `Move the read into a unit of its own that '${site.owner.name}' needs: its result is then kept, and bound by the approval`,
    );
  }
}

/** C034 on a plan: each use of an irreversible tool by a unit without `approval`. */
export function planApprovalGates(view: PlanView): void {
  view.plan.units.forEach((unit, i) => {
    unit.uses.forEach((name, j) => {
      const tool = view.tools.get(name)?.tool;
      if (tool && ungated(tool.class, unit.approval))
        view.report("C034", `/units/${i}/uses/${j}`, ungatedMessage(unit.id, name, tool.approval ?? "human"));
    });
  });
}
