/**
 * Drives one case through real worker processes: arm the next crash, run or
 * resume until the process dies or the run stops, then act as the operator
 * would — approve a gate, settle an UNKNOWN effect the way the remote says it
 * went (the drill knows: it chose where the worker died), or cancel — and
 * resume in a fresh process, until the run is done, cancelled or stuck.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Plan } from "@taskspec/compiler";
import { newOperatorKey, operatorOfKey } from "../engine/approvals.js";
import { sha256 } from "../model/identity.js";
import { approve, resolveEffect } from "../operator/actions.js";
import { SqliteStore } from "../store/sqlite.js";
import type { ChildArgs } from "./child.js";
import { armText } from "./enumerate.js";
import { startChild, type ChildHandle, type ChildResult } from "./process.js";
import type { CrashArm, Scenario, StepRecord } from "./types.js";

export interface Sandbox {
  dir: string;
  db: string;
  artifacts: string;
  log: string;
  run: string;
  contract: string;
  /** The contract compiled once (children load it instead of compiling again). */
  plan: string;
  handlers: string;
  /** The tools module (tools and inputs), when the handler module holds only the units. */
  tools?: string;
  /** The verifier module for the plan's model/human verifiers, when it has any. */
  verifiers?: string;
  env: Record<string, string>;
  /** The key of the drill's operator identity in this sandbox's store (registered on the first approval). */
  operatorKey: string;
  /** The step processes running now, so a case past its timeout can end them (stopChildren). */
  live?: Set<ChildHandle>;
  /** Set when the case was stopped: no further step starts. */
  stopped?: string;
}

/** Ends a case's running steps (a stopped one is continued first so the kill lands) and starts no other. */
export function stopChildren(sb: Sandbox, why: string): void {
  sb.stopped = why;
  for (const child of sb.live ?? []) {
    child.signal("SIGCONT");
    child.signal("SIGKILL");
  }
}

export function makeSandbox(
  parent: string,
  o: { run: string; contract: string; plan: Plan; handlers: string; tools?: string; verifiers?: string; env?: Record<string, string> },
): Sandbox {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, "case-"));
  const log = join(dir, "invocations.jsonl");
  writeFileSync(log, "");
  const plan = join(dir, "plan.json");
  writeFileSync(plan, JSON.stringify(o.plan));
  return {
    dir,
    db: join(dir, "store.db"),
    artifacts: join(dir, "artifacts"),
    log,
    run: o.run,
    contract: o.contract,
    plan,
    handlers: o.handlers,
    ...(o.tools ? { tools: o.tools } : {}),
    ...(o.verifiers ? { verifiers: o.verifiers } : {}),
    env: o.env ?? {},
    operatorKey: newOperatorKey(),
  };
}

export function childArgs(sb: Sandbox, mode: ChildArgs["mode"], extra: Partial<ChildArgs> = {}): ChildArgs {
  return {
    mode,
    contract: sb.contract,
    plan: sb.plan,
    handlers: sb.handlers,
    ...(sb.tools ? { tools: sb.tools } : {}),
    ...(sb.verifiers ? { verifiers: sb.verifiers } : {}),
    db: sb.db,
    artifacts: sb.artifacts,
    run: sb.run,
    log: sb.log,
    ...extra,
  };
}

