/**
 * Before a worker decides anything: the run exists (created at version 0 if
 * not), its checkpoint chain verifies, a changed plan or input version is
 * applied as a plan-change checkpoint, volatile inputs are read again (a
 * changed value supersedes its readers) and the current artifacts are checked
 * (a corrupt one supersedes its producer). Idempotent: every resume repeats it.
 */
import { impact, type Plan } from "@taskspec/compiler";
import { CorruptArtifactError } from "../artifacts/storage.js";
import { InvalidTransitionError, RuntimeError, VolatileInputError } from "../errors.js";
import { inputDigest } from "../model/identity.js";
import type { RunRow } from "../model/facts.js";
import { verifyChain } from "./chain.js";
import { nowIso, type EngineCore } from "./core.js";
import { commitDirect, decisionCommit, invalidateCorrupt } from "./direct-commit.js";
import { planChangeChanges, supersedeChanges } from "./invalidate.js";
import { ev, reopen, type WorkerContext } from "./worker-state.js";

/** Creates the run (version 0) if the store does not have it yet. */
export async function ensureRun(core: EngineCore, origin: Omit<RunRow["origin"], "artifactRoot">): Promise<boolean> {
  if (await core.store.getRun(core.run)) return false;
  try {
    await createRun(core, origin);
  } catch (err) {
    // Another worker created it between our check and our insert: resume theirs.
    if (err instanceof InvalidTransitionError && (await core.store.getRun(core.run))) return false;
    throw err;
  }
  return true;
}

async function createRun(core: EngineCore, origin: Omit<RunRow["origin"], "artifactRoot">): Promise<void> {
  const b = core.plan.budgets;
  await core.store.createRun({
    run: core.run,
    taskId: core.plan.task.id,
    planVersion: core.planVersion,
    inputVersion: core.inputVersion,
    plan: core.plan,
    caps: {
      ...(b.model_calls !== undefined ? { model_calls: b.model_calls } : {}),
      ...(b.tool_calls !== undefined ? { tool_calls: b.tool_calls } : {}),
      ...(b.tokens !== undefined ? { tokens: b.tokens } : {}),
      ...(b.wall_clock_ms !== undefined ? { wall_clock_ms: b.wall_clock_ms } : {}),
    },
    units: core.plan.units.map((u) => u.id),
    origin: { ...origin, artifactRoot: core.storage.location },
    now: nowIso(core),
  });
}

/** Verify chain and artifacts, apply plan/input changes, refresh volatile evidence. Idempotent. */
export async function prepare(w: WorkerContext): Promise<void> {
  const { core, options, state } = w;
  const { store, run } = core;
  verifyChain(await store.listChainLinks(run));
  const facts = await store.loadFacts(run);
  state.version = facts.run.version;
  state.runStatus = facts.run.status;
  const oldPlan = (await store.getPlan(facts.run.planVersion)) as Plan | undefined;
  await commitDirect(w, (f) => {
    if (f.run.planVersion === core.planVersion && f.run.inputVersion === core.inputVersion) return undefined;
    if (f.run.planVersion !== facts.run.planVersion)
      throw new RuntimeError(`run ${run} moved to plan ${f.run.planVersion} while this resume started; resume again`);
    if (!oldPlan)
      throw new RuntimeError(`the store has no plan ${f.run.planVersion} to compare with; cannot compute what the change invalidates`);
    const { changes, edit } = planChangeChanges(oldPlan, core.plan, core.planVersion, f.units);
    return {
      kind: "plan-change",
      changes,
      ...reopen(f.run.status),
      plan: { planVersion: core.planVersion, inputVersion: core.inputVersion, plan: core.plan },
      planVersion: options.planVersionRead ?? f.run.planVersion,
      approvals: [],
      nextAction: { kind: "run", units: [] },
      events: [
        ev(core, "plan-changed", {
          data: {
            from: f.run.planVersion,
            to: core.planVersion,
            changes: edit.diff.changes,
            added: edit.diff.units.added,
            removed: edit.diff.units.removed,
          },
        }),
        ...changes
          .filter((c) => c.kind === "supersede")
          .map((c) => ev(core, "superseded", { unit: c.unit, data: { path: c.kind === "supersede" ? c.info.path : "" } })),
      ],
      now: nowIso(core),
    };
  });
  await refreshVolatileInputs(w);
  await checkArtifacts(w);
}

async function refreshVolatileInputs(w: WorkerContext): Promise<void> {
  const { store, run, plan, handlers } = w.core;
  for (const input of plan.inputs) {
    const reader = handlers.inputs?.[input.name];
    if (!input.volatile || !reader) continue;
    let value: unknown;
    try {
      value = await reader({ run: { id: run }, input: input.name });
    } catch (err) {
      throw new VolatileInputError(input.name, run, err instanceof Error ? err.message : String(err));
    }
    const digest = inputDigest(value, input.definitionHash);
    const readers = plan.units.filter((u) => u.needs.some((n) => n.node === input.name));
    let stale = false;
    for (const u of readers) {
      const [rec] = await store.getRecords(run, { unit: u.id, status: "current" });
      const seen = rec?.sources[`input:${input.name}`]?.[0]?.sha256;
      if (seen !== undefined && seen !== digest) stale = true;
    }
    if (!stale) continue;
    const report = impact(plan, [{ origin: input.name, kinds: "all" }]);
    await commitDirect(w, (f) => {
      const changes = supersedeChanges(plan, w.core.planVersion, report.invalidated, f.units);
      return changes.length
        ? decisionCommit(w, changes, [
            ev(w.core, "stale-evidence-dropped", { data: { input: input.name, units: changes.map((c) => c.unit) } }),
          ])
        : undefined;
    });
  }
}

async function checkArtifacts(w: WorkerContext): Promise<void> {
  const { store, run, storage } = w.core;
  const current = await store.listArtifacts(run, { status: "committed" });
  const records = new Map((await store.getRecords(run, { status: "current" })).map((r) => [r.id, r]));
  for (const a of current) {
    if (a.recordId === undefined || !records.has(a.recordId)) continue;
    try {
      if (w.options.verifyArtifacts === "size") {
        const size = await storage.size(a.path);
        if (size !== a.size) throw new CorruptArtifactError(a.path, a.sha256, size === undefined ? undefined : `size ${size}`);
      } else {
        await storage.read(a.path, a.sha256);
      }
    } catch (err) {
      if (!(err instanceof CorruptArtifactError)) throw err;
      await invalidateCorrupt(w, a.unit, a.path, err.message);
    }
  }
}
