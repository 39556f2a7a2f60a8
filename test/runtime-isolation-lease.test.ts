/**
 * A handler process is killed when its attempt's lease is lost: the handler spins in a synchronous loop under a long timeout, the
 * store refuses the lease renewal as another worker's takeover would, and the
 * process is gone; the attempt is discarded as stale, never committed.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { compileText, freshStore, tempDir } from "../runtime/test/fixtures/load.js";
import { runPlan } from "../runtime/src/engine/run-plan.js";
import { StaleFencingTokenError } from "../runtime/src/errors.js";
import { processRunner } from "../runtime/src/isolation/host.js";
import { handlerReadRoots } from "../runtime/src/isolation/launch.js";
import type { Store } from "../runtime/src/store/types.js";

vi.setConfig({ testTimeout: 60_000 });

const CONTRACT = `contract: 1
task:
  id: spin
  version: 1
  goal: a handler that never yields
  outputs: [out]
  done: [ok]
budgets:
  retries: 0
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  spin: { produces: [out], verify: [ok], timeout: 10m }
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it("a lost lease kills the handler process, a synchronous loop included; the attempt is discarded", async () => {
  const dir = tempDir("taskspec-lease-");
  const handlers = join(dir, "handlers.mjs");
  // the handler process may write only in its attempt directory, its working directory
  writeFileSync(
    handlers,
    `import { writeFileSync } from "node:fs";\nexport default { units: { spin: () => { writeFileSync("pid", String(process.pid)); for (;;); } }, tools: {} };\n`,
  );
  const inner = await freshStore(dir);
  const artifacts = join(dir, "artifacts");
  const pidFile = join(artifacts, "runs/R/spin/a1/pid");
  let renewals = 0;
  // Once the handler spins, the store answers renewals as after another worker's takeover. Before that
  // they succeed: on a loaded machine the handler process can take longer to start than the lease lives,
  // and a kill before it wrote its pid would leave nothing to check.
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "renewLease")
        return async (run: string, unit: string, token: number, ttlMs: number, now: string) => {
          if (!existsSync(pidFile)) return target.renewLease(run, unit, token, ttlMs, now);
          renewals++;
          throw new StaleFencingTokenError(run, unit, token, token + 1, "other-host:1:x");
        };
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as Store;
  const stop = new AbortController();
  const run = runPlan({
    store,
    plan: compileText(CONTRACT),
    handlers: { units: { spin: () => null }, tools: {} },
    run: "R",
    artifacts,
    leaseTtlMs: 600,
    crash: () => {},
    log: () => {},
    stop: stop.signal,
    runner: processRunner({ handlerModule: handlers, readRoots: handlerReadRoots(handlers), env: {} }),
  });
  const started = Date.now();
  while (!existsSync(pidFile) && Date.now() - started < 50_000) await new Promise((r) => setTimeout(r, 50));
  const pid = Number(readFileSync(pidFile, "utf8"));
  stop.abort(); // claim nothing new once this attempt has settled
  await run;
  expect(renewals).toBeGreaterThan(0);
  // SIGKILLed at once; reaped by the event loop a moment later (a zombie still answers kill 0)
  const killedBy = Date.now();
  while (alive(pid) && Date.now() - killedBy < 3000) await new Promise((r) => setTimeout(r, 50));
  expect(alive(pid)).toBe(false);
  const events = await inner.listEvents("R");
  expect(events.some((e) => e.type === "stale-attempt-discarded" && e.unit === "spin")).toBe(true);
  expect(events.some((e) => e.type === "unit-succeeded")).toBe(false);
  await inner.close();
});
