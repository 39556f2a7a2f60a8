/**
 * A bad run never stops a worker: of three runs in one store, one whose
 * contract no longer compiles and one whose handler module throws when
 * imported are skipped with their reasons recorded (once each), shown by
 * `taskspec runs` and `taskspec status`; the good run is served to the end.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { compile } from "../compiler/src/index.js";
import { engineCore } from "../runtime/src/engine/run-plan.js";
import { ensureRun } from "../runtime/src/engine/worker.js";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import { LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";

const CONTRACT = (id: string) =>
  `contract: 1\ntask:\n  id: ${id}\n  version: 1\n  goal: one unit\n  outputs: [out]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\nbudgets:\n  model_calls: 10\n  tool_calls: 10\n  tokens: 100\n  retries: 1\nunits:\n  u:\n    produces: [out]\n`;
const GOOD = `export default { units: { u: async (ctx) => { await ctx.write("out", "{}"); return {}; } }, tools: {} };\n`;
const THROWS = `throw new Error("this module cannot load here");\n`;

it("skips the runs it cannot load, says why in runs and status, and serves the others", async () => {
  const { dir, store } = tempRunDir("taskspec-skip-");
  const s = new SqliteStore({ path: store.slice("sqlite:".length) });
  await s.init();
  try {
    for (const [run, handlers] of [
      ["good", GOOD],
      ["bad-contract", GOOD],
      ["bad-module", THROWS],
    ] as const) {
      const contract = join(dir, `${run}.task.yaml`);
      writeFileSync(contract, CONTRACT(run));
      writeFileSync(join(dir, `${run}.mjs`), handlers);
      const core = engineCore({
        store: s,
        plan: compile(CONTRACT(run)).plan!,
        handlers: { units: {}, tools: {} },
        run,
        artifacts: join(dir, "artifacts"),
        log: () => {},
      });
      await ensureRun(core, { contract, handlers: join(dir, `${run}.mjs`) });
    }
  } finally {
    await s.close();
  }
  // after the runs were started: the contract is edited into broken YAML; the other's module throws at import
  writeFileSync(join(dir, "bad-contract.task.yaml"), "contract: 1\ntask: [not, a, task\n");

  // twice: the second worker records nothing new (the skips still stand, for the same reasons)
  for (const _ of [1, 2]) {
    const worker = await runCli(["worker", "--exit-when-idle", "--poll", "100ms"], LEGACY_FIXTURE_ENV, store);
    expect(worker.code, worker.stderr).toBe(0);
    expect(worker.stderr).toMatch(/run bad-contract skipped: .*bad-contract\.task\.yaml/);
    expect(worker.stderr).toMatch(/run bad-module skipped: .*/);
  }
  const after = new SqliteStore({ path: store.slice("sqlite:".length) });
  try {
    expect((await after.getRun("good"))?.status).toBe("done");
    expect((await after.getRun("bad-contract"))?.status).toBe("active");
    expect((await after.getRun("bad-module"))?.status).toBe("active");
    // once per worker process and reason while the run makes no progress: two workers, two events
    expect((await after.listEvents("bad-contract", { type: "run-skipped" })).length).toBe(2);
  } finally {
    await after.close();
  }

  const runs = await runCli(["runs"], {}, store);
  expect(runs.code, runs.stderr).toBe(0);
  expect(runs.stdout).toMatch(/^bad-contract: skipped by worker [^ ]+ \(.*\): .*bad-contract\.task\.yaml/m);
  expect(runs.stdout).toMatch(/^bad-module: skipped by worker [^ ]+ \(.*\): .+/m);
  expect(runs.stdout).not.toMatch(/^good: skipped/m);
  const status = await runCli(["status", "bad-module", "--format", "json"], {}, store);
  const skipped = (JSON.parse(status.stdout) as { skipped?: Array<{ worker: string; reason: string }> }).skipped ?? [];
  expect(skipped.length).toBe(2);
  expect(skipped[0]!.reason).toMatch(/cannot load here|bad-module\.mjs/);
  const text = await runCli(["status", "bad-contract"], {}, store);
  expect(text.stdout).toMatch(/^ {2}skipped by worker .*bad-contract\.task\.yaml/m);
}, 180_000);
