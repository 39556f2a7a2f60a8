/**
 * Handler code is tracked, with the real CLI on a SQLite
 * file: each result records the digests of the code it ran with; an edit of
 * a unit's handler or of a tool adapter is reported by `status` and `resume`
 * and re-runs nothing by itself; `taskspec rerun` re-runs it; a unit that
 * declares `on_code_change: rerun` re-runs at the next `resume`; `impact
 * --change <tool>` previews an adapter change.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const { dir, log, store } = tempRunDir("taskspec-code-");
// --isolation none: the handlers below log to a file outside their attempt directory
const cli = (args: string[]) => runCli(args, { TASKSPEC_TEST_LOG: log, ...LEGACY_FIXTURE_ENV }, store);
const invocations = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);

const contract = join(dir, "code.task.yaml");
writeFileSync(
  contract,
  `contract: 1
task:
  id: code
  version: 1
  goal: Three units; b calls a tool; c re-runs by itself when its code changes
  outputs: [c-out]
  done: [c_ok]
inputs:
  seed: { kind: decision, value: "s1" }
budgets:
  model_calls: 10
  tool_calls: 20
  tokens: 1000
  retries: 1
tools:
  stamp: { class: read }
verifiers:
  has_value: { kind: rule, check: "len(result.value) > 0" }
  c_ok: { kind: rule, check: "count(result.outputs) == 1 && count(result.stale_outputs) == 0" }
units:
  a:
    needs: { seed: content }
    produces: [a-out]
    verify: [has_value]
  b:
    needs: { a: content }
    uses: [stamp]
    produces: [b-out]
    verify: [has_value]
  c:
    needs: { b: content }
    produces: [c-out]
    verify: [has_value]
    on_code_change: rerun
`,
);

/** The handler module, with a marker inside each function's body: changing one changes only that code. */
const handlers = join(dir, "handlers.mjs");
function writeHandlers(v: { a: number; b: number; c: number; stamp: number }) {
  writeFileSync(
    handlers,
    `import { appendFileSync } from "node:fs";
const log = (unit, attempt) => appendFileSync(process.env.TASKSPEC_TEST_LOG, unit + " " + attempt + "\\n");
export default {
  units: {
    a: async (ctx) => { log("a", ctx.attempt.id); /* v${v.a} */ await ctx.write("a-out", { value: "a" }); return { value: "a" }; },
    b: async (ctx) => {
      log("b", ctx.attempt.id); /* v${v.b} */
      const s = await ctx.tool("stamp", {});
      await ctx.write("b-out", { value: "b" + s.mark }); return { value: "b" + s.mark };
    },
    c: async (ctx) => { log("c", ctx.attempt.id); /* v${v.c} */ await ctx.write("c-out", { value: "c" }); return { value: "c" }; },
  },
  tools: { stamp: { call: async () => { /* v${v.stamp} */ return { mark: "!" }; } } },
};
`,
  );
}

interface CodeCheck {
  checked: boolean;
  changes: Array<{ unit: string; attempt: number; changed: string[] }>;
}
const code = async () => (JSON.parse((await cli(["status", "R", "--format", "json"])).stdout) as { code: CodeCheck }).code;

describe("handler code is tracked", () => {
  it("an edited handler is reported by status and resume, re-runs nothing by itself, and `rerun` re-runs it", async () => {
    writeFileSync(log, "");
    writeHandlers({ a: 1, b: 1, c: 1, stamp: 1 });
    const run = await cli(["run", contract, "--handlers", handlers, "--run", "R"]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(invocations()).toEqual(["a a1", "b a1", "c a1"]);
    expect(await code()).toEqual({ checked: true, changes: [] });

    writeHandlers({ a: 2, b: 1, c: 1, stamp: 1 });
    expect(await code()).toEqual({ checked: true, changes: [{ unit: "a", attempt: 1, changed: ["units.a"] }] });
    const text = await cli(["status", "R"]);
    expect(text.stdout).toMatch(/handler code: a a1: units\.a changed since it ran \(kept; `taskspec rerun R a` re-runs it\)/);
    const resumed = await cli(["resume", "R"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/handler code changed under 1 committed result\(s\):\n {2}a a1: units\.a changed/);
    expect(invocations()).toHaveLength(3); // reported, not re-run

    expect((await cli(["rerun", "R", "a"])).code).toBe(0);
    expect((await cli(["resume", "R"])).code).toBe(0);
    expect(invocations().slice(3)).toEqual(["a a2"]); // b and c kept by early cutoff: a wrote the same
    expect(await code()).toEqual({ checked: true, changes: [] });
  });

  it("an edited tool adapter is reported for the units it serves, and `impact --change <tool>` previews it", async () => {
    writeHandlers({ a: 2, b: 1, c: 1, stamp: 2 });
    expect((await code()).changes).toEqual([{ unit: "b", attempt: 1, changed: ["tools.stamp"] }]);
    const preview = await runCli(["impact", contract, "--change", "stamp"]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/^tool adapter stamp: a change of its code re-runs the units it serves: b\n/);
    expect(preview.stdout).toMatch(/ c {2}b --content--> c/);
    const json = JSON.parse((await runCli(["impact", contract, "--change", "stamp", "--format", "json"])).stdout);
    expect(json.tools).toEqual([{ tool: "stamp", units: ["b"] }]);
    expect(json.invalidated.map((u: { unit: string }) => u.unit)).toEqual(["c"]);
  });

  it("a unit that declares on_code_change: rerun re-runs at the next resume, as a recorded decision", async () => {
    writeHandlers({ a: 2, b: 1, c: 2, stamp: 2 });
    const resumed = await cli(["resume", "R"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/c: units\.c changed since it ran; re-running it \(on_code_change: rerun; recorded as a decision\)/);
    expect(resumed.stderr).toMatch(/ {2}b a1: tools\.stamp changed/); // b asks: kept
    expect(invocations().slice(4)).toEqual(["c a2"]);
    const events = (await cli(["events", "R", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data?: Record<string, unknown> });
    const reruns = events.filter((e) => e.type === "decision" && e.data?.action === "rerun");
    expect(reruns.map((e) => [e.data!.unit, e.data!.reason ?? null])).toEqual([
      ["a", null],
      ["c", "on_code_change: rerun; units.c changed"],
    ]);
    expect((await code()).changes).toEqual([{ unit: "b", attempt: 1, changed: ["tools.stamp"] }]);
  });
});
