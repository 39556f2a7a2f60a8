/**
 * The counters and fences of a local remote, persisted beside its records so
 * that effects are counted AT THE REMOTE (tests and the demo ask `GET /stats`
 * instead of trusting the caller) and so that a restart of the service keeps
 * refusing stale writers.
 */
import path from "node:path";
import { readJsonFile, writeFileDurably } from "./durable-file.js";

interface StateFile {
  counters: Record<string, number>;
  /** Write calls per idempotency key (including refused duplicates). */
  callsPerKey: Record<string, number>;
  /** Highest fencing token seen per resource. */
  fences: Record<string, number>;
}

export class ServiceState {
  private readonly file: string;
  private readonly data: StateFile;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, "state.json");
    this.data = readJsonFile<StateFile>(this.file, { counters: {}, callsPerKey: {}, fences: {} });
  }

  count(name: string, by = 1): void {
    this.data.counters[name] = (this.data.counters[name] ?? 0) + by;
    this.save();
  }

  countKey(key: string): void {
    this.data.callsPerKey[key] = (this.data.callsPerKey[key] ?? 0) + 1;
    this.save();
  }

  /**
   * Admits a write carrying `token` for `resource` unless a higher token was
   * already seen there; an equal token is the same worker retrying.
   */
  admitFence(resource: string, token: number): { admitted: boolean; highest: number } {
    const highest = this.data.fences[resource] ?? Number.NEGATIVE_INFINITY;
    if (token < highest) return { admitted: false, highest };
    this.data.fences[resource] = token;
    this.save();
    return { admitted: true, highest: token };
  }

  snapshot(): StateFile {
    return structuredClone(this.data);
  }

  private save(): void {
    writeFileDurably(this.file, JSON.stringify(this.data, null, 2));
  }
}
