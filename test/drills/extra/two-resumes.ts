/**
 * Two resumes at once: the worker died after the blog created the post and
 * before the receipt was stored; two recovery processes start together. The
 * UNKNOWN publish is looked up (not re-sent), publish re-runs once in total,
 * and the blog saw one create call.
 */
import { drill } from "@taskspec/runtime";
import { extraCase, joinDrives } from "../support.js";
import { caseOf, drive, getJson, manual, record, servicesOf, stepHandle, type ExtraContext } from "./context.js";

export async function twoResumes(x: ExtraContext): Promise<drill.CaseResult> {
  const arm: drill.CrashArm = { point: "after-effect-before-receipt", unit: "publish", tool: "create_post" };
  const c = caseOf(
    "publish-post/two-resumes/publish/create_post",
    "publish-post",
    "dedup",
    ["publish"],
    "concurrency: two resumes at once after the receipt was lost; one lookup settles it, publish re-runs once",
    "two resumes started at once",
    [arm],
  );
  return extraCase(x, x.setups["publish-post"], c, x.baselines["publish-post"].complete, async (sb, world) => {
    const crashed = await drive(sb, { crashes: [arm], scenario: "complete", untilFired: true });
    // Both started in one go: under a seed each draws its own start pause, so which racer starts first and by how much varies.
    const racers = await Promise.all([stepHandle(sb, "run"), stepHandle(sb, "run")]);
    const [a, b] = await Promise.all(racers.map((r) => r.done));
    const rest = await drive(sb, { crashes: [], scenario: "complete" });
    const stats = await getJson<{ callsPerKey: Record<string, number> }>(`${servicesOf(world).blog}/stats`);
    return {
      driven: joinDrives(crashed, manual([record("race", a), record("race", b)], ""), rest),
      checks: [
        [
          "both resumes end on their own (no signal, no internal error)",
          [a, b].every((r) => r.signal === null && r.outcome?.status !== undefined && r.outcome.status !== "error"),
        ],
        ["create_post reached the blog once in all", Object.values(stats.callsPerKey).reduce((s, n) => s + n, 0) === 1],
      ],
    };
  });
}
