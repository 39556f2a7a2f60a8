/**
 * C039: a key the handler can vary at will. A `dedup` or `irreversible`
 * tool's key names one effect in the world (one post, one e-mail sent); a
 * key that reads the call's own `args` renders whatever the handler chooses,
 * so one unit could make one such effect per argument it invents, each under
 * its own key, and neither the remote's deduplication nor the runtime's key
 * guard (a known key with another request is refused) would see a repeat.
 * Of the names a key template sees (task, run, unit, attempt, inputs,
 * iteration, args), only `args` is chosen by the handler: the others are the
 * worker's values (a handler gets frozen copies, never what keys render
 * from); `attempt.*` changes per retry and is C035; a loop's `iteration` is
 * bounded by `loop.max`, and the count below is per iteration.
 * Such a key is allowed when every unit that uses the tool declares how many
 * effects of it it makes at most (`effects: { <tool>: { max: N } }`); the
 * runtime refuses the (N+1)th distinct key of the tool in the unit (N = 1
 * without a declaration), per loop iteration (runtime/src/ledger/effect-bound.ts).
 *
 * The rule is a function over plan data (`unboundedKeyUses`), so a plan read
 * back from JSON can be judged by it as well as a contract; `checkKeyBounds`
 * reports it on the contract with locations and a fix.
 */
import type { CompiledTemplate, Plan } from "../plan/schema.js";
import { pathsIn, type ExprPath } from "../expr/index.js";
import { scalarOffsetMapper } from "../source/scalar-offsets.js";
import type { CheckContext } from "./context.js";
import { pointerToken, type PlanView } from "./plan-view.js";
import { pathKey, type CompiledExpressions } from "./expressions.js";
import { appendKey } from "./fixes.js";

/** Tool classes whose every effect counts: a repeat is a second post, a second e-mail. */
export const BOUNDED_KEY_CLASSES: ReadonlySet<string> = new Set(["dedup", "irreversible"]);
/** The names of a key template's scope whose values the handler chooses. */
export const HANDLER_CHOSEN_NAMES: ReadonlySet<string> = new Set(["args"]);

export interface KeyBoundTool {
  name: string;
  class: string;
  key?: CompiledTemplate;
}
export interface KeyBoundUnit {
  id: string;
  uses: readonly string[];
  effects?: Readonly<Record<string, { max: number }>>;
}

/** A unit using a tool whose key reads what the handler chooses, with no declared bound. */
export interface UnboundedKeyUse {
  unit: string;
  tool: string;
  toolClass: string;
  /** The first handler-chosen reference in the key (`args.title`), as written in the template. */
  read: string;
  /** Its place in the template's source. */
  span: { start: number; end: number };
}

/** The references of a key template to values the handler chooses, in order. */
export function handlerChosenIn(template: CompiledTemplate): ExprPath[] {
  return template.parts.flatMap((p) => ("expr" in p ? pathsIn(p.expr) : [])).filter((p) => HANDLER_CHOSEN_NAMES.has(p.root));
}

/** Every (unit, tool) pair C039 refuses, in unit order then `uses` order. */
export function unboundedKeyUses(tools: Iterable<KeyBoundTool>, units: Iterable<KeyBoundUnit>): UnboundedKeyUse[] {
  const varying = new Map<string, { tool: KeyBoundTool; path: ExprPath }>();
  for (const tool of tools) {
    if (!BOUNDED_KEY_CLASSES.has(tool.class) || !tool.key) continue;
    const path = handlerChosenIn(tool.key)[0];
    if (path) varying.set(tool.name, { tool, path });
  }
  const out: UnboundedKeyUse[] = [];
  if (varying.size === 0) return out;
  for (const unit of units) {
    for (const name of unit.uses) {
      const v = varying.get(name);
      if (!v || (unit.effects && Object.hasOwn(unit.effects, name))) continue;
      out.push({
        unit: unit.id,
        tool: name,
        toolClass: v.tool.class,
        read: v.tool.key!.source.slice(v.path.span.start, v.path.span.end),
        span: { start: v.path.span.start, end: v.path.span.end },
      });
    }
  }
  return out;
}

/** C039 judged on a plan (a plan read back from JSON): the same rule, on the plan's tools and units. */
export function planKeyBoundProblems(plan: Pick<Plan, "tools" | "units">): UnboundedKeyUse[] {
  return unboundedKeyUses(plan.tools, plan.units);
}

