/**
 * What each store write is, said for people: when a write loses its
 * connection, the error names it ("the budget caps of run R") instead of
 * leaving a driver's words alone. Data, one line per method; `nameLostWrites`
 * wraps a backend's methods once, adding the name to a StoreUnavailableError
 * on its way out and changing nothing else.
 */
import { StoreUnavailableError } from "../errors.js";
import type { Store } from "./types.js";

type Namer<K extends keyof Store> = Store[K] extends (...a: infer A) => unknown ? (...a: A) => string : never;

const ofRun = (run: string) => `run ${run}`;
const ofUnit = (run: string, unit: string) => `unit ${unit} of run ${run}`;

export const WRITE_NAMES: { [K in keyof Store]?: Namer<K> } = {
  createRun: (spec) => `the new ${ofRun(spec.run)}`,
  importRunRows: (rows) => `the imported ${ofRun(String(rows.runs[0]?.run))}`,
  commitCheckpoint: (run, expected) => `checkpoint ${expected + 1} of ${ofRun(run)}`,
  commitCheckpoints: (run, expected, commits) => `checkpoints ${expected + 1} to ${expected + commits.length} of ${ofRun(run)}`,
  claimUnit: (run, unit) => `the claim of ${ofUnit(run, unit)}`,
  claimUnits: (run) => `a claim round on ${ofRun(run)}`,
  renewLease: (run, unit) => `the lease renewal of ${ofUnit(run, unit)}`,
  releaseLease: (run, unit) => `the lease release of ${ofUnit(run, unit)}`,
  breakLease: (run, unit) => `the broken lease of ${ofUnit(run, unit)}`,
  endAttempt: (run, unit) => `the end of an attempt of ${ofUnit(run, unit)}`,
  commitIteration: (it) => `loop iteration ${it.iteration} of ${ofUnit(it.run, it.unit)}`,
  journalPaidCall: (call) => `the journal of a paid call of ${ofUnit(call.run, call.unit)}`,
  answerPaidCall: (key) => `the answer of a paid call of ${ofUnit(key.run, key.unit)}`,
  chargeBudget: (run) => `a budget charge of ${ofRun(run)}`,
  setCaps: (run) => `the budget caps of ${ofRun(run)}`,
  setRunHold: (run) => `the hold of ${ofRun(run)}`,
  setUnitHold: (run, unit) => `the hold of ${ofUnit(run, unit)}`,
  setRunStatus: (run, status) => `the status ${status} of ${ofRun(run)}`,
  setRunOrigin: (run) => `the contract and modules of ${ofRun(run)}`,
  appendEvents: (run) => `events of ${ofRun(run)}`,
  markArtifactCorrupt: (run, path) => `the corrupt mark of ${path} (${ofRun(run)})`,
  recordCollection: (run) => `the gc record of ${ofRun(run)}`,
  prepareEffect: (effect) => `the record of a ${effect.tool} call of ${ofUnit(effect.run, effect.unit)}`,
  updateEffect: (id) => `the state of effect ${id}`,
  grantApproval: (approval) => `the approval of ${ofUnit(approval.run, approval.unit)}`,
  revokeApproval: (id) => `the revocation of approval ${id}`,
  issueResumeToken: (_hash, row) => `a resume token for ${ofUnit(row.run, row.unit)}`,
  consumeResumeToken: (_hash, _now, gate) => `the use of a resume token of ${ofUnit(gate.run, gate.unit)}`,
  addOperator: (row) => `operator identity ${row.name}`,
};

/** Wraps `store`'s write methods in place: a lost connection's error names the write. */
export function nameLostWrites(store: Store): void {
  const methods = store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const [method, name] of Object.entries(WRITE_NAMES) as Array<[string, (...a: unknown[]) => string]>) {
    const write = methods[method]!.bind(store);
    methods[method] = async (...args: unknown[]) => {
      try {
        return await write(...args);
      } catch (err) {
        throw err instanceof StoreUnavailableError && err.writing === undefined ? err.writingOf(name(...args)) : err;
      }
    };
  }
}
