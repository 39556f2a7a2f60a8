/**
 * The Graphviz layout, in a worker thread (adapters/svg.ts starts it): a
 * layout can take seconds, and on the server's thread it held up every other
 * request meanwhile. Answers each `{ id, dot }` with `{ id, svg }` or
 * `{ id, error }`.
 */
import { parentPort } from "node:worker_threads";
import { renderSvg } from "@taskspec/compiler/svg";

parentPort?.on("message", (message: { id: number; dot: string }) => {
  renderSvg(message.dot).then(
    (svg) => parentPort?.postMessage({ id: message.id, svg }),
    (err: unknown) => parentPort?.postMessage({ id: message.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