/** The message of one refusal, the same for a contract and a plan. */
export function unboundedKeyMessage(u: Pick<UnboundedKeyUse, "unit" | "tool" | "toolClass" | "read">): string {
  return (
    `unit '${u.unit}' uses ${u.toolClass} tool '${u.tool}', whose key reads '${u.read}', a value the handler chooses: ` +
    `it could make one ${u.tool} effect per value it invents, each under a new key; build the key from what names the intent ` +
    `(task, run, unit, inputs), or declare how many effects the unit makes at most (\`effects: { ${u.tool}: { max: N } }\`; ` +
    `the runtime refuses the next distinct key)`
  );
}

/** A bound on a tool the unit does not use bounds nothing (C010). */
export function unusedBoundMessage(unit: string, tool: string, uses: readonly string[]): string {
  return `unit '${unit}' declares effects of '${tool}', which is not in its \`uses\` [${uses.join(", ")}]`;
}

export function checkKeyBounds(ctx: CheckContext, compiled: CompiledExpressions): void {
  // a bound names a tool the unit uses: another name bounds nothing (a typo would leave the real tool at one)
  // unit by unit through the graph's list of ids: Object.entries of a 100,000-key record is a copy of it
  const specs = ctx.contract.units ?? {};
  for (const id of ctx.graph.units) {
    const spec = specs[id]!;
    if (!spec.effects) continue;
    for (const name of Object.keys(spec.effects)) {
      if ((spec.uses ?? []).includes(name)) continue;
      ctx.sink.report("C010", ctx.keySpan(["units", id, "effects", name]), unusedBoundMessage(id, name, spec.uses ?? []));
    }
  }
  const tools: KeyBoundTool[] = [];
  for (const [name, tool] of Object.entries(ctx.contract.tools ?? {})) {
    if (!BOUNDED_KEY_CLASSES.has(tool.class) || tool.key === undefined) continue;
    const key = compiled.get(pathKey(["tools", name, "key"])) as CompiledTemplate | undefined;
    if (key) tools.push({ name, class: tool.class, key });
  }
  if (tools.length === 0) return;
  const usesOf = (spec: (typeof specs)[string]) => (Array.isArray(spec.uses) ? spec.uses : []);
  const units = ctx.graph.units.map((id): KeyBoundUnit => {
    const spec = specs[id]!;
    return spec.effects ? { id, uses: usesOf(spec), effects: spec.effects } : { id, uses: usesOf(spec) };
  });
  // looked up once per tool, not once per refusal: a contract can have thousands of them
  const keySites = new Map<string, (typeof ctx.parsed.model.expressions)[number]>();
  for (const site of ctx.parsed.model.expressions)
    if (site.kind === "key" && !keySites.has(site.owner.name)) keySites.set(site.owner.name, site);
  for (const use of unboundedKeyUses(tools, units)) {
    const usesIndex = usesOf(specs[use.unit]!).indexOf(use.tool);
    const at = ctx.valueSpan(["units", use.unit, "uses", usesIndex]);
    const keySite = keySites.get(use.tool);
    const map = keySite ? scalarOffsetMapper(ctx.text, keySite.scalar) : undefined;
    const unitMap = ctx.parsed.model.units.get(use.unit)?.map;
    const edit = unitMap ? appendKey(ctx.sink.lines, unitMap, "effects", `{ ${use.tool}: { max: 1 } }`) : undefined;
    ctx.sink.report("C039", at, unboundedKeyMessage(use), {
      ...(map && keySite
        ? {
            related: [
              {
                message: `the key of '${use.tool}' reads '${use.read}'`,
                span: { start: map(use.span.start), end: Math.max(map(use.span.end), map(use.span.start) + 1) },
              },
            ],
          }
        : {}),
      ...(edit
        ? { fixes: [{ title: `Declare that unit '${use.unit}' makes at most one ${use.tool} effect`, edits: [edit], safe: false }] }
        : {}),
    });
  }
}

/** C039 on a plan, and C010 for a bound on a tool the unit does not use (the same rules as the contract's). */
export function planKeyBounds(view: PlanView): void {
  const index = new Map(view.plan.units.map((u, i) => [u, i]));
  view.plan.units.forEach((unit, i) => {
    for (const name of Object.keys(unit.effects ?? {}))
      if (!unit.uses.includes(name))
        view.report("C010", `/units/${i}/effects/${pointerToken(name)}`, unusedBoundMessage(unit.id, name, unit.uses));
  });
  for (const u of planKeyBoundProblems(view.plan)) {
    const unit = view.units.get(u.unit)!.unit;
    view.report("C039", `/units/${index.get(unit)!}/uses/${unit.uses.indexOf(u.tool)}`, unboundedKeyMessage(u));
  }
}
