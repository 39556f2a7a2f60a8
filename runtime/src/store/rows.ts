/**
 * Row mappers shared by the SQLite and PostgreSQL stores: both keep the same
 * columns, JSON as TEXT, so one mapping serves both. Integers go through
 * Number() because PostgreSQL returns int8 as a string.
 */
import type {
  Approval,
  ArtifactManifest,
  BudgetAmounts,
  CheckpointHeader,
  EffectRecord,
  EffectState,
  Hold,
  Lease,
  LoopIteration,
  PaidCall,
  RunEvent,
  RunRow,
  RunStatus,
  UnitRecord,
  UnitStateRow,
} from "../model/facts.js";
import type { WorkerRow } from "./types.js";

export type Row = Record<string, unknown>;

export const json = (v: unknown): string => JSON.stringify(v ?? null);
export const parse = <T>(v: unknown): T => (v === null || v === undefined ? (undefined as T) : (JSON.parse(String(v)) as T));
const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function toRun(r: Row): RunRow {
  return {
    run: String(r.run),
    taskId: String(r.task_id),
    planVersion: String(r.plan_version),
    inputVersion: String(r.input_version),
    version: Number(r.version),
    status: String(r.status) as RunStatus,
    caps: parse(r.caps),
    budgetUsed: parse(r.budget_used),
    ...(r.hold !== null ? { hold: parse<Hold>(r.hold) } : {}),
    origin: parse(r.origin),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
    lastProgressAt: String(r.last_progress_at),
  };
}

export function toUnitState(r: Row): UnitStateRow {
  return {
    unit: String(r.unit),
    state: String(r.state) as UnitStateRow["state"],
    attempts: Number(r.attempts),
    failures: Number(r.failures),
    ...(r.current_record !== null ? { currentRecord: Number(r.current_record) } : {}),
    ...(r.superseded_record !== null ? { supersededRecord: Number(r.superseded_record) } : {}),
    ...(r.superseded !== null ? { superseded: parse(r.superseded) } : {}),
    ...(r.hold !== null ? { hold: parse(r.hold) } : {}),
    ...(r.last_error !== null ? { lastError: parse(r.last_error) } : {}),
    ...(r.not_before !== null && r.not_before !== undefined ? { notBefore: String(r.not_before) } : {}),
    version: Number(r.version),
  };
}

export function toLease(r: Row): Lease {
  return {
    run: String(r.run),
    unit: String(r.unit),
    owner: String(r.owner),
    token: Number(r.token),
    attempt: Number(r.attempt),
    expiresAt: String(r.expires_at),
    renewedAt: String(r.renewed_at),
    ...(r.reserved ? { reserved: parse<BudgetAmounts>(r.reserved) } : {}),
  };
}

/** A row of the workers table (store/types.ts WorkerRow). */
export function toWorker(r: Row): WorkerRow {
  return {
    id: String(r.id),
    host: String(r.host),
    pid: Number(r.pid),
    startedAt: String(r.started_at),
    heartbeatAt: String(r.heartbeat_at),
    ...(r.stopped_at ? { stoppedAt: String(r.stopped_at) } : {}),
  };
}

/** A lease row as an attempt's end reads it: its fence, attempt and undrawn booking. */
export function endingLease(r: Row): { token: number; owner: string; attempt: number; reserved?: BudgetAmounts } {
  return {
    token: Number(r.token),
    owner: String(r.owner),
    attempt: Number(r.attempt),
    ...(r.reserved ? { reserved: parse<BudgetAmounts>(r.reserved) } : {}),
  };
}

export function toCheckpoint(r: Row): CheckpointHeader {
  return {
    run: String(r.run),
    version: Number(r.version),
    parent: r.parent === null ? null : Number(r.parent),
    kind: String(r.kind) as CheckpointHeader["kind"],
    planVersion: String(r.plan_version),
    inputVersion: String(r.input_version),
    budgetUsed: parse(r.budget_used),
    approvals: parse(r.approvals),
    nextAction: parse(r.next_action),
    delta: parse(r.delta),
    digest: String(r.digest),
    createdAt: String(r.created_at),
    committedAt: String(r.committed_at),
  };
}

export function toRecord(r: Row): UnitRecord {
  return {
    id: Number(r.id),
    run: String(r.run),
    unit: String(r.unit),
    attempt: Number(r.attempt),
    planVersion: String(r.plan_version),
    status: String(r.status) as UnitRecord["status"],
    result: parse(r.result),
    sources: parse(r.sources),
    committedVersion: Number(r.committed_version),
    ...(r.superseded_reason !== null ? { supersededReason: String(r.superseded_reason) } : {}),
    createdAt: String(r.created_at),
  };
}

