/**
 * `taskspec drill` end to end, as real processes over the built CLI: a few
 * cases of each example contract pass (exit 0, the table), the split layout
 * (`--tools`) as well, JSON output, a user's contract whose receipts carry
 * an undeclared field into an artifact (the re-runs write the same bytes; a
 * handler whose artifact changes with the attempt fails, the artifact
 * named), and an unsafe handler module (an effect outside the ledger) is
 * caught (exit 1, duplicate effect named).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contractOf, handlersOf, ROOT, verifiersOf } from "./support.js";

const bin = join(ROOT, "cli/bin/taskspec.js");
const world = (name: string) => join(ROOT, "test/drills/worlds", `${name}.mjs`);

function taskspec(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const drill = (name: string, only: string[], extra: string[] = [], handlers = handlersOf(name)) => {
  const verifiers = verifiersOf(name);
  return taskspec([
    "drill",
    contractOf(name),
    "--handlers",
    handlers,
    ...(verifiers ? ["--verifiers", verifiers] : []),
    "--world",
    world(name),
    ...only.flatMap((o) => ["--only", o]),
    ...extra,
  ]);
};

describe("taskspec drill", () => {
  it.each([
    ["publish-post", ["after-commit-before-ack/write", "before-effect/publish/create_post"]],
    ["trip-booking", ["during-compensation/hotel", "during-approval-wait/confirm"]],
    ["market-entry-pack", ["mid-checkpoint/S04"]],
  ])(
    "%s: the chosen cases pass, one table row each, exit 0",
    async (name, only) => {
      const r = await drill(name, only);
      expect(r.stderr).not.toContain("internal error");
      expect(r.code).toBe(0);
      for (const o of only) expect(r.stdout).toMatch(new RegExp(`${name}/${o}\\S*\\s.*\\sPASS`));
      expect(r.stdout).toContain(`${only.length} cases: ${only.length} PASS, 0 FAIL; duplicate effects 0; unnecessary re-runs 0`);
    },
    600_000,
  );

  it("--repeat 2: each case runs with two timing seeds and reports pass^2; a case failing under any seed fails", async () => {
    const r = await drill("publish-post", ["after-commit-before-ack/write"], ["--repeat", "2"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/publish-post\/after-commit-before-ack\/write\S*\s.*\sPASS \(pass\^2: 2\/2\)/);
    expect(r.stdout).toContain(
      "1 cases: 1 PASS, 0 FAIL; duplicate effects 0; unnecessary re-runs 0; pass^2 (every one of 2 timing seeds passed) for 1 of 1 cases",
    );
    const unsafe = await drill(
      "publish-post",
      ["after-artifact-before-commit/write"],
      ["--repeat", "2", "--format", "json"],
      join(ROOT, "test/drills/fixtures/unsafe-publish-post.mjs"),
    );
    expect(unsafe.code).toBe(1);
    const [result] = (JSON.parse(unsafe.stdout) as { results: Array<{ verdict: string; repeats: unknown; reasons: string[] }> }).results;
    expect(result).toMatchObject({ verdict: "FAIL", repeats: { k: 2, passed: 0, failedSeeds: [1, 2] } });
    expect(result!.reasons.some((x) => x.startsWith("seed 2: "))).toBe(true);
    expect((await taskspec(["drill", contractOf("publish-post"), "--handlers", handlersOf("publish-post"), "--repeat", "0"])).code).toBe(2);
  }, 600_000);

  it("--tools: the split layout (a units-only handler module and a tools module) drills like the one-module layout", async () => {
    const split = await drill(
      "publish-post",
      ["before-effect/publish/create_post"],
      ["--tools", join(ROOT, "examples/dist/tools/publish-post.js")],
      join(ROOT, "examples/dist/units/publish-post.js"),
    );
    expect(split.stderr).not.toContain("internal error");
    expect(split.code, split.stdout + split.stderr).toBe(0);
    expect(split.stdout).toContain("1 cases: 1 PASS, 0 FAIL; duplicate effects 0; unnecessary re-runs 0");
    // without --tools the units-only module is refused before any case, naming the option
    const refused = await drill(
      "publish-post",
      ["before-effect/publish/create_post"],
      [],
      join(ROOT, "examples/dist/units/publish-post.js"),
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/pass --tools/);
  }, 600_000);

  it("--format json gives the report with observations", async () => {
    const r = await drill("publish-post", ["after-artifact-before-commit/research"], ["--format", "json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      contract: string;
      results: Array<{ verdict: string; observation: { reruns: string[]; orphansReported: number } }>;
    };
    expect(report.contract).toBe("publish-post");
    expect(report.results.map((x) => [x.verdict, x.observation.reruns])).toEqual([["PASS", ["research"]]]);
    expect(report.results[0]!.observation.orphansReported).toBeGreaterThan(0);
  }, 600_000);

  it("a user's contract whose receipt carries an undeclared field into an artifact: the re-runs write the same bytes; an artifact that changes with the attempt fails, named", async () => {
    const fixture = (f: string) => join(ROOT, "test/drills/fixtures", f);
    const pr = (handlers: string, only: string[]) =>
      taskspec([
        "drill",
        fixture("pr.task.yaml"),
        "--handlers",
        fixture(handlers),
        "--world",
        fixture("pr-world.mjs"),
        ...only.flatMap((o) => ["--only", o]),
        "--format",
        "json",
      ]);
    type Report = {
      results: Array<{ case: { id: string }; verdict: string; reasons: string[]; observation: { artifactsMatch: boolean } }>;
      baseline: { artifacts: Record<string, Record<string, string>> };
    };
    const [same, differs] = await Promise.all([
      pr("pr-handlers.mjs", ["after-artifact-before-commit/open", "after-effect-before-receipt/open"]),
      pr("pr-handlers-attempt.mjs", ["after-artifact-before-commit/open"]),
    ]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    const passed = JSON.parse(same.stdout) as Report;
    expect(Object.keys(passed.baseline.artifacts).sort()).toEqual(["check", "open"]);
    expect(passed.results.map((r) => [r.case.id, r.verdict, r.observation.artifactsMatch])).toEqual([
      ["pr/after-effect-before-receipt/open/open_pr", "PASS", true],
      ["pr/after-artifact-before-commit/open", "PASS", true],
    ]);
    expect(differs.code).toBe(1);
    const [failed] = (JSON.parse(differs.stdout) as Report).results;
    expect(failed!.verdict).toBe("FAIL");
    expect(failed!.reasons).toEqual([
      expect.stringMatching(
        /^final artifacts differ from an uninterrupted run: open\/pr sha256 [0-9a-f]{12}, the uninterrupted run's [0-9a-f]{12}$/,
      ),
    ]);
  }, 600_000);

  it("an effect outside the ledger is caught: duplicate at the blog, exit 1", async () => {
    const r = await drill(
      "publish-post",
      ["after-artifact-before-commit/write"],
      [],
      join(ROOT, "test/drills/fixtures/unsafe-publish-post.mjs"),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/after-artifact-before-commit\/write.*FAIL/);
    expect(r.stdout).toContain("effects done twice at the remote: blog post under key null x2");
  }, 600_000);

  it("--format junit: one test case per drill case, a failed one with its reasons", async () => {
    const r = await drill(
      "publish-post",
      ["after-artifact-before-commit/write"],
      ["--format", "junit"],
      join(ROOT, "test/drills/fixtures/unsafe-publish-post.mjs"),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="taskspec drill" tests="1" failures="1">/);
    expect(r.stdout).toMatch(
      /<testcase name="publish-post\/after-artifact-before-commit\/write[^"]*" classname="taskspec.drill" time="[\d.]+">/,
    );
    expect(r.stdout).toMatch(/<failure message="[^"]*effects done twice at the remote: blog post under key null x2[^"]*" type="FAIL">/);
  }, 600_000);

  it("--case-timeout: a case whose step hangs fails past its timeout, its processes killed, and the drill ends", async () => {
    const r = await drill(
      "publish-post",
      ["after-artifact-before-commit/write"],
      ["--case-timeout", "8s", "--format", "json"],
      join(ROOT, "test/drills/fixtures/hang-on-retry-publish-post.mjs"),
    );
    expect(r.code, r.stderr).toBe(1);
    const [result] = (JSON.parse(r.stdout) as { results: Array<{ verdict: string; reasons: string[]; ms: number }> }).results;
    expect(result).toMatchObject({
      verdict: "FAIL",
      reasons: ["drill error: the case ran past its timeout of 8 s (a step hung: its processes were killed)"],
    });
    expect(
      (await taskspec(["drill", contractOf("publish-post"), "--handlers", handlersOf("publish-post"), "--case-timeout", "0s"])).code,
    ).toBe(2);
  }, 600_000);

  it("bad usage exits 2 with a message", async () => {
    const r = await taskspec(["drill", contractOf("publish-post"), "--handlers", handlersOf("publish-post"), "--parallel", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--parallel must be a whole number from 1 to 64");
  });
});
