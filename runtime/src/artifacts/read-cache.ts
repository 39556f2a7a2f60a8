/**
 * A bounded in-memory read cache for the backends across a network: blobs
 * keyed by their sha256, least recently used dropped first once the total
 * passes the bound. Only bytes that hashed to their key are put in, so a hit
 * is the manifest's content; whether a path still names that content is
 * asked of the backend on every read.
 */
export const DEFAULT_READ_CACHE_BYTES = 64 * 1024 * 1024;

export class ReadCache {
  private readonly entries = new Map<string, Uint8Array>();
  private total = 0;

  constructor(readonly maxBytes: number = DEFAULT_READ_CACHE_BYTES) {}

  get(sha256: string): Uint8Array | undefined {
    const hit = this.entries.get(sha256);
    if (hit === undefined) return undefined;
    // a Map iterates in insertion order: re-inserting makes it the most recently used
    this.entries.delete(sha256);
    this.entries.set(sha256, hit);
    return hit.slice();
  }

  /** Keeps `data` (already checked to hash to `sha256`); a blob larger than the bound is not kept. */
  put(sha256: string, data: Uint8Array): void {
    if (data.byteLength > this.maxBytes || this.entries.has(sha256)) return;
    this.entries.set(sha256, data.slice());
    this.total += data.byteLength;
    for (const [key, value] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(key);
      this.total -= value.byteLength;
    }
  }

  /** Bytes held now. */
  get size(): number {
    return this.total;
  }
}
