// The LangGraph.js side of the comparison: the contract's unit graph rebuilt
// as a StateGraph (one node per unit, a join edge per unit with several
// upstream units), checkpointed by LangGraph's own SQLite saver with durable
// commits: WAL + PRAGMA synchronous=FULL, and `durability: "sync"` so a
// step's checkpoint is written before the next step starts.
import Database from "better-sqlite3";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";

export function durableSaver(file) {
  const db = new Database(file);
  const saver = new SqliteSaver(db);
  saver.setup(); // sets journal_mode=WAL
  db.pragma("synchronous = FULL");
  return { saver, db };
}

const State = Annotation.Root({
  done: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

/**
 * units: [{ id, needs: [unit ids] }] in topological order.
 * work(id, state) runs inside the node; its return value is ignored.
 */
export function buildGraph(units, work, checkpointer) {
  const graph = new StateGraph(State);
  const downstream = new Set();
  for (const unit of units) {
    graph.addNode(unit.id, async (state) => {
      await work(unit.id, state);
      return { done: [unit.id] };
    });
  }
  for (const unit of units) {
    if (unit.needs.length === 0) graph.addEdge(START, unit.id);
    else if (unit.needs.length === 1) graph.addEdge(unit.needs[0], unit.id);
    else graph.addEdge(unit.needs, unit.id);
    for (const need of unit.needs) downstream.add(need);
  }
  for (const unit of units) if (!downstream.has(unit.id)) graph.addEdge(unit.id, END);
  return graph.compile({ checkpointer });
}

export const RUN_OPTIONS = { durability: "sync", recursionLimit: 10_000 };
