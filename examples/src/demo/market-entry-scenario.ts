/**
 * Seed 004 replayed (ME-042, 36 units): three interruptions, each in a fresh
 * process. (1) The worker dies after E07 (the seed's U07) wrote its file but
 * before the commit: the file stays an orphan, E07 re-runs as a2. (2) The
 * model-call allowance runs out at S01 (U21): the run blocks with reason
 * `budget`; raising the cap is a recorded decision, and nothing before S01 runs
 * again. (3) After U30 the audience changes: the contract copy is edited, and
 * on resume U27-U30 are superseded (kept) and re-run under the new plan
 * version. The final status must show the seed's figures.
 */
import fs from "node:fs";
import path from "node:path";
import { writeCorpus } from "../handlers/corpus.js";
import { countPerUnit, INVOCATION_LOG_ENV, readInvocations } from "../handlers/invocation-log.js";
import { SPEC, TOOLS, UNITS, VERIFIERS } from "./paths.js";
import type { Report } from "./report.js";
import { describeExit, shown, taskspec, taskspecJson } from "./taskspec-cli.js";

const RUN = "ME-042";

/**
 * The first day's model-call allowance: the 20 calls of U01-U20 plus the one
 * the crashed E07 attempt already spent (charges survive a crash), so S01
 * (U21, 2 calls) is the first unit that does not fit — the seed's budget stop.
 */
const FIRST_ALLOWANCE = 21;

/** What the seed reports at the end of ME-042. */
export const SEED_FIGURES = { current: 36, superseded: 4, orphans: 1, baselineCommits: 41 } as const;

/** Handler invocations per unit the three interruptions justify; every other unit runs once. */
const RERUNS: Record<string, number> = { E07: 2, U27: 2, U28: 2, U29: 2, U30: 2 };

/** The fields of `taskspec status --format json` the demo checks. */
interface StatusJson {
  counts?: Record<string, number>;
  artifacts?: { orphan?: number; orphans?: string[] };
  baselineCommits?: number;
  units?: Array<{ unit: string; state: string; attempts: number; reason?: string }>;
  supersededUnits?: Array<{ unit: string; attempt: number; planVersion: string; reason: string }>;
}

const unitsIn = (status: StatusJson, state: string) => (status.units ?? []).filter((u) => u.state === state).map((u) => u.unit);

