/**
 * A compensation that itself fails: the trip is cancelled at the
 * confirmation gate, and the booking service answers the first cancellation
 * with a 503. The saga stops there and blocks (reason compensation-failed):
 * one cancel call reached the service, a later resume makes none (no retry
 * loop), and only the operator's next cancel finishes the saga.
 */
import { drill } from "@taskspec/runtime";
import { extraCase } from "../support.js";
import { caseOf, getJson, manual, postJson, record, servicesOf, step, type ExtraContext } from "./context.js";

const compensatorCalls = async (url: string) => {
  const stats = await getJson<{ callsPerKey: Record<string, number> }>(`${url}/stats`);
  return Object.entries(stats.callsPerKey)
    .filter(([k]) => k.startsWith("compensate:"))
    .reduce((s, [, n]) => s + n, 0);
};

export async function compensationFails(x: ExtraContext): Promise<drill.CaseResult> {
  const c = caseOf(
    "trip-booking/compensation-fails/hotel",
    "trip-booking",
    "compensable",
    [],
    "staleness: the first compensator call fails (503); the saga blocks instead of looping, a resume does not retry it, the operator's next cancel finishes it",
    "booking service fails the next write (503) during cancel",
    [],
    "cancel",
  );
  return extraCase(x, x.setups["trip-booking"], c, x.baselines["trip-booking"].cancel!, async (sb, world) => {
    const booking = servicesOf(world).booking!;
    const first = await step(sb, "run");
    await postJson(`${booking}/_admin/faults`, { failNext: 1 });
    const failed = await step(sb, "cancel");
    const callsAfterFailure = await compensatorCalls(booking);
    const resumed = await step(sb, "run");
    const callsAfterResume = await compensatorCalls(booking);
    const hold = await drill.withStore(sb, async (store) => (await store.getRun(sb.run))!.hold?.reason);
    const again = await step(sb, "cancel");
    return {
      driven: manual(
        [
          record("run", first),
          { action: "fault", note: "booking: failNext 1" },
          record("cancel", failed),
          record("run", resumed),
          record("cancel", again),
        ],
        again.outcome?.status ?? "error",
      ),
      checks: [
        ["the run first stops at the confirmation gate", first.outcome?.status === "blocked"],
        [
          "the failed cancel compensated nothing and stopped at the failure",
          failed.outcome?.status === "blocked" &&
            failed.outcome.report?.compensated.length === 0 &&
            failed.outcome.report.failed.length === 1,
        ],
        ["the run is held with reason compensation-failed", hold === "compensation-failed"],
        ["one compensator call reached the service", callsAfterFailure === 1],
        ["the resume made no compensator call and stayed blocked", callsAfterResume === 1 && resumed.outcome?.status === "blocked"],
        ["the operator's next cancel finished the saga", again.outcome?.status === "cancelled"],
      ],
    };
  });
}
