/**
 * Two workers race for one unit: after the publish gate is approved, two
 * worker processes start at once on the same store. Exactly one claims
 * `publish` (one lease, one fencing token); the other finds it leased and
 * runs nothing. One post at the blog.
 */
import { drill } from "@taskspec/runtime";
import { extraCase, joinDrives } from "../support.js";
import { caseOf, drive, manual, record, step, stepHandle, type ExtraContext } from "./context.js";

export async function twoWorkersRace(x: ExtraContext): Promise<drill.CaseResult> {
  const c = caseOf(
    "publish-post/race/publish",
    "publish-post",
    "dedup",
    [],
    "concurrency: two workers race for the one ready unit; one claims it, the other runs nothing",
    "two workers started at once",
  );
  return extraCase(x, x.setups["publish-post"], c, x.baselines["publish-post"].complete, async (sb) => {
    const first = await step(sb, "run");
    await drill.approveGate(sb, "publish");
    // Both started in one go: under a seed each draws its own start pause, so which racer starts first and by how much varies.
    const racers = await Promise.all([stepHandle(sb, "run"), stepHandle(sb, "run")]);
    const [a, b] = await Promise.all(racers.map((r) => r.done));
    const rest = await drive(sb, { crashes: [], scenario: "complete" });
    const publishes = drill.readInvocationLog(sb.log).filter((i) => i.unit === "publish");
    return {
      driven: joinDrives(
        manual([record("run", first), { action: "approve", note: "publish" }, record("race", a), record("race", b)], ""),
        rest,
      ),
      checks: [
        ["the first run stops at the publish gate", first.outcome?.status === "blocked"],
        [
          "both racers end on their own (no signal, no internal error)",
          [a, b].every((r) => r.signal === null && r.outcome?.status !== undefined && r.outcome.status !== "error"),
        ],
        ["publish ran once, in one of the racers", publishes.length === 1 && [a.pid, b.pid].includes(publishes[0]!.pid)],
      ],
    };
  });
}
