/**
 * A plan read from JSON is checked before anything runs.
 * The real CLI on the chain fixture: a plan compiled with `compile -o` runs;
 * the same plan with `task.done` emptied (its planHash left as compiled) is
 * refused with exit 2, the file and both hashes named, and nothing recorded;
 * broken JSON is refused at file:line:col; a plan that fails the plan schema
 * names the offending place. Never a stack trace.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Plan } from "@taskspec/compiler";
import { FIXTURES, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const { dir, log } = tempRunDir("taskspec-plan-json-");
const HANDLERS = join(FIXTURES, "chain-handlers.mjs");
const compiled = join(dir, "chain.plan.json");

const run = (file: string, name: string) =>
  runCli(
    ["run", file, "--handlers", HANDLERS, "--run", "R", "--format", "json"],
    { TASKSPEC_TEST_LOG: log },
    `sqlite:${join(dir, `${name}.db`)}`,
  );

const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |internal error/);

describe("taskspec run plan.json checks the plan", () => {
  it("a plan compiled with compile -o runs to done", async () => {
    const c = await runCli(["compile", join(FIXTURES, "chain.task.yaml"), "-o", compiled]);
    expect(c.code).toBe(0);
    const out = await run(compiled, "valid");
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ run: "R", status: "done" });
  });

  it("an edited plan (task.done emptied) is refused: exit 2, file and hashes named, nothing recorded", async () => {
    const plan = JSON.parse(readFileSync(compiled, "utf8")) as Plan;
    plan.task.done = [];
    const file = join(dir, "edited.plan.json");
    writeFileSync(file, JSON.stringify(plan, null, 2));
    const out = await run(file, "edited");
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: its content does not match its planHash \\(recorded ${plan.planHash.slice(0, 12)}…, content hashes to [0-9a-f]{12}…\\)`,
      ),
    );
    expect(out.stderr).toMatch(/nothing was run/);
    noStackTrace(out.stderr);
    expect(existsSync(join(dir, "edited.db"))).toBe(false);
    // the drill, the other command that loads a plan file, refuses it the same way before any case runs
    const drilled = await runCli(["drill", file, "--handlers", HANDLERS, "--work-dir", dir]);
    expect(drilled.code).toBe(2);
    expect(drilled.stderr).toMatch(/its content does not match its planHash .*nothing was run/);
    noStackTrace(drilled.stderr);
  });

  it("garbage JSON is refused at file:line:col", async () => {
    const file = join(dir, "garbage.plan.json");
    writeFileSync(file, '{\n  "format": 1,\n  "units": [1, 2,, 3]\n}\n');
    const out = await run(file, "garbage");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${file}:3:18: not valid JSON: expected a value, found ","`);
    noStackTrace(out.stderr);
  });

  it("a plan that breaks the plan schema names the place", async () => {
    const plan = JSON.parse(readFileSync(compiled, "utf8")) as Plan;
    (plan.units[1]!.retry as { max: unknown }).max = "many";
    const file = join(dir, "schema.plan.json");
    writeFileSync(file, JSON.stringify(plan));
    const out = await run(file, "schema");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${file}: does not match the plan schema: /units/1/retry/max must be integer`);
    noStackTrace(out.stderr);
  });
});
