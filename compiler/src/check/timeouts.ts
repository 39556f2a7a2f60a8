/**
 * C022 (warning): a unit that calls tools has no `timeout` of its own and the
 * task has no `task.timeout`. Every attempt has a time limit (the plan says
 * which: the unit's, the task's, or the runtime's default of 30m), but a call
 * to the outside world is what hangs: a remote that never answers holds the
 * unit's lease and leaves an effect in flight for the whole default. The
 * warning is for units with `uses` only: a unit without tools calls nothing
 * that can hang on the world, and warning on every unit of every contract
 * would teach people to ignore the code.
 */
import type { CheckContext } from "./context.js";
import { appendKey } from "./fixes.js";
import { mapOf } from "../parse/yaml-nodes.js";

export function checkTimeouts(ctx: CheckContext): void {
  const { contract, parsed } = ctx;
  if (contract.task.timeout !== undefined) return;
  const taskMap = mapOf(parsed.model.sections.get("task")?.value, parsed.aliases);
  for (const id of ctx.graph.units) {
    const unit = contract.units[id]!;
    if (unit.timeout !== undefined || !unit.uses || unit.uses.length === 0) continue;
    const edit = taskMap ? appendKey(ctx.sink.lines, taskMap, "timeout", "10m") : undefined;
    ctx.sink.report(
      "C022",
      parsed.model.units.get(id)?.keySpan ?? ctx.keySpan(["units", id]),
      `unit '${id}' calls tools (${unit.uses.join(", ")}) but has no 'timeout' and the task has no 'task.timeout': a hung call holds it for the runtime's default of 30m; give the unit a 'timeout' or the task a 'task.timeout'`,
      edit ? { fixes: [{ title: "Add 'timeout: 10m' to the task (every unit without its own)", edits: [edit], safe: false }] } : {},
    );
  }
}
