/**
 * Recovery classes that need partners: C030 a compensable tool must declare
 * `compensate`; C031 the compensator must be a declared `idempotent` or
 * `dedup` tool and every `lookup` a declared `read` tool. C032 (a `with`
 * argument naming an undeclared result field) is found with the expressions.
 */
import type { Decl } from "../parse/model.js";
import { closest, didYouMean } from "../source/suggest.js";
import type { CheckContext } from "./context.js";
import { appendKey, insertFirstKey } from "./fixes.js";
import { mapOf } from "../parse/yaml-nodes.js";
import { pointerToken, type PlanView } from "./plan-view.js";

/** A tool's partners: its `lookup` (a read) and its compensator (safe to run more than once). */
export type PartnerRole = "lookup" | "compensate";
const ALLOWED: Record<PartnerRole, readonly string[]> = { lookup: ["read"], compensate: ["idempotent", "dedup"] };

export function missingCompensator(tool: { class: string; compensate?: unknown }): boolean {
  return tool.class === "compensable" && !tool.compensate;
}

export function missingCompensatorMessage(name: string): string {
  return `compensable tool '${name}' has no 'compensate': recovery must know how to undo a committed call; declare the compensator tool and its arguments`;
}

/** Why `partner`, the `role` of tool `owner`, is not one (C031), or undefined when it is; `targetClass` undefined: not declared. */
export function partnerProblem(role: PartnerRole, owner: string, partner: string, targetClass: string | undefined): string | undefined {
  const noun = role === "lookup" ? "lookup" : "compensator";
  if (targetClass === undefined) return `${noun} '${partner}' of tool '${owner}' is not a declared tool`;
  if (ALLOWED[role].includes(targetClass)) return undefined;
  const why =
    role === "lookup"
      ? "a lookup runs during recovery to find an effect by key, so it must be a 'read' tool"
      : "a compensator may run more than once during recovery, so it must be 'idempotent' or 'dedup'";
  return `${noun} '${partner}' of tool '${owner}' is '${targetClass}': ${why}`;
}

export function checkCompensation(ctx: CheckContext): void {
  const { model } = ctx.parsed;
  const tools = ctx.contract.tools ?? {};
  for (const [name, tool] of Object.entries(tools)) {
    if (missingCompensator(tool)) reportMissingCompensator(ctx, name, model.tools.get(name));
  }
  for (const site of model.references) {
    if (site.kind !== "lookup" && site.kind !== "compensate") continue;
    const allowed = ALLOWED[site.kind];
    // own property only: a lookup named `__proto__` or `constructor` is undeclared, not Object's member
    const target = Object.hasOwn(tools, site.name) ? tools[site.name] : undefined;
    const problem = partnerProblem(site.kind, site.owner.name, site.name, target?.class);
    if (!problem) continue;
    if (!target) {
      const suggestion = closest(
        site.name,
        Object.keys(tools).filter((t) => allowed.includes(tools[t]!.class)),
        ctx.suggestions,
      );
      ctx.sink.report(
        "C031",
        site.span,
        `${problem}${didYouMean(suggestion)}`,
        suggestion
          ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span: site.span, newText: suggestion }], safe: false }] }
          : {},
      );
      continue;
    }
    ctx.sink.report("C031", site.span, problem, {
      related: [{ message: `tool '${site.name}'`, span: model.tools.get(site.name)?.keySpan ?? site.span }],
    });
  }
}

function reportMissingCompensator(ctx: CheckContext, name: string, decl: Decl | undefined): void {
  const undo = `undo_${name}`;
  const edits = [];
  const inTool = decl?.map ? insertFirstKey(ctx.sink.lines, decl.map, ["compensate", `{ tool: ${undo}, with: {} }`]) : undefined;
  const toolsMap = mapOf(ctx.parsed.model.sections.get("tools")?.value, ctx.parsed.aliases);
  const newTool = toolsMap && !ctx.contract.tools?.[undo] ? appendKey(ctx.sink.lines, toolsMap, undo, "{ class: idempotent }") : undefined;
  if (inTool) edits.push(inTool);
  if (inTool && newTool) edits.push(newTool);
  ctx.sink.report(
    "C030",
    decl?.keySpan ?? ctx.keySpan(["tools", name]),
    missingCompensatorMessage(name),
    edits.length > 0 ? { fixes: [{ title: `Add a compensator stub '${undo}'`, edits, safe: false }] } : {},
  );
}

/**
 * C030 and C031 on a plan, and the plan's `compensation` table (tool ->
 * compensator), which must say what the tools say: it is derived from them.
 */
export function planCompensation(view: PlanView): void {
  view.plan.tools.forEach((tool, i) => {
    if (missingCompensator(tool)) view.report("C030", `/tools/${i}/compensate`, missingCompensatorMessage(tool.name));
    const partner = (role: PartnerRole, name: string | undefined, path: string) => {
      if (name === undefined) return;
      const problem = partnerProblem(role, tool.name, name, view.tools.get(name)?.tool.class);
      if (problem) view.report("C031", path, problem);
    };
    partner("lookup", tool.lookup, `/tools/${i}/lookup`);
    partner("compensate", tool.compensate?.tool, `/tools/${i}/compensate/tool`);
  });
  const table = view.plan.compensation;
  for (const [name, compensator] of Object.entries(table)) {
    const declared = view.tools.get(name)?.tool.compensate?.tool;
    if (declared !== compensator)
      view.report(
        "C031",
        `/compensation/${pointerToken(name)}`,
        declared === undefined
          ? `the compensation table names compensator '${compensator}' for '${name}', which is not a tool with 'compensate'`
          : `the compensation table names compensator '${compensator}' for '${name}', but the tool declares '${declared}'`,
      );
  }
  view.plan.tools.forEach((tool, i) => {
    if (tool.compensate && !Object.hasOwn(table, tool.name))
      view.report("C031", `/tools/${i}/compensate`, `tool '${tool.name}' has a compensator but the compensation table leaves it out`);
  });
}
