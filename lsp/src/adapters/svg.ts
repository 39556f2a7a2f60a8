/**
 * SVG of a graph, laid out by Graphviz in a worker thread within a time
 * budget: the server's own thread keeps answering hovers and completions while
 * a layout runs, and a layout over its budget is stopped (the worker is
 * terminated) and answered as such. One worker is kept for later requests (the
 * WebAssembly build loads once); it never keeps the process alive.
 */
import { Worker } from "node:worker_threads";

export type SvgOutcome = { svg: string } | { unavailable: string };

interface Pending {
  resolve: (outcome: SvgOutcome) => void;
  timer: NodeJS.Timeout;
}

export interface SvgRenderer {
  render(dot: string, budgetMs: number): Promise<SvgOutcome>;
  close(): Promise<void>;
}

/**
 * The worker's module: svg-worker.js beside this file, in the built package
 * and in the extension's bundle (where this code is inside server.js). Run from
 * the TypeScript sources (the in-process tests), the built one.
 */
function defaultWorkerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith(".ts") ? new URL("../../dist/adapters/svg-worker.js", here) : new URL("./svg-worker.js", here);
}

export function svgRenderer(workerUrl: URL = defaultWorkerUrl()): SvgRenderer {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const settle = (id: number, outcome: SvgOutcome) => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(outcome);
  };
  /** Ends the worker and answers everything it had with `reason`. */
  const stop = (reason: string) => {
    const current = worker;
    worker = undefined;
    for (const id of [...pending.keys()]) settle(id, { unavailable: reason });
    return current ? current.terminate().then(() => undefined) : Promise.resolve();
  };
  const start = (): Worker => {
    const w = new Worker(workerUrl);
    w.unref();
    w.on("message", (m: { id: number; svg?: string; error?: string }) =>
      settle(m.id, m.svg !== undefined ? { svg: m.svg } : { unavailable: `Graphviz failed: ${m.error ?? "no answer"}` }),
    );
    w.on("error", (err) => {
      if (worker === w) void stop(`Graphviz failed: ${err.message}`);
    });
    w.on("exit", () => {
      if (worker === w) void stop("the Graphviz worker stopped");
    });
    return w;
  };

  return {
    render(dot, budgetMs) {
      worker ??= start();
      const id = nextId++;
      const w = worker;
      return new Promise<SvgOutcome>((resolve) => {
        const timer = setTimeout(() => {
          // the layout runs on: only ending the worker stops it (the next request starts a new one)
          if (worker === w) void stop(`the layout took longer than its budget of ${budgetMs} ms`);
          else settle(id, { unavailable: `the layout took longer than its budget of ${budgetMs} ms` });
        }, budgetMs);
        pending.set(id, { resolve, timer });
        w.postMessage({ id, dot });
      });
    },
    close: () => stop("the server is shutting down"),
  };
}
