/**
 * The work queue and tenant a run is submitted to, from its plan's `queue:`
 * and the submitter's `--queue`: pure, table-tested in
 * runtime/test/queue-of.test.ts; `taskspec submit` records the answer in the
 * run's origin, and the work queue (run-queue.ts) reads it from there.
 *
 * `--queue` overrides the contract's queue name; the tenant key is the
 * contract's `queue.key` template rendered with what is known of the run when
 * it is submitted: its task, its id and the plan's input values. A part with
 * no value (a secret input, whose value the plan never holds; an external
 * input) refuses the submission (QueueKeyError): a tenant is never guessed.
 * Neither: `default`, no key.
 */
import { renderTemplate, type Plan } from "@taskspec/compiler";

export const DEFAULT_QUEUE = "default";

export interface RunQueue {
  queue: string;
  /** The tenant within the queue; absent: the queue's runs are one tenant. */
  queueKey?: string;
}

export function queueOfRun(plan: Pick<Plan, "queue" | "task" | "inputs">, run: string, flag?: string): RunQueue {
  const queue = flag ?? plan.queue?.name ?? DEFAULT_QUEUE;
  const template = plan.queue?.key;
  if (!template) return { queue };
  const inputs = Object.fromEntries(plan.inputs.map((i) => [i.name, i.value ?? i.version ?? null]));
  const env = { task: { id: plan.task.id, version: plan.task.version, goal: plan.task.goal }, run: { id: run }, inputs };
  try {
    return { queue, queueKey: renderTemplate(template, env) };
  } catch (err) {
    throw new QueueKeyError(`queue.key ${JSON.stringify(template.source)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The contract's tenant key cannot be rendered for this run. */
export class QueueKeyError extends Error {
  override name = "QueueKeyError";
}
