/**
 * C080 (warning): a unit whose work reaches no task output, directly (it
 * produces one) or through units downstream of it. One backward sweep from the
 * producers of the outputs. Skipped when the task declares no outputs, and
 * when errors were already found: an unknown name or a cycle leaves the graph
 * incomplete and every unit behind it would look dead.
 */
import type { CheckContext } from "./context.js";

export function checkDeadWork(ctx: CheckContext): void {
  const outputs = ctx.contract.task.outputs ?? [];
  if (outputs.length === 0 || ctx.sink.has((d) => d.severity === "error")) return;
  const wanted = new Set(outputs);
  const live = new Set<string>();
  const queue: string[] = [];
  for (const id of ctx.graph.units) {
    if (producesAny(ctx.contract.units[id]!.produces, wanted)) {
      live.add(id);
      queue.push(id);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    for (const up of ctx.graph.upstream.get(queue[head]!) ?? []) {
      if (live.has(up)) continue;
      live.add(up);
      queue.push(up);
    }
  }
  for (const id of ctx.graph.units) {
    if (live.has(id)) continue;
    ctx.sink.report(
      "C080",
      ctx.parsed.model.units.get(id)?.keySpan ?? ctx.keySpan(["units", id]),
      `unit '${id}' contributes to no task output: nothing in task.outputs depends on it; remove it, or list what it produces in task.outputs`,
    );
  }
}

function producesAny(produces: string[] | undefined, wanted: Set<string>): boolean {
  for (const artifact of produces ?? []) if (wanted.has(artifact)) return true;
  return false;
}