export async function withStore<T>(sb: Sandbox, fn: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = new SqliteStore({ path: sb.db });
  await store.init();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

export function stepOf(action: StepRecord["action"], r: ChildResult, armed?: CrashArm): StepRecord {
  return {
    action,
    pid: r.pid,
    exit: { code: r.code, signal: r.signal },
    ...(armed ? { armed: armText(armed) } : {}),
    ...(r.outcome?.status ? { status: r.outcome.status } : {}),
    ...(r.fired ? { note: `crash point ${r.fired}` } : r.outcome?.error ? { note: r.outcome.error } : {}),
  };
}

export interface DriveResult {
  steps: StepRecord[];
  fired: string[];
  finalStatus: string;
  /** Crash arms that never fired. */
  unfired: string[];
}

export interface DriveOptions {
  crashes: CrashArm[];
  scenario: Scenario;
  child?: Partial<ChildArgs>;
  /** Contract and compiled plan for the steps after the first crash (a contract upgraded during recovery). */
  upgradeTo?: { contract: string; plan: string };
  maxSteps?: number;
  /** Stop as soon as the last armed crash fired (the caller changes the world, then resumes). */
  untilFired?: boolean;
  /**
   * Timing seed (`drill --repeat`): each step starts after a pause drawn from
   * it (0-50 ms), and the workers get it as TASKSPEC_DRILL_SEED, so repeated
   * runs of a case meet the services and the clock at different moments.
   */
  seed?: number;
}

/** A deterministic pause in 0..50 ms for step `step` of seed `seed` (a small integer hash, no global RNG). */
export function seededPauseMs(seed: number, step: number): number {
  let x = (Math.imul(seed, 0x9e3779b1) ^ Math.imul(step + 1, 0x85ebca6b)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) % 51;
}

/**
 * Gate approvals are granted for an hour (long enough for any case) by the
 * operator identity "drill" of the sandbox's store, made on first use: the
 * drill acts as an operator, with an operator's key, not as a handler could.
 */
export async function approveGate(sb: Sandbox, unit: string): Promise<void> {
  await withStore(sb, async (store) => {
    const now = new Date().toISOString();
    if (!(await operatorOfKey(store, sb.operatorKey)))
      await store.addOperator({ name: "drill", keyHash: sha256(sb.operatorKey), createdAt: now });
    await approve(store, { run: sb.run, unit, by: "drill", operatorKey: sb.operatorKey, expiresInMs: 3_600_000, now });
  });
}

/**
 * Settles the UNKNOWN effects of a blocked unit as a person who checked the
 * remote would: absent when the worker died before the call, committed when
 * it died after it. Returns false when the drill does not know the truth.
 */
async function settleUnknown(sb: Sandbox, unit: string, fired: CrashArm[]): Promise<boolean> {
  return withStore(sb, async (store) => {
    const open = await store.listEffects(sb.run, { unit, states: ["UNKNOWN", "STARTED"] });
    if (open.length === 0) return false;
    for (const e of open) {
      const crash = [...fired]
        .reverse()
        .find((c) => c.unit === e.unit && c.tool === e.tool && (c.point === "before-effect" || c.point === "after-effect-before-receipt"));
      if (!crash) return false;
      await resolveEffect(
        store,
        sb.run,
        e.id,
        crash.point === "before-effect" ? "absent" : "committed",
        { by: "drill", operatorKey: sb.operatorKey },
        new Date().toISOString(),
        e.remoteId,
      );
    }
    return true;
  });
}

export async function drive(sb: Sandbox, o: DriveOptions): Promise<DriveResult> {
  const pending = [...o.crashes];
  const firedArms: CrashArm[] = [];
  const steps: StepRecord[] = [];
  const fired: string[] = [];
  let phase: "run" | "cancel" = "run";
  let finalStatus = "";
  for (let i = 0; i < (o.maxSteps ?? 16); i++) {
    const next = pending[0];
    const armed = next && (next.point === "during-compensation") === (phase === "cancel") ? next : undefined;
    const current = o.upgradeTo && firedArms.length > 0 ? { ...sb, ...o.upgradeTo } : sb;
    if (o.seed !== undefined) await new Promise((resolve) => setTimeout(resolve, seededPauseMs(o.seed!, i)));
    const seedEnv: Record<string, string> = o.seed !== undefined ? { TASKSPEC_DRILL_SEED: String(o.seed) } : {};
    if (sb.stopped) throw new Error(sb.stopped);
    const child = startChild(childArgs(current, phase, o.child), {
      ...sb.env,
      ...seedEnv,
      TASKSPEC_CRASH_AT: armed ? armText(armed) : "",
    });
    (sb.live ??= new Set()).add(child);
    const r = await child.done.finally(() => sb.live!.delete(child));
    if (sb.stopped) throw new Error(sb.stopped);
    steps.push(stepOf(phase === "cancel" ? "cancel" : "run", r, armed));
    if (r.signal === "SIGKILL" && armed && r.fired === armText(armed)) {
      fired.push(r.fired);
      firedArms.push(pending.shift()!);
      if (o.untilFired && pending.length === 0) return { steps, fired, finalStatus: "crashed", unfired: [] };
      continue;
    }
    const status = r.outcome?.status;
    if (!status || status === "error") {
      finalStatus = `error: ${r.outcome?.error ?? `worker ended with ${r.signal ?? `exit ${r.code}`}: ${r.stderr.trim().split("\n").pop() ?? ""}`}`;
      break;
    }
    if (phase === "cancel" || status === "failed" || status === "cancelled") {
      finalStatus = status;
      break;
    }
    if (status === "done") {
      if (o.scenario === "cancel") {
        phase = "cancel";
        continue;
      }
      finalStatus = status;
      break;
    }
    const blocked = r.outcome?.blocked ?? [];
    if (o.scenario === "cancel" && blocked.some((b) => b.reason === "approval")) {
      phase = "cancel";
      continue;
    }
    let acted = false;
    for (const b of blocked) {
      if (b.reason === "approval" && b.unit) {
        await approveGate(sb, b.unit);
        steps.push({ action: "approve", note: b.unit });
        acted = true;
      } else if (b.reason === "unknown-effect" && b.unit && (await settleUnknown(sb, b.unit, firedArms))) {
        steps.push({ action: "resolve", note: b.unit });
        acted = true;
      }
    }
    if (!acted) {
      finalStatus = `blocked (${blocked.map((b) => `${b.unit ? `${b.unit}: ` : ""}${b.reason}`).join(", ")})`;
      break;
    }
  }
  return { steps, fired, finalStatus: finalStatus || `no end after ${o.maxSteps ?? 16} steps`, unfired: pending.map(armText) };
}
