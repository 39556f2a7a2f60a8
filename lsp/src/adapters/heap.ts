/**
 * Keeps the server's heap near what it holds. Every keystroke replaces an
 * analysis of the whole contract, and V8's default heuristics let that
 * garbage pile up to several times the live data before a full collection
 * (a 10,000-unit contract: 125 MB live, 500 MB resident after ten edits).
 * So after a check, once the heap has grown by half since the last full
 * collection, collect, off the path of the diagnostics just sent.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Below this the heap is left to V8. */
const FLOOR_BYTES = 64 * 1024 * 1024;
/** Collect when the heap has grown by half over what the last collection left. */
const GROWTH = 1.5;

export interface HeapKeeper {
  /** Call after work that replaced a large structure; collects in the next turn if the heap has grown by half. */
  afterWork(): void;
}

export function heapKeeper(collect = exposeGc(), heapUsed = () => process.memoryUsage().heapUsed): HeapKeeper {
  let liveAfterLast = 0;
  let queued = false;
  return {
    afterWork() {
      if (!collect || queued) return;
      queued = true;
      setImmediate(() => {
        queued = false;
        if (heapUsed() < Math.max(FLOOR_BYTES, GROWTH * liveAfterLast)) return;
        collect();
        liveAfterLast = heapUsed();
      });
    },
  };
}

/** V8's full collection as a function, exposed at run time (no command-line flag needed). */
function exposeGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return undefined;
  }
}
