// One LangGraph process of the overhead measurement: builds the graph shape
// given as JSON ([{ id, needs }]) with no-op nodes, runs it once on a fresh
// SQLite file with durable commits, and prints {"ms"} — the time of the run
// itself, without process start and module loading.
//
//   node langgraph-steps.js SHAPE.json DB_FILE
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { buildGraph, durableSaver, RUN_OPTIONS } from "./langgraph-graph.js";

const [shapeFile, dbFile] = process.argv.slice(2);
const units = JSON.parse(fs.readFileSync(shapeFile, "utf8"));
const { saver, db } = durableSaver(dbFile);
const graph = buildGraph(units, async () => {}, saver);
const start = performance.now();
const final = await graph.invoke({ done: [] }, { configurable: { thread_id: "bench" }, ...RUN_OPTIONS });
const ms = performance.now() - start;
db.close();
if (final.done.length !== units.length) throw new Error(`ran ${final.done.length} of ${units.length} nodes`);
process.stdout.write(`${JSON.stringify({ ms })}\n`);
