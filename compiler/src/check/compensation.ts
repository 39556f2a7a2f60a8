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

export function checkCompensation(ctx: CheckContext): void {
  const { model } = ctx.parsed;
  const tools = ctx.contract.tools ?? {};
  for (const [name, tool] of Object.entries(tools)) {
    if (tool.class === "compensable" && !tool.compensate) reportMissingCompensator(ctx, name, model.tools.get(name));
  }
  for (const site of model.references) {
    if (site.kind !== "lookup" && site.kind !== "compensate") continue;
    const role = site.kind === "lookup" ? "lookup" : "compensator";
    const allowed = site.kind === "lookup" ? ["read"] : ["idempotent", "dedup"];
    // own property only: a lookup named `__proto__` or `constructor` is undeclared, not Object's member
    const target = Object.hasOwn(tools, site.name) ? tools[site.name] : undefined;
    if (!target) {
      const suggestion = closest(
        site.name,
        Object.keys(tools).filter((t) => allowed.includes(tools[t]!.class)),
        ctx.suggestions,
      );
      ctx.sink.report(
        "C031",
        site.span,
        `${role} '${site.name}' of tool '${site.owner.name}' is not a declared tool${didYouMean(suggestion)}`,
        suggestion
          ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span: site.span, newText: suggestion }], safe: false }] }
          : {},
      );
      continue;
    }
    if (!allowed.includes(target.class)) {
      const why =
        site.kind === "lookup"
          ? "a lookup runs during recovery to find an effect by key, so it must be a 'read' tool"
          : "a compensator may run more than once during recovery, so it must be 'idempotent' or 'dedup'";
      ctx.sink.report("C031", site.span, `${role} '${site.name}' of tool '${site.owner.name}' is '${target.class}': ${why}`, {
        related: [{ message: `tool '${site.name}'`, span: model.tools.get(site.name)?.keySpan ?? site.span }],
      });
    }
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
    `compensable tool '${name}' has no 'compensate': recovery must know how to undo a committed call; declare the compensator tool and its arguments`,
    edits.length > 0 ? { fixes: [{ title: `Add a compensator stub '${undo}'`, edits, safe: false }] } : {},
  );
}
