/**
 * The Store's plain reads, written once over one method a backend gives:
 * the rows a query returns. SQLite answers from its cached statements,
 * PostgreSQL from its pool (repeated on connection loss). The reads that lock
 * rows, and loadFacts (each backend's fastest form), stay in the backends.
 */
import { NotFoundError } from "../errors.js";
import type {
  Approval,
  ArtifactManifest,
  CheckpointHeader,
  EffectRecord,
  EffectState,
  LoopIteration,
  PaidCall,
  RunEvent,
  RunRow,
  UnitRecord,
} from "../model/facts.js";
import { LIST_READS, type Query } from "./read-sql.js";
import {
  parse,
  toApproval,
  toArtifact,
  toCheckpoint,
  toEffect,
  toEvent,
  toIteration,
  toPaidCall,
  toRecord,
  toRun,
  type Row,
} from "./rows.js";

export abstract class SqlReads {
  /** The rows of one read, outside any transaction. */
  protected abstract rows(q: Query): Promise<Row[]>;

  async getRun(run: string): Promise<RunRow | undefined> {
    const [row] = await this.rows(LIST_READS.run(run));
    return row ? toRun(row) : undefined;
  }

  async listRuns(): Promise<RunRow[]> {
    return (await this.rows(LIST_READS.runs())).map(toRun);
  }

  async getPlan(planVersion: string): Promise<unknown | undefined> {
    const [row] = await this.rows(LIST_READS.plan(planVersion));
    return row ? parse(row.plan_json) : undefined;
  }

  async listCheckpoints(run: string): Promise<CheckpointHeader[]> {
    return (await this.rows(LIST_READS.checkpoints(run))).map(toCheckpoint);
  }

  async latestCheckpoint(run: string): Promise<CheckpointHeader> {
    const [row] = await this.rows(LIST_READS.latestCheckpoint(run));
    if (!row) throw new NotFoundError(`no run ${run} in this store`);
    return toCheckpoint(row);
  }

  async listEvents(run: string, options: { afterSeq?: number; type?: string } = {}): Promise<RunEvent[]> {
    return (await this.rows(LIST_READS.events(run, options))).map(toEvent);
  }

  async getRecords(run: string, filter: { unit?: string; status?: UnitRecord["status"] } = {}): Promise<UnitRecord[]> {
    return (await this.rows(LIST_READS.records(run, filter))).map(toRecord);
  }

  async listArtifacts(
    run: string,
    filter: { unit?: string; status?: ArtifactManifest["status"]; recordId?: number } = {},
  ): Promise<ArtifactManifest[]> {
    return (await this.rows(LIST_READS.artifacts(run, filter))).map(toArtifact);
  }

  async listEffects(
    run: string,
    filter: { unit?: string; tool?: string; key?: string; states?: EffectState[] } = {},
  ): Promise<EffectRecord[]> {
    return (await this.rows(LIST_READS.effects(run, filter))).map(toEffect);
  }

  async listApprovals(run: string): Promise<Approval[]> {
    return (await this.rows(LIST_READS.approvals(run))).map(toApproval);
  }

  async listPaidCalls(run: string, filter: { unit?: string; open?: boolean } = {}): Promise<PaidCall[]> {
    return (await this.rows(LIST_READS.paidCalls(run, filter))).map(toPaidCall);
  }

  async listIterations(run: string, filter: { unit?: string; loop?: string; open?: boolean } = {}): Promise<LoopIteration[]> {
    return (await this.rows(LIST_READS.iterations(run, filter))).map(toIteration);
  }

  async pendingResumeTokens(run: string, now: string): Promise<Array<{ unit: string; expiresAt: string }>> {
    return (await this.rows(LIST_READS.pendingResumeTokens(run, now))).map((r) => ({
      unit: String(r.unit),
      expiresAt: String(r.expires_at),
    }));
  }

  async findOperator(keyHash: string): Promise<{ name: string; createdAt: string } | undefined> {
    const [row] = await this.rows(LIST_READS.operator(keyHash));
    return row ? { name: String(row.name), createdAt: String(row.created_at) } : undefined;
  }

  async countOperators(): Promise<number> {
    return Number((await this.rows(LIST_READS.operatorCount()))[0]!.n);
  }
}
