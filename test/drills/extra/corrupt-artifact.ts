/**
 * A corrupted artifact on disk: while the run waits at the publish gate
 * (already approved), the committed draft is overwritten. The resume re-hashes
 * current artifacts, marks the draft corrupt, re-runs its producer; the
 * re-run writes the same bytes, so `build` is restored by early cutoff, the
 * gate's inputs hash as approved, and the post goes out once.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drill } from "@taskspec/runtime";
import { eventsOf, extraCase, joinDrives } from "../support.js";
import { caseOf, drive, manual, record, step, type ExtraContext } from "./context.js";

export async function corruptArtifact(x: ExtraContext): Promise<drill.CaseResult> {
  const c = caseOf(
    "publish-post/corrupt-artifact/write",
    "publish-post",
    "idempotent",
    ["write"],
    "staleness: the committed draft is overwritten on disk; detected by hash, write redone, build kept by early cutoff, the approval still holds",
    "committed draft overwritten on disk",
  );
  return extraCase(x, x.setups["publish-post"], c, x.baselines["publish-post"].complete, async (sb) => {
    const first = await step(sb, "run");
    await drill.approveGate(sb, "publish");
    const [draft] = await drill.withStore(sb, (store) => store.listArtifacts(sb.run, { unit: "write", status: "committed" }));
    const file = join(sb.artifacts, draft!.path);
    chmodSync(file, 0o644);
    writeFileSync(file, "not the draft that was committed");
    const rest = await drive(sb, { crashes: [], scenario: "complete" });
    const events = await eventsOf(sb);
    const approvals = await drill.withStore(sb, (store) => store.listApprovals(sb.run));
    return {
      driven: joinDrives(
        manual([record("run", first), { action: "approve", note: "publish" }, { action: "corrupt", note: draft!.path }], ""),
        rest,
      ),
      checks: [
        ["the resume marked the draft corrupt", events.some((e) => e.type === "artifact-corrupt" && e.unit === "write")],
        ["build was kept by early cutoff", events.some((e) => e.type === "early-cutoff" && e.unit === "build")],
        ["the first approval still applied (one approval)", approvals.length === 1],
      ],
    };
  });
}
