/**
 * An approval is bound to the plan version and to the hashes of the gate's
 * input artifacts; if either changed, the old approval is not reused:
 *  - contract version: the publish gate is approved, then the contract is
 *    edited (plan version changes) before the resume;
 *  - artifact hash: the gate is approved, then a source page changes and an
 *    operator re-runs research, so the built site the gate reads is new.
 * Each time the resumed run must stop at the gate again, with nothing sent to
 * the blog until a second approval.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drill, operator } from "@taskspec/runtime";
import { contractVariant, eventsOf, extraCase, joinDrives } from "../support.js";
import { blockedAt, caseOf, drive, manual, record, step, type ExtraContext } from "./context.js";

export async function approvalOldVersion(x: ExtraContext): Promise<drill.CaseResult> {
  const c = caseOf(
    "publish-post/stale-approval/plan-version",
    "publish-post",
    "dedup",
    [],
    "staleness: publish approved for plan v1, the contract changes before the resume; the old approval is not reused, the gate asks again",
    "contract edited after the approval",
  );
  return extraCase(x, x.setups["publish-post"], c, x.baselines["publish-post"].complete, async (sb, world) => {
    const first = await step(sb, "run");
    await drill.approveGate(sb, "publish");
    const v2 = contractVariant(sb, "publish-post", [["    retry: { max: 1 }", "    retry: { max: 2 }"]]);
    const changed = { ...sb, contract: v2.contract, plan: v2.plan };
    const again = await step(sb, "run", {}, changed);
    const before = await world.observe();
    const events = await eventsOf(sb);
    const planChanged = events.find((e) => e.type === "plan-changed");
    await drill.approveGate(changed, "publish");
    const rest = await drive(changed, { crashes: [], scenario: "complete" });
    const approvals = await drill.withStore(sb, (store) => store.listApprovals(sb.run));
    return {
      driven: joinDrives(
        manual(
          [
            record("run", first),
            { action: "approve", note: "publish (plan v1)" },
            { ...record("run", again), note: "contract edited: plan v2" },
            { action: "approve", note: "publish (plan v2)" },
          ],
          "",
        ),
        rest,
      ),
      checks: [
        ["the resume under the edited contract records the plan change", planChanged !== undefined],
        ["it stops at the publish gate again", blockedAt(again, "publish", "approval")],
        [
          "the event log shows the gate blocked for approval after the plan change",
          events.some(
            (e) =>
              e.type === "blocked" &&
              (e.seq ?? 0) > (planChanged?.seq ?? Infinity) &&
              JSON.stringify(e.data ?? {}).includes('"unit":"publish","reason":"approval"'),
          ),
        ],
        ["nothing reached the blog before the second approval", Object.keys(before.effects).length === 0],
        ["two approvals were needed", approvals.length === 2],
      ],
    };
  });
}

export async function approvalOldArtifact(x: ExtraContext): Promise<drill.CaseResult> {
  const c = caseOf(
    "publish-post/stale-approval/artifact-hash",
    "publish-post",
    "dedup",
    ["research", "write", "build"],
    "staleness: publish approved, then a source changes and research is re-run; the site the gate reads has a new hash, so the old approval is not reused",
    "source page edited and research re-run after the approval",
  );
  const setup = x.setups["publish-post"];
  const base = x.baselines["publish-post"].complete;
  return extraCase(x, setup, c, base, async (sb, world) => {
    const first = await step(sb, "run");
    await drill.approveGate(sb, "publish");
    const page = join(world.env.TASKSPEC_PAGES_DIR!, "web-01.md");
    writeFileSync(page, readFileSync(page, "utf8").replace("Finding: a consistent cut", "Finding: a consistent global cut"));
    await drill.withStore(sb, (store) =>
      operator.rerun(store, sb.run, "research", { by: "drill", operatorKey: sb.operatorKey }, new Date().toISOString()),
    );
    const again = await step(sb, "run");
    const before = await world.observe();
    await drill.approveGate(sb, "publish");
    const rest = await drive(sb, { crashes: [], scenario: "complete" });
    const after = await world.observe();
    const blogOnly = (o: drill.WorldObservation) => ({ ...o, state: { blog: (o.state as { blog?: unknown }).blog } });
    return {
      // a source page changed on purpose: research, the draft and the site are new (the world is compared on the blog alone)
      artifacts: { notCompared: "a source page was changed and research re-run on purpose" },
      driven: joinDrives(
        manual(
          [
            record("run", first),
            { action: "approve", note: "publish" },
            { action: "rerun", note: "research (a source page changed)" },
            record("run", again),
            { action: "approve", note: "publish (new site hash)" },
          ],
          "",
        ),
        rest,
      ),
      // The workspace holds both versions of the notes by design (attempt-keyed copies); the world to compare is the blog.
      world: { observed: blogOnly(after), expected: blogOnly(base.world) },
      checks: [
        ["the re-run stops at the publish gate again", blockedAt(again, "publish", "approval")],
        ["nothing reached the blog before the second approval", Object.keys(before.effects).length === 0],
      ],
    };
  });
}
