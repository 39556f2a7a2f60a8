/**
 * Only behaviour invalidates, end to end with the real CLI:
 * prose (`describe`), grouping (`phase`) and attempt policy (`retry`,
 * `timeout`) edited into a done run re-run nothing, and `impact old new` says
 * which keys of a unit changed and which of them are policy only.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const { dir, log, store } = tempRunDir("taskspec-edits-");

// no --store appended: `impact` takes none, so each call names the store itself
const cli = (args: string[]) => runCli(args, { TASKSPEC_TEST_LOG: log });

const original = readFileSync(join(FIXTURES, "chain.task.yaml"), "utf8");
const prose = original.replace(
  "  b:\n    needs: { a: content }\n",
  "  b:\n    describe: Appends b to what a wrote   # a comment\n    phase: middle\n    retry: { max: 3 }\n    timeout: 10m\n    needs: { a: content }\n",
);

describe("edits that are not behaviour", () => {
  it("describe, phase, retry and timeout added to a done run re-run nothing; impact names them as policy", async () => {
    const v1 = join(dir, "chain.task.yaml");
    const v2 = join(dir, "chain-prose.task.yaml");
    writeFileSync(v1, original);
    writeFileSync(v2, prose);
    writeFileSync(log, "");
    const run = await cli(["run", v1, "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "E1", "--store", store]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(3);

    const edit = await cli(["impact", v1, v2]);
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stdout).toMatch(/no unit or input changed/);
    expect(edit.stdout).toMatch(/policy changed \(applies to future attempts, re-runs nothing\):\n {2}b: retry, timeout, phase/);
    expect(edit.stdout).toMatch(/0 of 3 units must re-run; 3 stay valid/);

    const resumed = await cli(["resume", "E1", "--contract", v2, "--store", store]);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(3); // nothing ran again
    const status = JSON.parse((await cli(["status", "E1", "--format", "json", "--store", store])).stdout);
    expect(status).toMatchObject({ status: "done", counts: { current: 3, superseded: 0 } });
  });

  it("a behavioural edit is reported with the keys that changed", async () => {
    const v1 = join(dir, "chain.task.yaml");
    const v3 = join(dir, "chain-verify.task.yaml");
    writeFileSync(
      v3,
      original.replace(
        "    produces: [b-out]\n    verify: [has_value]",
        '    produces: [b-out]\n    verify: [has_value, { check: "len(result.value) > 2" }]\n    retry: { max: 2 }',
      ),
    );
    const edit = await cli(["impact", v1, v3]);
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stdout).toMatch(/changed units: b/);
    expect(edit.stdout).toMatch(/ b {2}changed: verify\n/);
    expect(edit.stdout).toMatch(/policy changed[^\n]*\n {2}b: retry/);
    const json = JSON.parse((await cli(["impact", v1, v3, "--format", "json"])).stdout);
    expect(json.diff.keys).toEqual({ b: { behaviour: ["verify"], policy: ["retry"] } });
  });
});
