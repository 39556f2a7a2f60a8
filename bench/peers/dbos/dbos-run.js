/**
 * One DBOS Transact process: WORKFLOWS workflows in flight, STEPS steps in
 * all, each step sleeping DELAY ms (0: a no-op step). Prints one JSON line:
 * { steps, ms } from the first workflow started to the last one finished.
 *   node dbos-run.js <postgres url> <workflows> <steps> <delay ms>
 */
import { DBOS } from "@dbos-inc/dbos-sdk";

const [url, workflows, steps, delay] = [process.argv[2], ...process.argv.slice(3).map(Number)];
const perWorkflow = Math.ceil(steps / workflows);

const step = DBOS.registerStep(
  async (i) => {
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    return i;
  },
  { name: "unit" },
);
const workflow = DBOS.registerWorkflow(
  async (n) => {
    for (let i = 0; i < n; i++) await step(i);
    return n;
  },
  { name: "units" },
);

DBOS.setConfig({ name: "bench", systemDatabaseUrl: url, systemDatabasePoolSize: Math.max(4, workflows + 2) });
DBOS.logRegisteredEndpoints = () => undefined;
await DBOS.launch();
const t0 = performance.now();
const handles = await Promise.all(Array.from({ length: workflows }, () => DBOS.startWorkflow(workflow)(perWorkflow)));
const done = (await Promise.all(handles.map((h) => h.getResult()))).reduce((a, b) => a + b, 0);
const ms = performance.now() - t0;
await DBOS.shutdown();
console.log(JSON.stringify({ steps: done, ms }));
process.exit(0);
