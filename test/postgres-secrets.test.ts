/**
 * The store keeps no secret on PostgreSQL either: the scenario of
 * test/runtime-secrets.test.ts (six planted values, the real CLI, a handler
 * process per attempt) against a fresh schema, then every row of every table
 * of that schema, every file under the artifact root and what `status`,
 * `handoff` and `events` print are read: no planted value anywhere. Needs
 * TASKSPEC_PG_URL (scripts/with-postgres.sh); skips loudly without it.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { filesText, hitsOf, postgresText, runScenario, startProvider, type ScenarioRun } from "./secrets-scenario.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const url = process.env.TASKSPEC_PG_URL;

describeIfAvailable("a run with six planted secrets (PostgreSQL, real processes)", postgresMissing(), () => {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-pg-secrets-"));
  const schema = `secrets_${process.pid}_${Date.now()}`;
  let provider: ChildProcess | undefined;
  let scenario: ScenarioRun;

  beforeAll(async () => {
    const p = await startProvider(dir);
    provider = p.child;
    scenario = await runScenario(dir, `${url}?schema=${schema}`, p.url);
  });
  afterAll(() => provider?.kill());

  it("no row of the store's schema, file under the artifact root or operator view holds a planted value", async () => {
    expect(scenario.run.code, scenario.run.stderr).not.toBe(2);
    const rows = await postgresText(url!, schema);
    const texts = [
      ...rows,
      ...filesText(join(dir, ".taskspec", "artifacts")),
      ...Object.values(scenario.views).map((v) => v.stdout + v.stderr),
    ];
    const { count, where } = hitsOf(texts);
    expect(where).toEqual([]);
    expect(count).toEqual({ input: 0, argument: 0, result: 0, errorKey: 0, modelKey: 0, thrown: 0 });
    // the scan reads what it should: the schema has the run's rows, and values that are kept are found
    expect(rows.some((r) => r.startsWith("effects: "))).toBe(true);
    for (const [name, v] of Object.entries(scenario.views)) expect(v.stdout.length, `${name}: ${v.stderr}`).toBeGreaterThan(0);
    expect(texts.join("\n")).toContain("ops@example.com");
    expect(texts.join("\n")).toContain("m-1");
    expect(texts.join("\n")).toContain("***");
  });
});
