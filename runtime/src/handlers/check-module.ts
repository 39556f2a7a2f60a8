/**
 * Start-up check of a handler module against the plan it will run: every
 * unit has a handler, every tool an adapter (the lookups and compensators
 * recovery calls included); and of a verifier module: every model/human
 * verifier the plan uses has an implementation, and the module implements no
 * rule or schema verifier (those decide as the contract declares). Pure: the
 * CLI calls it before any work, so a missing piece is one refusal listing all
 * of them, not a failure after eleven units and an approval.
 */
import type { Plan } from "@taskspec/compiler";
import type { HandlerModule } from "../handler-api.js";
import { ownEntry } from "../model/own.js";
import type { CodeDigests } from "./digest.js";

export interface MissingHandler {
  kind: "unit" | "tool";
  name: string;
  /** Why the plan needs it, for the message: "unit", "tool used by publish", "lookup of create_post", ... */
  why: string;
}

const isFunction = (value: unknown): boolean => typeof value === "function";

/**
 * `units`, when given, are the unit handlers a probe found in the handler
 * module (isolation/probe.ts: the module is not imported in this process);
 * otherwise `handlers.units` is asked.
 */
export function missingHandlers(plan: Plan, handlers: HandlerModule, units?: CodeDigests["units"]): MissingHandler[] {
  const out: MissingHandler[] = [];
  for (const unit of plan.units) {
    const present = units ? ownEntry(units, unit.id) !== undefined : isFunction(ownEntry(handlers.units, unit.id));
    if (!present) out.push({ kind: "unit", name: unit.id, why: "unit handler" });
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
  return out;
}

/**
 * The refusal text: one line per missing piece, then what to do. With
 * `toolsPath` (the run's tools module, `--tools`), tools are that module's.
 */
export function formatMissingHandlers(modulePath: string, missing: readonly MissingHandler[], toolsPath?: string): string {
  const lines = missing.map((m) => `  ${m.kind === "unit" ? "units" : "tools"}.${m.name}: ${m.why}`);
  if (toolsPath === undefined)
    return `handler module ${modulePath} does not implement ${missing.length} thing(s) the plan needs; nothing was run:\n${lines.join("\n")}\nadd them to the module's default export ({ units, tools }) and run again`;
  return `handler module ${modulePath} and tools module ${toolsPath} do not implement ${missing.length} thing(s) the plan needs; nothing was run:\n${lines.join("\n")}\nadd units to the handler module's default export ({ units }) and tools to the tools module's ({ tools, inputs? }), and run again`;
}

/** The model/human verifiers the plan uses (a unit's `verify` or `task.done`), each with where it is used. */
export function codeVerifiersUsed(plan: Plan): Array<{ name: string; kind: string; why: string[] }> {
  const refs = new Map<string, string[]>();
  const ref = (name: string, why: string) => refs.set(name, [...(refs.get(name) ?? []), why]);
  for (const unit of plan.units) for (const use of unit.verify) if ("ref" in use) ref(use.ref, `verifies ${unit.id}`);
  for (const use of plan.task.done) if ("ref" in use) ref(use.ref, "task.done");
  return plan.verifiers
    .filter((v) => (v.kind === "model" || v.kind === "human") && refs.has(v.name))
    .map((v) => ({ name: v.name, kind: v.kind, why: refs.get(v.name)! }));
}

/**
 * What is wrong with the verifier module (undefined: none given) for this
 * plan: a code verifier the plan uses and the module lacks, or a rule or
 * schema verifier the module tries to implement. Empty: fine.
 */
export function verifierModuleProblems(plan: Plan, verifiers: Readonly<Record<string, unknown>> | undefined): string[] {
  const out: string[] = [];
  for (const v of codeVerifiersUsed(plan))
    if (!isFunction(ownEntry(verifiers, v.name)))
      out.push(`verifiers.${v.name}: ${v.kind} verifier (${v.why.join(", ")}) is not implemented`);
  for (const name of verifiers ? Object.keys(verifiers) : []) {
    const declared = plan.verifiers.find((v) => v.name === name);
    if (declared && (declared.kind === "rule" || declared.kind === "schema"))
      out.push(
        `verifiers.${name}: the contract declares ${name} as a ${declared.kind} verifier, which decides exactly as declared; a module cannot replace it`,
      );
  }
  return out;
}

/** The refusal text for verifierModuleProblems. */
export function formatVerifierModuleProblems(modulePath: string | undefined, problems: readonly string[]): string {
  const head = modulePath
    ? `verifier module ${modulePath} does not fit the plan; nothing was run:`
    : "the plan uses code verifiers (kind model or human) and no verifier module was given; nothing was run:";
  const tail = modulePath
    ? "a verifier module's default export is { verifiers: { <name>: (ctx) => ({ passed, reason? }) } } with the contract's model and human verifiers only"
    : "pass --verifiers <module> whose default export is { verifiers: { <name>: (ctx) => ({ passed, reason? }) } }";
  return `${head}\n${problems.map((p) => `  ${p}`).join("\n")}\n${tail}`;
}