export function toArtifact(r: Row): ArtifactManifest {
  return {
    run: String(r.run),
    unit: String(r.unit),
    attempt: Number(r.attempt),
    name: String(r.name),
    path: String(r.path),
    sha256: String(r.sha256),
    size: Number(r.size),
    mediaType: String(r.media_type),
    ...(r.facets !== null ? { facets: parse(r.facets) } : {}),
    planVersion: String(r.plan_version),
    verifierResults: parse(r.verifier_results),
    status: String(r.status) as ArtifactManifest["status"],
    ...(r.record_id !== null ? { recordId: Number(r.record_id) } : {}),
    createdAt: String(r.created_at),
  };
}

export function toEffect(r: Row): EffectRecord {
  return {
    id: String(r.id),
    run: String(r.run),
    unit: String(r.unit),
    attempt: Number(r.attempt),
    seq: Number(r.seq),
    tool: String(r.tool),
    toolClass: String(r.tool_class),
    intent: String(r.intent),
    argsDigest: String(r.args_digest),
    ...(r.request_hash != null ? { requestHash: String(r.request_hash) } : {}),
    ...(r.request != null ? { request: parse(r.request) } : {}),
    ...(r.iteration != null ? { iteration: Number(r.iteration) } : {}),
    ...(r.key !== null ? { key: String(r.key) } : {}),
    state: String(r.state) as EffectState,
    ...(r.remote_id !== null ? { remoteId: String(r.remote_id) } : {}),
    ...(r.receipt !== null ? { receipt: parse(r.receipt) } : {}),
    ...(r.lookup_used !== null ? { lookupUsed: String(r.lookup_used) } : {}),
    ...(r.compensation !== null ? { compensation: parse(r.compensation) } : {}),
    ...(r.compensation_state !== null ? { compensationState: String(r.compensation_state) as EffectRecord["compensationState"] } : {}),
    ...(r.error !== null ? { error: String(r.error) } : {}),
    token: Number(r.token),
    preparedAt: String(r.prepared_at),
    ...(opt(r.started_at as string | null) !== undefined ? { startedAt: String(r.started_at) } : {}),
    ...(opt(r.resolved_at as string | null) !== undefined ? { resolvedAt: String(r.resolved_at) } : {}),
    ...(r.commit_seq !== null ? { commitSeq: Number(r.commit_seq) } : {}),
    ...(r.held != null ? { held: parse(r.held) } : {}),
  };
}

export function toApproval(r: Row): Approval {
  return {
    id: String(r.id),
    run: String(r.run),
    unit: String(r.unit),
    planVersion: String(r.plan_version),
    artifactHashes: parse(r.artifact_hashes),
    scope: String(r.scope),
    expiresAt: String(r.expires_at),
    grantedBy: String(r.granted_by),
    grantedAt: String(r.granted_at),
    ...(r.revoked_at !== null ? { revokedAt: String(r.revoked_at) } : {}),
    ...(r.binding != null ? { binding: parse(r.binding) } : {}),
  };
}

export function toEvent(e: Row): RunEvent {
  return {
    seq: Number(e.seq),
    run: String(e.run),
    at: String(e.at),
    type: String(e.type),
    ...(e.unit !== null ? { unit: String(e.unit) } : {}),
    ...(e.attempt !== null ? { attempt: Number(e.attempt) } : {}),
    ...(e.data !== null ? { data: parse<Record<string, unknown>>(e.data) } : {}),
  };
}

/** Columns of an artifact row, in the order artifactArgs gives their values. */
export const ARTIFACT_COLUMNS =
  "run, path, unit, attempt, name, sha256, size, media_type, facets, plan_version, verifier_results, status, record_id, created_at";
export const artifactArgs = (
  run: string,
  a: Omit<ArtifactManifest, "status" | "recordId">,
  status: string,
  recordId: number | null,
): unknown[] => [
  run,
  a.path,
  a.unit,
  a.attempt,
  a.name,
  a.sha256,
  a.size,
  a.mediaType,
  a.facets ? json(a.facets) : null,
  a.planVersion,
  json(a.verifierResults),
  status,
  recordId,
  a.createdAt,
];

/** Columns of a loop_iterations row, in the order iterationArgs gives their values. */
export const ITERATION_COLUMNS = "run, unit, loop, iteration, max, attempt, result, artifacts, committed_at";
export const iterationArgs = (it: Omit<LoopIteration, "closedAt">): unknown[] => [
  it.run,
  it.unit,
  it.loop,
  it.iteration,
  it.max,
  it.attempt,
  json(it.result),
  json(it.artifacts),
  it.committedAt,
];

export function toIteration(r: Row): LoopIteration {
  return {
    run: String(r.run),
    unit: String(r.unit),
    loop: String(r.loop),
    iteration: Number(r.iteration),
    max: Number(r.max),
    attempt: Number(r.attempt),
    result: parse(r.result) ?? null,
    artifacts: parse(r.artifacts) ?? [],
    committedAt: String(r.committed_at),
    ...(r.closed_at !== null && r.closed_at !== undefined ? { closedAt: String(r.closed_at) } : {}),
  };
}

