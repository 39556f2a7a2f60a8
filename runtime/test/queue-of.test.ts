import { describe, expect, it } from "vitest";
import { compile } from "../../compiler/src/index.js";
import { QueueKeyError, queueOfRun, type RunQueue } from "../src/scheduler/queue-of.js";

const contract = (queue: string) => `contract: 1
task:
  id: q
  goal: g
  outputs: [o]
  done: [{ check: "true" }]
budgets: { model_calls: 1, tool_calls: 1, tokens: 1, retries: 0 }
inputs:
  customer: { kind: decision, value: acme }
  corpus: { kind: snapshot, version: v7 }
  site: { kind: external }
${queue}
units:
  u:
    needs: { customer: content, corpus: content, site: content }
    produces: [o]
`;
const planOf = (queue: string) => {
  const r = compile(contract(queue));
  if (!r.plan) throw new Error(JSON.stringify(r.diagnostics));
  return r.plan;
};

describe("the queue and tenant a run is submitted to", () => {
  it.each<[string, string, string | undefined, RunQueue]>([
    ["no queue in the contract, no flag: default, no tenant", "", undefined, { queue: "default" }],
    ["the contract's queue", "queue: { name: reports }", undefined, { queue: "reports" }],
    ["--queue overrides the contract's name", "queue: { name: reports }", "urgent", { queue: "urgent" }],
    ["--queue without a queue in the contract", "", "urgent", { queue: "urgent" }],
    [
      "the tenant: a decision input's value",
      'queue: { name: reports, key: "${inputs.customer}" }',
      undefined,
      { queue: "reports", queueKey: "acme" },
    ],
    [
      "a key of the task, the run and a snapshot's version; kept under --queue",
      'queue: { name: reports, key: "${task.id}/${run.id}/${inputs.corpus}" }',
      "urgent",
      { queue: "urgent", queueKey: "q/R1/v7" },
    ],
  ])("%s", (_, queue, flag, want) => {
    expect(queueOfRun(planOf(queue), "R1", flag)).toEqual(want);
  });

  it("a key part without a value (an external input) refuses the submission, naming the template", () => {
    const plan = planOf('queue: { name: reports, key: "${inputs.site}" }');
    expect(() => queueOfRun(plan, "R1")).toThrow(QueueKeyError);
    expect(() => queueOfRun(plan, "R1")).toThrow(/^queue\.key "\$\{inputs\.site\}": template part \$\{inputs\.site\} is null/);
  });

  it("the plan of a contract without `queue:` has none (its hash is as before)", () => {
    expect(planOf("")).not.toHaveProperty("queue");
  });

  it("a key may read only what is known at submission: a unit's result is C060 at its column", () => {
    const r = compile(contract('queue: { name: reports, key: "${result.x}" }'));
    expect(r.plan).toBeUndefined();
    const d = r.diagnostics.find((x) => x.code === "C060")!;
    expect(d.message).toBe("queue key: unknown name 'result'; names here: inputs, run, task");
    expect(d.range.start).toEqual({ line: 11, character: 32 });
  });

  it("a queue name outside letters, digits, '.', '_', '-' is C002", () => {
    const r = compile(contract('queue: { name: "two words" }'));
    expect(r.diagnostics.map((x) => x.code)).toContain("C002");
  });
});
