/**
 * `status` verifies the checkpoint chain and compares the run and unit rows
 * with it; `resume` refuses a store edited outside the runtime. Each case
 * edits a copy of a finished run's SQLite file with plain SQL (what a person
 * with the sqlite3 shell could do), then runs the real CLI.
 */
import Database from "better-sqlite3";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, runCli } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), "taskspec-audit-"));
const template = join(dir, "template.db");

beforeAll(async () => {
  const r = await runCli(
    [
      "run",
      join(FIXTURES, "chain.task.yaml"),
      "--handlers",
      join(FIXTURES, "chain-handlers.mjs"),
      "--run",
      "R1",
      "--artifacts",
      join(dir, "art"),
    ],
    {},
    `sqlite:${template}`,
  );
  expect(r.code, r.stderr).toBe(0);
});

/** A copy of the finished run with `sql` applied. */
function edited(name: string, sql: string): string {
  const file = join(dir, `${name}.db`);
  copyFileSync(template, file);
  const db = new Database(file);
  db.exec(sql);
  db.close();
  return `sqlite:${file}`;
}

const cases: Array<{ name: string; sql: string; problem: RegExp }> = [
  {
    name: "budget used lowered",
    sql: `UPDATE runs SET budget_used = '{}'`,
    problem: /budget model_calls used is 0, below the 3 the last checkpoint recorded/,
  },
  {
    name: "a succeeded unit put back to pending",
    sql: `UPDATE unit_states SET state = 'pending', current_record = NULL WHERE unit = 'c'`,
    problem: /unit c is pending in its row, succeeded by the chain \(checkpoint 3\)/,
  },
  {
    name: "a unit's current record swapped for another unit's",
    sql: `UPDATE unit_states SET current_record = (SELECT id FROM unit_records WHERE unit = 'a') WHERE unit = 'c'`,
    problem: /unit c's current record is \d+, the chain committed record \d+/,
  },
  {
    name: "a unit's result rewritten (downstream units would read it)",
    sql: `UPDATE unit_records SET result = '{"value":"forged"}' WHERE unit = 'a'`,
    problem: /unit a's record \d+ \(result or sources\) differs from what checkpoint 1 committed/,
  },
  {
    name: "a unit's source digests rewritten (they decide re-runs)",
    sql: `UPDATE unit_records SET sources = '{}' WHERE unit = 'b'`,
    problem: /unit b's record \d+ \(result or sources\) differs from what checkpoint 2 committed/,
  },
  { name: "the run's version moved back", sql: `UPDATE runs SET version = 2`, problem: /the run row says version 2, the chain ends at 3/ },
  {
    name: "a checkpoint row edited",
    sql: `UPDATE checkpoints SET budget_used = '{"model_calls":0}' WHERE version = 3`,
    problem: /checkpoint 3 of run R1 does not match its digest/,
  },
  { name: "a checkpoint deleted", sql: `DELETE FROM checkpoints WHERE version = 2`, problem: /checkpoint chain of run R1 has a gap/ },
];

describe("status and resume audit the store against the checkpoint chain", () => {
  it("an untouched store verifies", async () => {
    const store = edited("untouched", "SELECT 1");
    const text = await runCli(["status", "R1"], {}, store);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("checkpoint chain: verified (4 checkpoints; run and unit rows agree with it)");
    const json = JSON.parse((await runCli(["status", "R1", "--format", "json"], {}, store)).stdout);
    expect(json.integrity).toMatchObject({ verified: true, checkpoints: 4, problems: [] });
    expect((await runCli(["resume", "R1"], {}, store)).code).toBe(0);
  });

  for (const c of cases) {
    it.concurrent(c.name, async () => {
      const store = edited(c.name.replace(/\W+/g, "-"), c.sql);
      const status = await runCli(["status", "R1"], {}, store);
      expect(status.stdout).toMatch(/checkpoint chain: NOT VERIFIED \(\d+ problem\(s\)\); the store was changed outside the runtime/);
      expect(status.stdout).toMatch(c.problem);
      expect(status.code).toBe(1);
      const resume = await runCli(["resume", "R1"], {}, store);
      expect(resume.stderr).toMatch(/taskspec: run R1 does not match its checkpoint chain; nothing was run/);
      expect(resume.stderr).toMatch(c.problem);
      expect(resume.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(resume.code).toBe(1);
    });
  }
});
