/**
 * Start-up checks: `run`, `resume` and `worker` compare the
 * handler module with the plan before any work and refuse with the whole list
 * of what is missing (exit 2): unit handlers, tool adapters, lookups and
 * compensators. Real CLI processes; nothing may have run or been recorded.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, REMOTE_CONTRACT, REMOTE_HANDLERS, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const { dir, log, store } = tempRunDir("taskspec-startup-");

const cli = (args: string[]) => runCli(args, { TASKSPEC_TEST_LOG: log }, store);

describe("the handler module is checked against the plan before any work", () => {
  it("run refuses with every missing unit handler, tool adapter, lookup and compensator (exit 2), recording nothing", async () => {
    // the remote fixture's module without the post unit, the hotel booking, its lookup and its compensator
    const partial = join(dir, "partial-handlers.mjs");
    writeFileSync(
      partial,
      `import full from ${JSON.stringify(REMOTE_HANDLERS)};
const { post: _post, ...units } = full.units;
const { book_hotel: _h, find_booking: _f, cancel_booking: _c, ...tools } = full.tools;
export default { ...full, units, tools };
`,
    );
    writeFileSync(log, "");
    const out = await cli(["run", REMOTE_CONTRACT, "--handlers", partial, "--run", "S1"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/does not implement 4 thing\(s\) the plan needs; nothing was run/);
    expect(out.stderr).toMatch(/units\.post: unit handler/);
    expect(out.stderr).toMatch(/tools\.book_hotel: tool adapter \(used by trip\)/);
    expect(out.stderr).toMatch(/tools\.cancel_booking: tool adapter \(compensator of book_flight, compensator of book_hotel\)/);
    expect(out.stderr).toMatch(/tools\.find_booking: tool adapter \(lookup of book_flight, lookup of book_hotel\)/);
    expect(out.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(readFileSync(log, "utf8")).toBe("");
    expect((await cli(["status", "S1"])).code).toBe(2); // no run was recorded
  });

  it("resume and worker refuse a run whose handler module lost a unit, before claiming anything", async () => {
    const chain = join(FIXTURES, "chain.task.yaml");
    const handlers = join(dir, "chain-handlers.mjs");
    writeFileSync(handlers, readFileSync(join(FIXTURES, "chain-handlers.mjs"), "utf8"));
    writeFileSync(log, "");
    // a done run, b marked for re-run, then the module loses unit c
    const started = await cli(["run", chain, "--handlers", handlers, "--run", "S2"]);
    expect(started.code, started.stderr).toBe(0);
    expect((await cli(["rerun", "S2", "b"])).code).toBe(0);
    writeFileSync(handlers, readFileSync(join(FIXTURES, "chain-handlers.mjs"), "utf8").replace('c: unit("c", "b")', ""));
    const before = readFileSync(log, "utf8");
    const resumed = await cli(["resume", "S2"]);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/does not implement 1 thing\(s\)[^\n]*\n {2}units\.c: unit handler/);
    const worker = await cli(["worker", "--run", "S2", "--exit-when-idle"]);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(/run S2: handler module .* does not implement 1 thing\(s\)[^\n]*\n {2}units\.c: unit handler/);
    expect(readFileSync(log, "utf8")).toBe(before); // b was not re-run by either
  });
});