function editAudience(contract: string): void {
  const text = fs.readFileSync(contract, "utf8");
  const edited = text
    .replace(/audience: \{ kind: decision, value: product-team,/, "audience: { kind: decision, value: investment-committee,")
    .replace(/^(\s+version:) 4$/m, "$1 5");
  if (edited === text || !edited.includes("investment-committee") || !/^\s+version: 5$/m.test(edited)) {
    throw new Error(`could not edit the audience and version in ${contract}: has specs/market-entry-pack.task.yaml changed shape?`);
  }
  fs.writeFileSync(contract, edited);
}

export async function marketEntryScenario(work: string, report: Report): Promise<void> {
  report.section("Part 2 - seed 004: ME-042, a 36-unit market-entry pack, interrupted three times");
  const dir = path.join(work, "me-042");
  fs.mkdirSync(dir, { recursive: true });
  const contract = path.join(dir, "market-entry-pack.task.yaml");
  fs.copyFileSync(SPEC("market-entry-pack"), contract);
  const schemas = path.join(path.dirname(SPEC("market-entry-pack")), "schemas");
  if (fs.existsSync(schemas)) fs.cpSync(schemas, path.join(dir, "schemas"), { recursive: true });
  writeCorpus(path.join(work, "pages"));
  const store = `sqlite:${path.join(dir, "store.db")}`;
  const log = path.join(dir, "invocations.jsonl");
  const env = {
    TASKSPEC_PAGES_DIR: path.join(work, "pages"),
    TASKSPEC_WORKSPACE_DIR: path.join(dir, "workspace"),
    [INVOCATION_LOG_ENV]: log,
  };

  report.begin(`Compile the contract (a copy in ${dir}; plan v4, audience product-team)`);
  const check = await taskspec(["check", contract]);
  report.say(shown(check));
  report.check("taskspec check exit code", check.code, 0);

  report.begin("Run, armed to die after E07 (U07) wrote its file, before the commit");
  const crashed = await taskspec(
    [
      "run",
      contract,
      "--handlers",
      UNITS("market-entry-pack"),
      "--tools",
      TOOLS("market-entry-pack"),
      "--verifiers",
      VERIFIERS("market-entry-pack"),
      "--store",
      store,
      "--run",
      RUN,
    ],
    {
      ...env,
      TASKSPEC_CRASH_AT: "after-artifact-before-commit@E07",
    },
  );
  report.say(shown(crashed));
  report.check("the worker process", describeExit(crashed), "killed by SIGKILL");

  report.begin(`Set the first day's allowance: ${FIRST_ALLOWANCE} model calls (a recorded decision; the contract's hard cap is 110)`);
  const allowance = await taskspec([
    "budget",
    RUN,
    "--cap",
    `model_calls=${FIRST_ALLOWANCE}`,
    "--reason",
    "first day's model-call allowance",
    "--store",
    store,
  ]);
  report.say(shown(allowance));
  report.check("taskspec budget exit code", allowance.code, 0);

  report.begin("Resume in a new process: the E07 file is an orphan (never adopted), E07 re-runs as a2; the run stops at S01 (U21): budget");
  const budgetStop = await taskspec(["resume", RUN, "--store", store], env);
  report.say(shown(budgetStop));
  const blocked = await taskspec(["status", RUN, "--store", store]);
  report.say(shown(blocked));
  const atBudget = await taskspecJson<StatusJson>(["status", RUN, "--store", store]);
  report.check("current units (U01-U20 = E01-E12, V01-V08)", atBudget.counts?.current, 20);
  report.check("first blocked unit", unitsIn(atBudget, "blocked")[0], "S01");
  report.check("its reason", atBudget.units?.find((u) => u.unit === "S01")?.reason?.split(":")[0], "budget");
  report.check("attempts of E07 (a1 crashed, a2 committed)", atBudget.units?.find((u) => u.unit === "E07")?.attempts, 2);
  report.check("orphan (never adopted)", atBudget.artifacts?.orphans, ["runs/ME-042/E07/a1/evidence-07"]);

  report.begin("Raise the model-call cap to the contract's 110: a recorded decision");
  const raise = await taskspec([
    "budget",
    RUN,
    "--cap",
    "model_calls=110",
    "--reason",
    "client approved the next day's allowance",
    "--store",
    store,
  ]);
  report.say(shown(raise));
  report.check("taskspec budget exit code", raise.code, 0);

  report.begin(
    "Resume; the client's change arrives right after U30 commits, so the worker is stopped there (crash point after-commit-before-ack@U30)",
  );
  const stopped = await taskspec(["resume", RUN, "--store", store], { ...env, TASKSPEC_CRASH_AT: "after-commit-before-ack@U30" });
  report.say(shown(stopped));
  report.check("the worker process", describeExit(stopped), "killed by SIGKILL");

  report.begin("The client changes the audience to the investment committee: edit the contract copy (plan v5)");
  editAudience(contract);
  const preview = await taskspec(["impact", SPEC("market-entry-pack"), contract]);
  report.say(shown(preview));
  report.say("At run time only completed units become superseded: U27-U30. A01, A03 and F01 have not run yet; they simply run under v5.");

  report.begin("Resume: the plan change supersedes U27-U30 (kept), they re-run under v5, the run finishes");
  const finished = await taskspec(["resume", RUN, "--store", store], env);
  report.say(shown(finished));
  report.check("taskspec resume exit code", finished.code, 0);

  report.begin(`taskspec status ${RUN}`);
  const status = await taskspec(["status", RUN, "--store", store]);
  report.say(shown(status));
  const figures = await taskspecJson<StatusJson>(["status", RUN, "--store", store]);
  report.check("current units", figures.counts?.current, SEED_FIGURES.current);
  report.check("superseded units", figures.counts?.superseded, SEED_FIGURES.superseded);
  report.check("orphan artifacts", figures.artifacts?.orphan, SEED_FIGURES.orphans);
  report.check("baseline commits", figures.baselineCommits, SEED_FIGURES.baselineCommits);
  report.check(
    "superseded (kept, with their reason)",
    (figures.supersededUnits ?? []).map((u) => `${u.unit} a${u.attempt}`),
    ["U27 a1", "U28 a1", "U29 a1", "U30 a1"],
  );

  report.begin("Which units ran how often (the handlers' own log, outside the runtime's store)");
  const counts = countPerUnit(readInvocations(log));
  const rerun = Object.fromEntries([...counts].filter(([, n]) => n > 1));
  const once = [...counts].filter(([, n]) => n === 1).map(([unit]) => unit);
  report.say(`ran more than once: ${JSON.stringify(rerun)}`);
  report.say(`ran once: ${once.join(" ")}`);
  report.check("units with a handler invocation", counts.size, 36);
  report.check("units that ran more than once", rerun, RERUNS);
}
