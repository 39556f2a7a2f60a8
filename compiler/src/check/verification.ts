/**
 * C050: a unit that uses a side-effecting (non-`read`) tool must verify.
 * C051: the task must declare end-to-end verifiers (`task.done`).
 * C052 (warning): soft `model` verification alone is not enough for such a
 * unit, nor for `task.done`.
 */
import type { VerifierUseSpec } from "../schema/contract.js";
import type { CheckContext } from "./context.js";
import { appendKey } from "./fixes.js";
import { mapOf } from "../parse/yaml-nodes.js";
import type { PlanView } from "./plan-view.js";

/** The side-effecting (non-`read`) tools among a unit's uses: with any, the unit must verify (C050). */
export function effectsOf(uses: readonly string[], classOf: (tool: string) => string | undefined): string[] {
  return uses.filter((t) => {
    const c = classOf(t);
    return c !== undefined && c !== "read";
  });
}

export function unverifiedMessage(id: string, effects: readonly string[]): string {
  return `unit '${id}' uses side-effecting tool${effects.length > 1 ? "s" : ""} ${effects.map((t) => `'${t}'`).join(", ")} but has no verifier: add 'verify' so its effects are checked before it counts as done`;
}

export const NO_DONE_MESSAGE =
  "the task has no end-to-end verifier: list in 'task.done' the checks that prove the final world is right (units saying so is not enough)";

export function checkVerification(ctx: CheckContext): void {
  const { contract, parsed } = ctx;
  const tools = contract.tools ?? {};
  const verifiers = contract.verifiers ?? {};
  const onlySoft = (uses: VerifierUseSpec[]) =>
    uses.length > 0 && uses.every((u) => typeof u === "string" && Object.hasOwn(verifiers, u) && verifiers[u]!.kind === "model");

  for (const id of ctx.graph.units) {
    const unit = contract.units[id]!;
    if (!unit.uses) continue;
    const effects = effectsOf(unit.uses, (t) => (Object.hasOwn(tools, t) ? tools[t]!.class : undefined));
    if (effects.length === 0) continue;
    const verify = unit.verify ?? [];
    if (verify.length === 0) {
      ctx.sink.report("C050", parsed.model.units.get(id)?.keySpan ?? ctx.keySpan(["units", id]), unverifiedMessage(id, effects));
    } else if (onlySoft(verify)) {
      ctx.sink.report(
        "C052",
        ctx.keySpan(["units", id, "verify"]),
        `unit '${id}' has side effects but only model (soft) verification: add a rule, schema or human verifier`,
      );
    }
  }

  const done = contract.task.done ?? [];
  if (done.length === 0) {
    const hard = Object.entries(verifiers).find(([, v]) => v.kind !== "model")?.[0];
    const taskMap = mapOf(parsed.model.sections.get("task")?.value, parsed.aliases);
    const edit = hard && contract.task.done === undefined && taskMap ? appendKey(ctx.sink.lines, taskMap, "done", `[${hard}]`) : undefined;
    ctx.sink.report(
      "C051",
      contract.task.done === undefined ? ctx.keySpan(["task"]) : ctx.valueSpan(["task", "done"]),
      NO_DONE_MESSAGE,
      edit ? { fixes: [{ title: `Add 'done: [${hard}]'`, edits: [edit], safe: false }] } : {},
    );
  } else if (onlySoft(done)) {
    ctx.sink.report(
      "C052",
      ctx.keySpan(["task", "done"]),
      "task.done has only model (soft) verification: add a rule, schema or human verifier",
    );
  }
}

/** C050 and C051 on a plan (C052 is a warning: never re-judged). */
export function planVerification(view: PlanView): void {
  view.plan.units.forEach((unit, i) => {
    const effects = effectsOf(unit.uses, (t) => view.tools.get(t)?.tool.class);
    if (effects.length > 0 && unit.verify.length === 0) view.report("C050", `/units/${i}/verify`, unverifiedMessage(unit.id, effects));
  });
  if (view.plan.task.done.length === 0) view.report("C051", "/task/done", NO_DONE_MESSAGE);
}
