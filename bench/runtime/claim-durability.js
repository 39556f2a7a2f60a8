/**
 * What making claims durable costs on SQLite, side by side in one run, four
 * ways: "before", the claim committed at synchronous=NORMAL and nothing more
 * (durable only with the next FULL commit: a power loss could hand its
 * attempt number out again); "FULL per claim", the claim's own transaction at
 * synchronous=FULL (one fsync per claim); "sync at claim", the claim at
 * NORMAL and `store.sync()` right after it, before the attempt starts (one
 * FULL one-row commit that claims made in the same step share; what the
 * worker did from 5c5944d); "now", what the worker does: `store.sync()` only
 * before the attempt's first act outside the store (attempt.ts
 * `claimDurable`), so a step that only returns a result lets its commit's
 * fsync carry the claim. The modes are the same store code: "before" replaces
 * sync() with nothing, "FULL per claim" forces the claim's transaction to
 * FULL (the store picks the fsync policy per transaction in `tx(durable, fn)`;
 * this bench wraps it) and has nothing left to sync, "sync at claim" wraps
 * claimUnit to sync after it. Measured: (a) claims per second, one unit
 * claimed (and synced, as an attempt that acts outside the store does) and its
 * lease released in a loop, the claim and sync timed ("before" and "now"
 * differ only there); (b) wall ms per unit of runPlan at concurrency 1 and 12
 * over the commit-overhead bench's layered units (no-op, the last level writes
 * one artifact). Modes alternate run by run so load hits them alike; medians.
 *   npx tsc -b runtime && node bench/runtime/claim-durability.js [--claims 400] [--units 240] [--runs 5]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "../../compiler/dist/index.js";
import { runPlan, SqliteStore } from "../../runtime/dist/index.js";
import { layeredContract, layeredHandlers } from "./generate.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const CLAIMS = arg("claims", 400);
const UNITS = arg("units", 240);
const RUNS = arg("runs", 5);
const WIDTH = 12;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** "FULL per claim": the claim's transaction at synchronous=FULL, so sync() finds nothing left to do. */
function claimsAtFull(store) {
  const tx = store.tx;
  let inClaim = false;
  store.tx = function (durable, fn) {
    return tx.call(this, inClaim ? true : durable, fn);
  };
  const claimUnit = store.claimUnit;
  store.claimUnit = function (...args) {
    inClaim = true; // the transaction runs synchronously inside the call
    try {
      return claimUnit.apply(this, args);
    } finally {
      inClaim = false;
    }
  };
}

async function openStore(mode) {
  const dir = mkdtempSync(join(tmpdir(), "bench-claim-"));
  const store = new SqliteStore({ path: join(dir, "store.db") });
  await store.init();
  if (mode === "before") store.sync = async () => {};
  if (mode === "full") claimsAtFull(store);
  if (mode === "atClaim") {
    const claimUnit = store.claimUnit;
    store.claimUnit = async function (...args) {
      const c = await claimUnit.apply(this, args);
      await this.sync();
      return c;
    };
  }
  return { dir, store };
}

async function claimsPerSecond(mode) {
  const { dir, store } = await openStore(mode);
  const now = new Date().toISOString();
  await store.createRun({
    run: "B",
    taskId: "t",
    planVersion: "p",
    inputVersion: "i",
    plan: {},
    caps: {},
    units: ["u"],
    origin: { artifactRoot: dir },
    now,
  });
  let claiming = 0;
  for (let i = 0; i < CLAIMS; i++) {
    const t = performance.now();
    const c = await store.claimUnit("B", "u", "w", 60_000, now);
    if (mode !== "atClaim") await store.sync(); // atClaim's claimUnit has synced
    claiming += performance.now() - t;
    await store.releaseLease("B", "u", c.token);
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return CLAIMS / (claiming / 1000);
}

async function perUnit(mode, concurrency) {
  const depth = UNITS / WIDTH;
  const { plan } = compile(layeredContract(WIDTH, depth));
  const { dir, store } = await openStore(mode);
  const t = performance.now();
  const out = await runPlan({
    store,
    plan,
    handlers: layeredHandlers(WIDTH, depth),
    run: "B",
    artifacts: join(dir, "artifacts"),
    concurrency,
    crash: () => {},
    log: () => {},
  });
  const ms = performance.now() - t;
  if (out.status !== "done") throw new Error(`bench run ended ${out.status}`);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return ms / UNITS;
}

const modes = ["before", "full", "atClaim", "now"];
const rate = { before: [], full: [], atClaim: [], now: [] };
const seq = { before: [], full: [], atClaim: [], now: [] };
const grouped = { before: [], full: [], atClaim: [], now: [] };
await claimsPerSecond("now"); // warm-up
for (let r = 0; r < RUNS; r++) {
  for (const m of r % 2 ? [...modes].reverse() : modes) {
    rate[m].push(await claimsPerSecond(m));
    seq[m].push(await perUnit(m, 1));
    grouped[m].push(await perUnit(m, WIDTH));
  }
}
const f = (x, d = 2) => x.toFixed(d);
const row = (name, xs, d) => {
  const [b, ...rest] = modes.map((m) => median(xs[m]));
  return `| ${name} | ${f(b, d)} | ${rest.map((x) => `${f(x, d)} (${f(x / b)}x)`).join(" | ")} |`;
};
console.log(`| measure | before: claim at NORMAL, no sync | FULL per claim | sync at claim | now: sync before the first act outside |`);
console.log(`|---|---|---|---|---|`);
console.log(row(`claims per second (claim + sync, then release; ${CLAIMS} timed)`, rate, 0));
console.log(row("runPlan wall ms per unit, concurrency 1", seq));
console.log(row(`runPlan wall ms per unit, concurrency ${WIDTH}`, grouped));
console.log(
  `\nmedian of ${RUNS} runs per mode, alternating; runPlan: ${UNITS} units (${WIDTH} wide x ${UNITS / WIDTH} deep; no-op, the last level writes an artifact).`,
);
