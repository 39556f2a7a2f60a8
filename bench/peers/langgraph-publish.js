// One LangGraph worker process for the crash comparison: the publish-post
// graph (research -> draft -> build -> publish -> verify) whose `publish`
// node creates a post on the local blog service. With --crash-after-post
// the process SIGKILLs itself right after the blog answered, before the node
// returns (so before LangGraph can write the step's checkpoint) — the same
// window taskspec's crash point `after-effect` arms. Run it again without the
// flag and the same thread id to resume from LangGraph's checkpoint.
//
//   node langgraph-publish.js --db FILE --thread ID --blog URL [--key] [--crash-after-post]
//
// --key sends an Idempotency-Key derived from the thread (what a careful
// LangGraph author would add by hand; LangGraph itself has no such notion).
import { buildGraph, durableSaver, RUN_OPTIONS } from "./langgraph-graph.js";

const arg = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const has = (name) => process.argv.includes(`--${name}`);

const thread = arg("thread");
const blog = arg("blog");
const { saver, db } = durableSaver(arg("db"));

const units = [
  { id: "research", needs: [] },
  { id: "draft", needs: ["research"] },
  { id: "build", needs: ["draft"] },
  { id: "publish", needs: ["build"] },
  { id: "verify", needs: ["publish"] },
];

async function work(id) {
  if (id !== "publish") return;
  const headers = { "content-type": "application/json" };
  if (has("key")) headers["Idempotency-Key"] = `langgraph:${thread}:publish`;
  const res = await fetch(`${blog}/posts`, {
    method: "POST",
    headers,
    body: JSON.stringify({ title: "Agent resume, done right", body: "Reconcile before you continue." }),
  });
  if (!res.ok) throw new Error(`blog answered ${res.status}`);
  if (has("crash-after-post")) process.kill(process.pid, "SIGKILL");
}

const graph = buildGraph(units, work, saver);
const config = { configurable: { thread_id: thread }, ...RUN_OPTIONS };
const existing = await saver.getTuple({ configurable: { thread_id: thread } });
// A fresh thread starts with an input; an existing one resumes from its checkpoint.
const final = await graph.invoke(existing ? null : { done: [] }, config);
db.close();
process.stdout.write(`${JSON.stringify({ done: final.done })}\n`);