/** The WHERE clause (with `?` or `$n` placeholders) and its values for listIterations. */
export function iterationFilter(
  run: string,
  filter: { unit?: string; loop?: string; open?: boolean },
  placeholder: (n: number) => string,
): { where: string; args: unknown[] } {
  const args: unknown[] = [run];
  const where = [`run = ${placeholder(1)}`];
  if (filter.unit !== undefined) {
    args.push(filter.unit);
    where.push(`unit = ${placeholder(args.length)}`);
  }
  if (filter.loop !== undefined) {
    args.push(filter.loop);
    where.push(`loop = ${placeholder(args.length)}`);
  }
  if (filter.open) where.push("closed_at IS NULL");
  return { where: where.join(" AND "), args };
}

/** Columns of a paid_calls row, in the order paidCallArgs gives their values. */
export const PAID_CALL_COLUMNS = "run, unit, attempt, seq, iteration, kind, request_hash, state, reply, replayable, at, answered_at";
export const paidCallArgs = (c: Omit<PaidCall, "closedAt">): unknown[] => [
  c.run,
  c.unit,
  c.attempt,
  c.seq,
  c.iteration,
  c.kind,
  c.requestHash,
  c.state,
  c.reply === undefined ? null : json(c.reply),
  c.replayable === undefined ? null : c.replayable ? 1 : 0,
  c.at,
  c.answeredAt ?? null,
];

export function toPaidCall(r: Row): PaidCall {
  return {
    run: String(r.run),
    unit: String(r.unit),
    attempt: Number(r.attempt),
    seq: Number(r.seq),
    iteration: Number(r.iteration),
    kind: String(r.kind) as PaidCall["kind"],
    requestHash: String(r.request_hash),
    state: String(r.state) as PaidCall["state"],
    ...(r.reply !== null && r.reply !== undefined ? { reply: parse(r.reply) } : {}),
    ...(r.replayable !== null && r.replayable !== undefined ? { replayable: Number(r.replayable) === 1 } : {}),
    at: String(r.at),
    ...(r.answered_at !== null && r.answered_at !== undefined ? { answeredAt: String(r.answered_at) } : {}),
    ...(r.closed_at !== null && r.closed_at !== undefined ? { closedAt: String(r.closed_at) } : {}),
  };
}

/** The WHERE clause (with `?` or `$n` placeholders) and its values for listPaidCalls. */
export function paidCallFilter(
  run: string,
  filter: { unit?: string; open?: boolean },
  placeholder: (n: number) => string,
): { where: string; args: unknown[] } {
  const args: unknown[] = [run];
  const where = [`run = ${placeholder(1)}`];
  if (filter.unit !== undefined) {
    args.push(filter.unit);
    where.push(`unit = ${placeholder(args.length)}`);
  }
  if (filter.open) where.push("closed_at IS NULL");
  return { where: where.join(" AND "), args };
}

/** The answer of a journalled call, as SQL (with `?` or `$n` placeholders) and its values: only a `started` call is answered. */
export function paidCallAnswer(
  key: { run: string; unit: string; attempt: number; seq: number },
  answer: { state: "answered" | "failed"; reply?: unknown; replayable?: boolean; answeredAt: string },
  p: (n: number) => string,
): { sql: string; args: unknown[] } {
  return {
    sql: `UPDATE paid_calls SET state = ${p(1)}, reply = ${p(2)}, replayable = ${p(3)}, answered_at = ${p(4)} WHERE run = ${p(5)} AND unit = ${p(6)} AND attempt = ${p(7)} AND seq = ${p(8)} AND state = 'started'`,
    args: [
      answer.state,
      answer.reply === undefined ? null : json(answer.reply),
      answer.replayable === undefined ? null : answer.replayable ? 1 : 0,
      answer.answeredAt,
      key.run,
      key.unit,
      key.attempt,
      key.seq,
    ],
  };
}

/** Effect fields a patch may set, by column; receipt and compensation are JSON. */
export const EFFECT_PATCH_COLUMNS: Readonly<Record<string, string>> = {
  state: "state",
  remoteId: "remote_id",
  lookupUsed: "lookup_used",
  compensationState: "compensation_state",
  error: "error",
  startedAt: "started_at",
  resolvedAt: "resolved_at",
  key: "key",
  token: "token",
  receipt: "receipt",
  compensation: "compensation",
  attempt: "attempt",
  held: "held",
};

/** The value a patched effect column is stored as: JSON columns as text (null clears `held`). */
export function effectPatchValue(field: string, value: unknown): unknown {
  if (field === "receipt" || field === "compensation") return json(value);
  if (field === "held") return value == null ? null : json(value);
  return value ?? null;
}

/** A resume token's row as its rule reads it (store/gate-rules.ts). */
export function toResumeToken(r: Row): { run: string; unit: string; usedAt: string | null; expiresAt: string } {
  return {
    run: String(r.run),
    unit: String(r.unit),
    usedAt: r.used_at === null ? null : String(r.used_at),
    expiresAt: String(r.expires_at),
  };
}
