/**
 * Resume-decision time for a run of 10k units: a store holding a 10k-unit
 * run whose units all but the last level succeeded (written through the store
 * interface in batches), then, in this process, what `taskspec resume` does
 * before it claims anything: verify the checkpoint chain, load the facts,
 * decide (ready set, blocked reasons). Median of several runs, each on a
 * freshly opened store.
 *   npx tsc -b runtime && node bench/runtime/resume-decision.js [--units 10000] [--runs 7]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "../../compiler/dist/index.js";
import { decide, planVersionOf, inputVersionOf, SqliteStore, verifyChain } from "../../runtime/dist/index.js";
import { layeredContract } from "./generate.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const UNITS = arg("units", 10000);
const RUNS = arg("runs", 7);
const WIDTH = 100;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const t0 = performance.now();
const { plan, diagnostics } = compile(layeredContract(WIDTH, UNITS / WIDTH));
if (!plan) throw new Error(diagnostics.map((d) => d.message).join("\n"));
const compileMs = performance.now() - t0;
const dir = mkdtempSync(join(tmpdir(), "bench-resume-"));
const path = join(dir, "store.db");
{
  const store = new SqliteStore({ path });
  await store.init();
  const now = new Date().toISOString();
  await store.createRun({
    run: "R",
    taskId: plan.task.id,
    planVersion: planVersionOf(plan),
    inputVersion: inputVersionOf(plan),
    plan,
    caps: {},
    units: plan.units.map((u) => u.id),
    origin: { artifactRoot: dir },
    now,
  });
  const done = plan.units.slice(0, UNITS - WIDTH);
  let version = 0;
  for (let i = 0; i < done.length; i += 500) {
    const batch = done.slice(i, i + 500);
    const commits = [];
    for (const u of batch) {
      const claim = await store.claimUnit("R", u.id, "bench", 60_000, now);
      commits.push({
        kind: "unit",
        fence: { unit: u.id, token: claim.token },
        changes: [{ kind: "complete", unit: u.id, attempt: claim.attempt, result: { ok: true }, sources: {}, artifacts: [] }],
        approvals: [],
        nextAction: { kind: "run", units: [] },
        events: [],
        now,
      });
    }
    version = (await store.commitCheckpoints("R", version, commits)).at(-1).version;
  }
  await store.close();
}

const phases = { chain: [], facts: [], decide: [], total: [] };
let ready = 0;
for (let r = 0; r < RUNS; r++) {
  const store = new SqliteStore({ path });
  await store.init();
  const a = performance.now();
  verifyChain(await store.listChainLinks("R"));
  const b = performance.now();
  const facts = await store.loadFacts("R");
  const c = performance.now();
  const d = decide({
    plan,
    run: facts.run,
    units: facts.units,
    leases: facts.leases,
    openEffects: facts.openEffects,
    approvedGates: new Set(),
    now: new Date().toISOString(),
  });
  const e = performance.now();
  ready = d.ready.length;
  phases.chain.push(b - a);
  phases.facts.push(c - b);
  phases.decide.push(e - c);
  phases.total.push(e - a);
  await store.close();
}
rmSync(dir, { recursive: true, force: true });
const f = (x) => `${median(x).toFixed(1)} (${Math.min(...x).toFixed(1)})`;
const decision = phases.facts.map((x, i) => x + phases.decide[i]);
console.log(`| units | verify chain ms | load facts ms | decide ms | decision = facts + decide ms | resume total ms | ready |`);
console.log(`|---|---|---|---|---|---|---|`);
console.log(
  `| ${UNITS} | ${f(phases.chain)} | ${f(phases.facts)} | ${f(phases.decide)} | **${f(decision)}** | ${f(phases.total)} | ${ready} |`,
);
console.log(
  `\nMedian (min) of ${RUNS} runs, each on a freshly opened store; ${UNITS - WIDTH} units succeeded (${UNITS - WIDTH} checkpoints), ${WIDTH} ready. (Compiling the 10k-unit contract for the setup took ${compileMs.toFixed(0)} ms; not part of the decision.)`,
);
