/**
 * Start-up check of a handler module against the plan it will run: every
 * unit has a handler, every tool an adapter (the lookups and compensators
 * recovery calls included), every model/human verifier an implementation.
 * Pure: the CLI calls it before any work, so a missing piece is one refusal
 * listing all of them, not a failure after eleven units and an approval.
 */
import type { Plan } from "@taskspec/compiler";
import type { HandlerModule } from "../handler-api.js";
import { ownEntry } from "../model/own.js";

export interface MissingHandler {
  kind: "unit" | "tool" | "verifier";
  name: string;
  /** Why the plan needs it, for the message: "unit", "tool used by publish", "lookup of create_post", ... */
  why: string;
}

const isFunction = (value: unknown): boolean => typeof value === "function";

export function missingHandlers(plan: Plan, handlers: HandlerModule): MissingHandler[] {
  const out: MissingHandler[] = [];
  for (const unit of plan.units) {
    if (!isFunction(ownEntry(handlers.units, unit.id))) out.push({ kind: "unit", name: unit.id, why: "unit handler" });
  }
  const needed = new Map<string, string[]>();
  const need = (tool: string, why: string) => needed.set(tool, [...(needed.get(tool) ?? []), why]);
  for (const unit of plan.units) for (const tool of unit.uses) need(tool, `used by ${unit.id}`);
  for (const tool of plan.tools) {
    if (!needed.has(tool.name)) continue;
    if (tool.lookup) need(tool.lookup, `lookup of ${tool.name}`);
    if (tool.compensate) need(tool.compensate.tool, `compensator of ${tool.name}`);
  }
  for (const [name, why] of [...needed].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // Only asks whether the adapter has a call function; it is never called from here.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    if (!isFunction(ownEntry(handlers.tools, name)?.call)) out.push({ kind: "tool", name, why: `tool adapter (${why.join(", ")})` });
  }
  const refs = new Map<string, string[]>();
  const ref = (name: string, why: string) => refs.set(name, [...(refs.get(name) ?? []), why]);
  for (const unit of plan.units) for (const use of unit.verify) if ("ref" in use) ref(use.ref, `verifies ${unit.id}`);
  for (const use of plan.task.done) if ("ref" in use) ref(use.ref, "task.done");
  for (const verifier of plan.verifiers) {
    const why = refs.get(verifier.name);
    if (!why || (verifier.kind !== "model" && verifier.kind !== "human")) continue;
    if (!isFunction(ownEntry(handlers.verifiers, verifier.name)))
      out.push({ kind: "verifier", name: verifier.name, why: `${verifier.kind} verifier (${why.join(", ")})` });
  }
  return out;
}

/** The refusal text: one line per missing piece, then what to do. */
export function formatMissingHandlers(modulePath: string, missing: readonly MissingHandler[]): string {
  const lines = missing.map((m) => `  ${m.kind === "unit" ? "units" : m.kind === "tool" ? "tools" : "verifiers"}.${m.name}: ${m.why}`);
  return `handler module ${modulePath} does not implement ${missing.length} thing(s) the plan needs; nothing was run:\n${lines.join("\n")}\nadd them to the module's default export ({ units, tools, verifiers }) and run again`;
}
