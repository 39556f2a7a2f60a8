/**
 * `queue:` in the contract reaches the run `taskspec submit` records: the
 * contract's queue name and its tenant key rendered from the inputs, and
 * `submit --queue` overriding the name (the key stays).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import { runCli, tempRunDir } from "./runtime-harness.js";

const CONTRACT = `contract: 1
task:
  id: tenant
  goal: one unit per customer
  outputs: [out]
  done: [{ check: "true" }]
budgets: { model_calls: 1, tool_calls: 1, tokens: 1, retries: 0 }
inputs:
  customer: { kind: decision, value: acme }
queue:
  name: reports
  key: "customer-\${inputs.customer}"
units:
  u:
    needs: { customer: content }
    produces: [out]
`;

it("submit records the contract's queue and tenant; --queue overrides the name", async () => {
  const { dir, store } = tempRunDir("taskspec-submit-queue-");
  writeFileSync(join(dir, "tenant.task.yaml"), CONTRACT);
  writeFileSync(join(dir, "handlers.mjs"), "export default { units: {}, tools: {} };\n");
  const submit = (run: string, extra: string[] = []) =>
    runCli(["submit", join(dir, "tenant.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", run, ...extra], {}, store);
  const plain = await submit("A");
  expect(plain.code, plain.stderr).toBe(0);
  expect(plain.stderr).toContain('run A submitted to queue reports (key "customer-acme")');
  const flagged = await submit("B", ["--queue", "urgent"]);
  expect(flagged.code, flagged.stderr).toBe(0);
  const s = new SqliteStore({ path: store.slice("sqlite:".length) });
  try {
    expect((await s.getRun("A"))?.origin).toMatchObject({ queue: "reports", queueKey: "customer-acme" });
    expect((await s.getRun("B"))?.origin).toMatchObject({ queue: "urgent", queueKey: "customer-acme" });
  } finally {
    await s.close();
  }
}, 60_000);
