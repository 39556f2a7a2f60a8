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

export function checkVerification(ctx: CheckContext): void {
  const { contract, parsed } = ctx;
  const tools = contract.tools ?? {};
  const verifiers = contract.verifiers ?? {};
  const onlySoft = (uses: VerifierUseSpec[]) =>
    uses.length > 0 && uses.every((u) => typeof u === "string" && Object.hasOwn(verifiers, u) && verifiers[u]!.kind === "model");

  for (const id of ctx.graph.units) {
    const unit = contract.units[id]!;
    if (!unit.uses) continue;
    const effects = unit.uses.filter((t) => tools[t] && tools[t]!.class !== "read");
    if (effects.length === 0) continue;
    const verify = unit.verify ?? [];
    if (verify.length === 0) {
      ctx.sink.report(
        "C050",
        parsed.model.units.get(id)?.keySpan ?? ctx.keySpan(["units", id]),
        `unit '${id}' uses side-effecting tool${effects.length > 1 ? "s" : ""} ${effects.map((t) => `'${t}'`).join(", ")} but has no verifier: add 'verify' so its effects are checked before it counts as done`,
      );
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
      "the task has no end-to-end verifier: list in 'task.done' the checks that prove the final world is right (units saying so is not enough)",
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
