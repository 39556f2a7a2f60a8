/**
 * The run's last step: `task.done` on the final artifacts. Every current
 * artifact is re-hashed (a corrupt one supersedes its producer and the run
 * goes on), then the end-to-end verifiers judge the task's result; the run
 * is done, or held with the verifiers that failed. A run whose goal an
 * operator narrowed (`out-of-scope` units) gives up the outputs only those
 * units produce, and then `task.done`, which judges the whole deliverable:
 * the run-done event names what was given up.
 */
import { CorruptArtifactError } from "../artifacts/storage.js";
import type { Plan } from "@taskspec/compiler";
import { RuntimeError } from "../errors.js";
import { ownEntry } from "../model/own.js";
import { nowIso } from "./core.js";
import { invalidateCorrupt } from "./direct-commit.js";
import { runVerifiers } from "./verify.js";
import { ev, type WorkerContext } from "./worker-state.js";

/** True when the run is done; false when it goes on (an artifact was corrupt) or is held (a verifier failed). */
export async function verifyDone(w: WorkerContext): Promise<boolean> {
  const { core } = w;
  const { store, run, plan, storage } = core;
  const records = await store.getRecords(run, { status: "current" });
  const results: Record<string, unknown> = Object.fromEntries(records.map((r) => [r.unit, r.result]));
  const artifacts = await store.listArtifacts(run, { status: "committed" });
  const currentIds = new Set(records.map((r) => r.id));
  const current = artifacts.filter((a) => a.recordId !== undefined && currentIds.has(a.recordId));
  for (const a of current) {
    try {
      await storage.read(a.path, a.sha256);
    } catch (err) {
      if (!(err instanceof CorruptArtifactError)) throw err;
      await invalidateCorrupt(w, a.unit, a.path, err.message);
      return false;
    }
  }
  const outputs = current
    .filter((a) => plan.task.outputs.includes(a.name))
    .map((a) => ({ name: a.name, sha256: a.sha256, path: a.path, unit: a.unit }));
  const staleOutputs = plan.task.outputs.filter((name) => !outputs.some((o) => o.name === name));
  const dropped = new Set((await store.loadFacts(run)).units.filter((u) => u.hold?.reason === "out-of-scope").map((u) => u.unit));
  const givenUp = staleOutputs.filter((name) => plan.units.some((u) => dropped.has(u.id) && u.produces.includes(name)));
  if (givenUp.length) {
    await store.setRunStatus(
      run,
      "done",
      ev(core, "run-done", {
        data: {
          verifiers: [],
          outputs: outputs.map((o) => o.name),
          narrowed: { outputs: givenUp, verifiers: plan.task.done.map(verifierName) },
        },
      }),
    );
    return true;
  }
  // The task's result: the results of the units that produce its outputs (plan order), plus the runtime's view of the outputs.
  const producers = plan.units.filter((u) => u.produces.some((p) => plan.task.outputs.includes(p)));
  const taskResult: Record<string, unknown> = {};
  for (const u of producers) {
    const r = results[u.id];
    if (r && typeof r === "object" && !Array.isArray(r)) Object.assign(taskResult, r);
  }
  Object.assign(taskResult, { outputs, stale_outputs: staleOutputs, units: results });
  const read = async (name: string) => {
    const a = current.find((x) => x.name === name);
    if (!a) throw new RuntimeError(`no current artifact ${name}`);
    return storage.read(a.path, a.sha256);
  };
  const verdicts = await runVerifiers(plan.task.done, {
    plan,
    verifiers: core.verifiers?.verifiers,
    env: {
      task: { id: plan.task.id, version: plan.task.version },
      run: { id: run },
      result: taskResult,
      inputs: Object.fromEntries(plan.inputs.map((i) => [i.name, i.value ?? i.version ?? null])),
    },
    context: {
      run: { id: run },
      result: taskResult,
      read,
      tool: async <T>(name: string, args: Record<string, unknown>) => {
        const t = plan.tools.find((x) => x.name === name);
        const adapter = ownEntry(core.handlers.tools, name);
        if (!t || t.class !== "read" || !adapter) throw new RuntimeError(`task.done may call only declared read tools; ${name} refused`);
        return (await adapter.call(args, {
          runId: run,
          unitId: "task.done",
          attemptId: "a1",
          fencingToken: 0,
          signal: new AbortController().signal,
        })) as T;
      },
    },
    jsonDocuments: async () => [taskResult],
    ...(core.baseDir ? { baseDir: core.baseDir } : {}),
  });
  const failed = verdicts.filter((v) => !v.passed);
  if (failed.length) {
    const detail = `task.done failed on the final artifacts: ${failed.map((v) => `${v.name}: ${v.reason ?? "failed"}`).join("; ")}`;
    await store.setRunHold(
      run,
      { reason: "no-safe-action", detail, at: nowIso(core) },
      ev(core, "done-verification-failed", { data: { failed: failed.map((v) => v.name) } }),
    );
    return false;
  }
  await store.setRunStatus(
    run,
    "done",
    ev(core, "run-done", { data: { verifiers: verdicts.map((v) => v.name), outputs: outputs.map((o) => o.name) } }),
  );
  return true;
}

/** A `task.done` entry as people name it: the declared verifier, or the inline check's source. */
export const verifierName = (v: Plan["task"]["done"][number]): string => ("ref" in v ? v.ref : v.check.source);
