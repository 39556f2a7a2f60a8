/**
 * pass^K for the concurrency and staleness cases (test/drills/extra), which
 * `taskspec drill --repeat` cannot run: each case K times with timing seeds
 * 1..K (repeatExtra), passing only if every run passed.
 *
 * By default (CI) the mechanism itself, with real processes: the race case
 * under seeds 1 and 2 — the case whose outcome the seeded start pauses move
 * most. drills.test.ts runs every extra case once, without a seed.
 * With TASKSPEC_DRILL_REPEAT=K (scripts/drill-repeat.sh), every extra case K
 * times (K = 1: once, without a seed); the results go to TASKSPEC_DRILL_REPEAT_OUT as a `taskspec drill
 * --format json` report, from which the script records the group.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { drill } from "@taskspec/runtime";
import { repeatExtra, repeatSetting } from "./extra/context.js";
import { EXTRA_CASES } from "./extra/index.js";
import { twoWorkersRace } from "./extra/race.js";
import { exampleContext } from "./support.js";

const k = repeatSetting(process.env["TASKSPEC_DRILL_REPEAT"]);

describe("extra drill cases repeated with timing seeds", () => {
  if (k === undefined) {
    it("the race case runs once per seed 1 and 2, each in its own sandbox, and reports pass^2", async () => {
      const x = await exampleContext(2, ["publish-post"]);
      const r = await repeatExtra(twoWorkersRace, x, 2);
      expect(drill.failureNotes([r])).toEqual([]);
      expect(r.repeats).toEqual({ k: 2, passed: 2, failedSeeds: [] });
    }, 600_000);
  } else {
    it(
      `every concurrency and staleness case passes all ${k} timing seeds`,
      async () => {
        const out = process.env["TASKSPEC_DRILL_REPEAT_OUT"];
        if (!out) throw new Error("TASKSPEC_DRILL_REPEAT_OUT (where the report goes) is not set");
        const x = await exampleContext(2);
        const results = await drill.pool(EXTRA_CASES, 2, async (e) => {
          const r = await repeatExtra(e, x, k);
          process.stderr.write(`[drill] ${drill.verdictCell(r)} ${r.case.id} (${(r.ms / 1000).toFixed(1)} s)\n`);
          return r;
        });
        writeFileSync(out, `${JSON.stringify({ contract: "extra", results }, null, 2)}\n`);
        expect(drill.failureNotes(results)).toEqual([]);
      },
      240 * 60_000,
    );
  }
});
