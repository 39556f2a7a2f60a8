/**
 * A worker paused past its lease (SIGSTOP), a second worker taking over once
 * the lease expired (its clock runs ahead of the lease instead of the test
 * sleeping), then SIGCONT: the stale worker must not advance the run.
 *  - paused before `create_post`, woken once the takeover worker has posted
 *    (and is itself stopped holding the new lease): its call carries the old
 *    fencing token and the blog refuses it (409, counted at the blog);
 *  - paused after its handler returned, woken while the takeover worker is
 *    itself stopped holding the new lease: its commit is rejected by the
 *    fencing token (then it is stopped: see the comment in the case);
 *  - the same, woken after the takeover finished the run: its late commit
 *    must be turned away just as quietly.
 */
import { join } from "node:path";
import { drill } from "@taskspec/runtime";
import { eventsOf, extraCase, joinDrives, waitForEvent } from "../support.js";
import { caseOf, drive, manual, record, step, stepHandle, type ExtraContext } from "./context.js";

/** Long enough that the paused worker's own lease renewal never fires during the case. */
const LEASE_MS = 600_000;

type Variant = { at: "create_post" | "after-handler"; wake: "after-takeover" | "during-takeover" };

const DESCRIPTION: Record<string, string> = {
  "create_post/during-takeover":
    "staleness: worker SIGSTOPped before create_post past its lease; a new worker takes over and posts; on SIGCONT the old worker's call carries the stale fencing token and the blog refuses it",
  "after-handler/during-takeover":
    "staleness: worker SIGSTOPped after its handler, past its lease; woken while the new lease holder is itself stopped: its commit is rejected by the fencing token",
  "after-handler/after-takeover":
    "staleness: worker SIGSTOPped after its handler, past its lease; woken after the new worker finished the run: its late commit is turned away",
};

export function pausedWorker(v: Variant) {
  return async (x: ExtraContext): Promise<drill.CaseResult> => {
    const c = caseOf(
      `publish-post/paused-past-lease/publish/${v.at}/${v.wake}`,
      "publish-post",
      "dedup",
      ["publish"],
      DESCRIPTION[`${v.at}/${v.wake}`]!,
      `SIGSTOP at publish/${v.at}, lease expires, takeover, SIGCONT ${v.wake === "during-takeover" ? "while the new holder is stopped" : "after the run is done"}`,
    );
    return extraCase(x, x.setups["publish-post"], c, x.baselines["publish-post"].complete, async (sb, world) => {
      const first = await step(sb, "run");
      await drill.approveGate(sb, "publish");
      const marker = join(sb.dir, "paused-stale");
      const stale = await stepHandle(sb, "run", { leaseTtlMs: LEASE_MS, pause: `publish/${v.at}`, pauseMarker: marker });
      await drill.waitForPause(marker, stale);
      const takeoverMarker = join(sb.dir, "paused-takeover");
      const takeover = await stepHandle(sb, "run", {
        clockOffsetMs: LEASE_MS + 1_000,
        ...(v.wake === "during-takeover" ? { pause: "publish/after-handler", pauseMarker: takeoverMarker } : {}),
      });
      if (v.wake === "during-takeover") await drill.waitForPause(takeoverMarker, takeover);
      else await takeover.done;
      let staleEnded = false;
      void stale.done.then(() => (staleEnded = true));
      stale.signal("SIGCONT");
      let aliveAtRejection = true;
      if (v.wake === "during-takeover") {
        // Once its rejection is on record the old worker is an ordinary worker again, but its clock is behind the
        // takeover's by more than its lease, so each would see the other's leases as expired: stop it, let the holder finish.
        await waitForEvent(
          sb,
          (e) => e.unit === "publish" && e.attempt === 1 && (e.type === "stale-commit-rejected" || e.type === "stale-attempt-discarded"),
          stale.done,
        );
        aliveAtRejection = !staleEnded;
        stale.signal("SIGKILL");
        takeover.signal("SIGCONT");
      }
      const woke = await stale.done;
      const took = await takeover.done;
      const events = await eventsOf(sb);
      const rest = await drive(sb, { crashes: [], scenario: "complete" });
      const staleAttempt = events.filter((e) => e.unit === "publish" && e.attempt === 1);
      const refused = (await world.observe()).fencingRefused ?? 0;
      return {
        driven: joinDrives(
          manual(
            [
              record("run", first),
              { action: "approve", note: "publish" },
              { ...record("run", took), note: "took over after the lease expired" },
              {
                ...record("run", woke),
                note: `paused at ${v.at} past its lease, then SIGCONT${v.wake === "during-takeover" ? "; SIGKILL once its rejection was on record" : ""}${woke.outcome?.error ? `: ${woke.outcome.error}` : ""}`,
              },
            ],
            "",
          ),
          rest,
        ),
        checks: [
          ["the takeover worker finishes the run", took.outcome?.status === "done"],
          [
            "it broke the paused worker's lease as expired",
            events.some(
              (e) => e.type === "lease-broken" && e.unit === "publish" && e.attempt === 1 && (e.data as { why?: string }).why === "expired",
            ),
          ],
          v.wake === "during-takeover"
            ? ["the paused worker was still running (no crash) when its rejection was on record", aliveAtRejection]
            : [
                `the paused worker ends on its own after SIGCONT (no internal error)${woke.outcome?.error ? `; it failed with: ${woke.outcome.error}` : ""}`,
                woke.signal === null && woke.outcome?.status !== undefined && woke.outcome.status !== "error",
              ],
          ["the paused worker's attempt never committed", !staleAttempt.some((e) => e.type === "unit-succeeded")],
          [
            "the event log records the stale worker being turned away",
            staleAttempt.some((e) => e.type === "stale-commit-rejected" || e.type === "stale-attempt-discarded"),
          ],
          [
            `the blog refused ${v.at === "create_post" ? "one call" : "no call"} for a stale fencing token (it refused ${refused})`,
            refused === (v.at === "create_post" ? 1 : 0),
          ],
        ],
      };
    });
  };
}
