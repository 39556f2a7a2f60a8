/**
 * Keeps the server's heap near what it holds. Every keystroke replaces an
 * analysis of the whole contract, and V8's default heuristics let that
 * garbage pile up to several times the live data before a full collection
 * (bench/lsp/memory.mjs; the figures: bench/RESULTS.md, "figures behind code
 * comments").
 * So a full collection runs when the server has been idle (no check, no
 * request) for a while with 32 MB of growth since the last one, or, when a
 * big heap has grown by a quarter under continuous typing, at the end of the
 * check, before its diagnostics go out: never inside a request, and not in
 * the turns after the diagnostics either, where it held up the requests an
 * editor sends as soon as they arrive (the new version's first lens or
 * hover). Waiting for the next check instead kept the requests' garbage on
 * top of the check's, and the largest contracts ended higher resident.
 *
 * Opt-in by launch flag: the keeper needs V8's collector as a function,
 * which only a process started with `--expose-gc` has. The VS Code extension
 * starts the server with that flag and `taskspec lsp` relaunches itself with
 * it (cli/src/commands/lsp.ts); started any other way the server leaves the
 * heap to V8. The flag is never turned on at run time
 * (`v8.setFlagsFromString`, which Node's documentation warns may crash).
 */

/** Below this the heap is left to V8. */
const FLOOR_BYTES = 64 * 1024 * 1024;
/** Garbage (growth over the last collection's survivors) worth an idle spell's collection. */
const IDLE_SLACK_BYTES = 32 * 1024 * 1024;
/**
 * While typing goes on, a heap above this and a quarter over the last
 * survivors is collected at the end of a check without waiting for an idle
 * spell: the server's resident size stays bounded with the largest contracts
 * benched, and smaller ones never pay a collection on the path of a check.
 */
const PRESSURE_FLOOR_BYTES = 160 * 1024 * 1024;
const PRESSURE_GROWTH = 1.25;
/** No check and no request for this long is an idle spell. */
export const IDLE_MS = 400;

export interface HeapKeeper {
  /**
   * Call after work that replaced a large structure (a check), before its
   * result is sent: a big heap that has grown by a quarter is collected now.
   */
  afterWork(): void;
  /** Call after answering a request: an idle spell starts again, so its collection does not land among the requests. */
  busy(): void;
}

export function heapKeeper(collect = exposedGc(), heapUsed = () => process.memoryUsage().heapUsed): HeapKeeper {
  // the heap at start stands in for a first collection's survivors
  let liveAfterLast = heapUsed();
  let idle: NodeJS.Timeout | undefined;
  const worthIdle = () => heapUsed() >= Math.max(FLOOR_BYTES, liveAfterLast + IDLE_SLACK_BYTES);
  const pressing = () => heapUsed() >= Math.max(PRESSURE_FLOOR_BYTES, PRESSURE_GROWTH * liveAfterLast);
  const run = () => {
    // twice: the second pass gives back the pages the first one emptied (measured
    // with bench/lsp/memory.mjs)
    collect!();
    collect!();
    liveAfterLast = heapUsed();
  };
  const waitForIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      idle = undefined;
      if (worthIdle()) run();
    }, IDLE_MS);
    idle.unref();
  };
  return {
    afterWork() {
      if (!collect) return;
      if (pressing()) run();
      waitForIdle();
    },
    busy() {
      // only an idle collection already waiting is put off; as before, requests alone never start one
      if (idle) waitForIdle();
    },
  };
}

/** V8's full collection, when the process was started with `--expose-gc`. */
export function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === "function" ? (gc as () => void) : undefined;
}
