/**
 * A contract upgraded during recovery (seed 004's third interruption, on top
 * of a crash): the worker dies with U31's files written but not committed;
 * meanwhile the audience changes to the investment committee (task version
 * 5). The resume under the new contract supersedes exactly U27-U30 (the
 * completed units that read the audience), re-runs them and the crashed U31,
 * and delivers the same five files as an uninterrupted run of version 5.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plan } from "@taskspec/compiler";
import { drill } from "@taskspec/runtime";
import { artifactsOf, contractVariant, eventsOf, extraCase } from "../support.js";
import { caseOf, drive, type ExtraContext } from "./context.js";

/** The delivered files of a run, hashed from disk through the current manifests. */
async function outputsOf(sb: drill.Sandbox, plan: Plan): Promise<Record<string, string>> {
  return drill.withStore(sb, async (store) => {
    const current = new Set((await store.getRecords(sb.run, { status: "current" })).map((r) => r.id));
    const arts = (await store.listArtifacts(sb.run, { status: "committed" })).filter(
      (a) => a.recordId !== undefined && current.has(a.recordId) && plan.task.outputs.includes(a.name),
    );
    return Object.fromEntries(
      arts
        .map((a) => [
          a.name,
          createHash("sha256")
            .update(readFileSync(join(sb.artifacts, a.path)))
            .digest("hex"),
        ])
        .sort(),
    );
  });
}

export async function contractUpgrade(x: ExtraContext): Promise<drill.CaseResult> {
  const arm: drill.CrashArm = { point: "after-artifact-before-commit", unit: "U31" };
  const reruns = ["U27", "U28", "U29", "U30", "U31"];
  const c = caseOf(
    "market-entry-pack/upgrade-during-recovery/U31",
    "market-entry-pack",
    "idempotent",
    reruns,
    "staleness: crash before U31's commit, then the audience changes (v4 -> v5) before the resume: U27-U30 superseded and re-run, U31 redone, outputs as an uninterrupted v5 run",
    "contract edited before the resume (audience, version 5)",
    [arm],
  );
  return extraCase(x, x.setups["market-entry-pack"], c, x.baselines["market-entry-pack"].complete, async (sb) => {
    const v5 = contractVariant(sb, "market-entry-pack", [
      ["audience: { kind: decision, value: product-team", "audience: { kind: decision, value: investment-committee"],
      ["  version: 4\n", "  version: 5\n"],
    ]);
    const driven = await drive(sb, { crashes: [arm], scenario: "complete", upgradeTo: { contract: v5.contract, plan: v5.plan } });
    const events = await eventsOf(sb);
    // The reference: an uninterrupted run of version 5, in its own store and workspace.
    const ref = drill.makeSandbox(join(sb.dir, "v5"), {
      run: sb.run,
      contract: v5.contract,
      plan: v5.compiled,
      handlers: sb.handlers,
      ...(sb.verifiers ? { verifiers: sb.verifiers } : {}),
      env: { ...sb.env, TASKSPEC_WORKSPACE_DIR: join(sb.dir, "v5-workspace") },
    });
    const refRun = await drive(ref, { crashes: [], scenario: "complete" });
    const superseded = events
      .filter((e) => e.type === "superseded")
      .map((e) => e.unit)
      .sort();
    return {
      driven,
      // the contract changed on purpose: what the run produces is the v5 reference run's
      artifacts: { expected: await artifactsOf(ref) },
      world: {
        observed: { effects: {}, state: await outputsOf(sb, v5.compiled) },
        expected: { effects: {}, state: await outputsOf(ref, v5.compiled) },
      },
      checks: [
        ["the uninterrupted v5 reference run is done", refRun.finalStatus === "done"],
        ["the resume recorded the plan change", events.some((e) => e.type === "plan-changed")],
        ["exactly U27-U30 were superseded", JSON.stringify(superseded) === JSON.stringify(["U27", "U28", "U29", "U30"])],
      ],
    };
  });
}
