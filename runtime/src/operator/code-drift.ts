/**
 * Handler code that changed under committed results. `status` reports it;
 * at the start of `run`/`resume`/`worker` a unit that declares
 * `on_code_change: rerun` is re-run (a recorded `rerun` decision, as if an
 * operator had asked), every other one is reported and kept: re-running it is
 * a person's decision (`taskspec rerun`).
 */
import type { Plan } from "@taskspec/compiler";
import type { HandlerModule } from "../handler-api.js";
import { codeChanges, type CodeChange, type CodeDigests } from "../handlers/code-hash.js";
import type { Store } from "../store/types.js";
import { commitRerun } from "./rerun-commit.js";

/**
 * The run's current results whose handler or adapter code differs from
 * `handlers` (or from `code`, the digests a probe reported when the handler
 * module is not imported here).
 */
export async function codeChangesOfRun(
  store: Store,
  run: string,
  plan: Plan,
  handlers: HandlerModule,
  code?: CodeDigests,
): Promise<CodeChange[]> {
  return codeChanges(plan, await store.getRecords(run, { status: "current" }), handlers, code);
}

export interface CodeChangeOutcome {
  /** Re-run now (`on_code_change: rerun`), each a recorded decision. */
  rerun: CodeChange[];
  /** Kept and reported: a person decides. */
  ask: CodeChange[];
}

export async function applyCodeChanges(
  store: Store,
  run: string,
  plan: Plan,
  handlers: HandlerModule,
  by: string,
  now: string,
  code?: CodeDigests,
): Promise<CodeChangeOutcome> {
  const changes = await codeChangesOfRun(store, run, plan, handlers, code);
  const auto = new Set(plan.units.filter((u) => u.onCodeChange === "rerun").map((u) => u.id));
  const out: CodeChangeOutcome = { rerun: [], ask: [] };
  for (const c of changes) {
    if (!auto.has(c.unit)) {
      out.ask.push(c);
      continue;
    }
    // an earlier re-run in this loop may have superseded it already (it is downstream of another)
    const [current] = await store.getRecords(run, { unit: c.unit, status: "current" });
    if (!current) continue;
    await commitRerun(store, run, c.unit, { by, via: "policy" }, now, `on_code_change: rerun; ${c.changed.join(", ")} changed`);
    out.rerun.push(c);
  }
  return out;
}

/** One line per change, for `resume` and `status`. */
export function formatCodeChange(run: string, c: CodeChange): string {
  return `${c.unit} a${c.attempt}: ${c.changed.join(", ")} changed since it ran (kept; \`taskspec rerun ${run} ${c.unit}\` re-runs it)`;
}
