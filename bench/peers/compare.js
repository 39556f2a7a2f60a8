// taskspec vs LangGraph.js, side by side in one run on this machine.
//
//   cd bench/peers && npm install && node compare.js [--runs 7]
//   (needs the main workspace built: `npm run build` at the repository root)
//
// 1. Overhead per step: the ME-042 graph shape (36 units, from the compiled
//    specs/market-entry-pack.task.yaml) with no-op work, durable commits on
//    both sides (LangGraph: SqliteSaver, WAL, synchronous=FULL,
//    durability "sync"; taskspec: its SQLite store, through runPlan). Each
//    engine runs in a fresh process that times only its run call; per-step
//    overhead is the marginal cost (T(36 units) - T(1 unit)) / 35, so fixed
//    setup cancels out. Medians over --runs, the engines interleaved.
// 2. Crash right after a remote effect: the publish-post graph against the
//    local blog service (a real process with its own storage); the worker
//    SIGKILLs itself right after the blog created the post, a new process
//    resumes. Counted AT THE BLOG: posts created, create calls that reached it.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { planShape, prefix, REPO, taskspecContract, taskspecHandlers } from "./shape.js";

const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1] || 7) || 7;
const TASKSPEC = path.join(REPO, "cli/bin/taskspec.js");
const HERE = path.dirname(new URL(import.meta.url).pathname);
const { spawnService, writeCorpus } = await import(path.join(REPO, "examples/dist/index.js"));

const work = fs.mkdtempSync(path.join(os.tmpdir(), "taskspec-peers-"));

function run(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, out }));
  });
}

/** Runs one *-steps.js process and returns the run time it measured itself. */
async function timed(args) {
  const result = await run(args);
  const line = result.out.split("\n").find((l) => l.startsWith('{"ms"'));
  if (result.code !== 0 || !line) throw new Error(`${args.join(" ")} failed (${result.code ?? result.signal}): ${result.out}`);
  return JSON.parse(line).ms;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rawFsyncMs() {
  const file = path.join(work, "fsync-probe");
  const fd = fs.openSync(file, "w");
  const block = Buffer.alloc(4096, 1);
  const times = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    fs.writeSync(fd, block, 0, block.length, 0);
    fs.fsyncSync(fd);
    times.push(performance.now() - start);
  }
  fs.closeSync(fd);
  return median(times);
}

/** fsync/fdatasync calls of one process, counted by strace when it is installed. */
async function fsyncCalls(args) {
  const probe = await new Promise((resolve) => {
    const child = spawn("strace", ["-f", "-c", "-e", "trace=fsync,fdatasync", process.execPath, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c) => (err += c));
    child.once("error", () => resolve(undefined));
    child.once("close", (code) => resolve(code === 0 ? err : undefined));
  });
  if (probe === undefined) return undefined;
  const total = probe.split("\n").find((line) => /\btotal$/.test(line.trim()));
  return total ? Number(total.trim().split(/\s+/)[3]) : 0;
}

// Sides of the per-step comparison. LangGraph runs the nodes of a superstep
// together; taskspec runs one unit at a time by default, and with
// concurrency 12 (the widest level of the shape) as LangGraph does.
const SIDES = [
  {
    name: "langgraph",
    label: "LangGraph.js + SqliteSaver (WAL, synchronous=FULL, durability sync)",
    args: (dir, n, r) => [path.join(HERE, "langgraph-steps.js"), path.join(dir, "shape.json"), path.join(dir, `lg-${r}.db`)],
  },
  {
    name: "taskspec-1",
    label: "taskspec runPlan, concurrency 1 (one commit per unit)",
    args: (dir, n, r) => [
      path.join(HERE, "taskspec-steps.js"),
      path.join(dir, "bench.task.yaml"),
      path.join(dir, "handlers.js"),
      fresh(dir, `ts1-${r}`),
      "1",
    ],
  },
  {
    name: "taskspec-12",
    label: "taskspec runPlan, concurrency 12 (a level's units run together; group commit)",
    args: (dir, n, r) => [
      path.join(HERE, "taskspec-steps.js"),
      path.join(dir, "bench.task.yaml"),
      path.join(dir, "handlers.js"),
      fresh(dir, `ts12-${r}`),
      "12",
    ],
  },
  {
    name: "taskspec-1-process",
    label: "taskspec runPlan, concurrency 1, --isolation process (a handler process per attempt)",
    args: (dir, n, r) => [
      path.join(HERE, "taskspec-steps.js"),
      path.join(dir, "bench.task.yaml"),
      path.join(dir, "handlers.js"),
      fresh(dir, `ts1p-${r}`),
      "1",
      "process",
    ],
  },
];

/** A bare Node process, spawned and awaited: what isolation's cost per attempt is compared with. */
async function nodeStartMs() {
  const t0 = performance.now();
  await run(["-e", "0"]);
  return performance.now() - t0;
}

function fresh(dir, name) {
  const out = path.join(dir, name);
  fs.mkdirSync(out, { recursive: true });
  return out;
}

async function overhead() {
  const shape = await planShape();
  const sizes = [1, shape.length];
  const dirs = {};
  for (const n of sizes) {
    const units = prefix(shape, n);
    const dir = path.join(work, `shape-${n}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "shape.json"), JSON.stringify(units));
    fs.writeFileSync(path.join(dir, "bench.task.yaml"), taskspecContract(units));
    fs.writeFileSync(path.join(dir, "handlers.js"), taskspecHandlers(units));
    dirs[n] = dir;
  }
  const times = Object.fromEntries(SIDES.map((side) => [side.name, Object.fromEntries(sizes.map((n) => [n, []]))]));
  const nodeStarts = [];
  for (let r = 0; r < RUNS; r++) {
    for (const n of sizes) for (const side of SIDES) times[side.name][n].push(await timed(side.args(dirs[n], n, r)));
    for (let i = 0; i < 5; i++) nodeStarts.push(await nodeStartMs());
  }
  const rows = [];
  for (const side of SIDES) {
    const t1 = median(times[side.name][1]);
    const tN = median(times[side.name][shape.length]);
    const f1 = await fsyncCalls(side.args(dirs[1], 1, "strace"));
    const fN = await fsyncCalls(side.args(dirs[shape.length], shape.length, "strace"));
    rows.push({
      ...side,
      t1,
      tN,
      perStepMs: (tN - t1) / (shape.length - 1),
      fsyncsPerStep: f1 === undefined || fN === undefined ? undefined : (fN - f1) / (shape.length - 1),
    });
  }
  return { units: shape.length, rows, nodeStartMs: median(nodeStarts) };
}

async function blogFigures(blog) {
  const stats = await (await fetch(`${blog.url}/stats`)).json();
  const posts = await (await fetch(`${blog.url}/posts`)).json();
  const createCalls = Object.values(stats.callsPerKey).reduce((a, b) => a + b, 0) || (stats.counters.creations ?? 0);
  return { posts: posts.length, creations: stats.counters.creations ?? 0, createCalls, lookups: stats.counters.lookups ?? 0 };
}

async function withBlog(name, body) {
  const blog = await spawnService("blog", { dataDir: path.join(work, `blog-${name}`) });
  try {
    const steps = await body(blog);
    return { ...(await blogFigures(blog)), steps };
  } finally {
    await blog.stop();
  }
}

async function langgraphCrash(withKey) {
  return withBlog(withKey ? "lg-key" : "lg", async (blog) => {
    const db = path.join(work, `lg-publish-${withKey}.db`);
    const base = [
      path.join(HERE, "langgraph-publish.js"),
      "--db",
      db,
      "--thread",
      "post-1",
      "--blog",
      blog.url,
      ...(withKey ? ["--key"] : []),
    ];
    const crashed = await run([...base, "--crash-after-post"]);
    const resumed = await run(base);
    return [`worker ${crashed.signal ?? crashed.code}`, `resume ${resumed.signal ?? resumed.code}`];
  });
}

async function taskspecCrash() {
  return withBlog("ts", async (blog) => {
    const pages = path.join(work, "pages");
    writeCorpus(pages);
    const store = `sqlite:${path.join(work, "ts-publish.db")}`;
    const env = { TASKSPEC_BLOG_URL: blog.url, TASKSPEC_PAGES_DIR: pages, TASKSPEC_WORKSPACE_DIR: path.join(work, "ts-workspace") };
    const spec = path.join(REPO, "specs/publish-post.task.yaml");
    const handlers = path.join(REPO, "examples/dist/handlers/publish-post.js");
    const verifiers = path.join(REPO, "examples/dist/verifiers/publish-post.js");
    const first = await run(
      [TASKSPEC, "run", spec, "--handlers", handlers, "--verifiers", verifiers, "--store", store, "--run", "post-1"],
      env,
    );
    const token = /approval requested for publish: resume token (rt_\S+)/.exec(first.out)?.[1] ?? "none";
    const approve = await run([TASKSPEC, "approve", "post-1", "publish", "--token", token, "--store", store], env);
    const crashed = await run([TASKSPEC, "resume", "post-1", "--store", store], {
      ...env,
      TASKSPEC_CRASH_AT: "after-effect-before-receipt@publish/create_post",
    });
    const resumed = await run([TASKSPEC, "resume", "post-1", "--store", store], env);
    const exit = (r) => r.signal ?? r.code;
    return [`run ${exit(first)} (approval gate)`, `approve ${exit(approve)}`, `resume ${exit(crashed)}`, `resume ${exit(resumed)}`];
  });
}

function machine() {
  const cpu = os.cpus()[0]?.model ?? "unknown cpu";
  let disk;
  try {
    disk = execFileSync("df", ["-hT", work], { encoding: "utf8" }).trim().split("\n")[1]?.split(/\s+/).slice(0, 2).join(" ") ?? "";
  } catch {
    disk = "";
  }
  return `${os.type()} ${os.release()}, ${os.cpus().length} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, temp dir on ${disk}`;
}

try {
  const fsyncMs = rawFsyncMs();
  const o = await overhead();
  const lgNoKey = await langgraphCrash(false);
  const lgKey = await langgraphCrash(true);
  const ts = await taskspecCrash();
  const fmt = (x) => (x === undefined ? "n/a (no strace)" : x.toFixed(2));
  const [lg, ts1, ts12, ts1p] = o.rows;
  const isolationMs = ts1p.perStepMs - ts1.perStepMs;
  const lines = [
    `Machine: ${machine()}`,
    `Command: cd bench/peers && npm install && node compare.js --runs ${RUNS}  (LangGraph.js @langchain/langgraph 1.7.3, @langchain/langgraph-checkpoint-sqlite 1.0.4)`,
    `Raw fsync of this disk (write 4 KB + fsync, median of 200): ${fmt(fsyncMs)} ms`,
    "",
    `Overhead per step, ${o.units}-unit ME-042 shape, no-op work, durable commits on both sides (each run in a fresh process timing only its run call; median of ${RUNS}; per step = (T${o.units} - T1) / ${o.units - 1}):`,
    "",
    `| engine | T(1 unit) ms | T(${o.units} units) ms | overhead per step ms | fsyncs per step |`,
    "|---|---|---|---|---|",
    ...o.rows.map((row) => `| ${row.label} | ${fmt(row.t1)} | ${fmt(row.tN)} | ${fmt(row.perStepMs)} | ${fmt(row.fsyncsPerStep)} |`),
    "",
    `LangGraph per-step overhead / taskspec's: **${fmt(lg.perStepMs / ts12.perStepMs)}x** with the same parallelism (concurrency 12; target >= 2x), ${fmt(lg.perStepMs / ts1.perStepMs)}x with taskspec one unit at a time`,
    "",
    `Isolation: a bare Node process start (\`node -e 0\`, spawned and awaited, median of ${5 * RUNS} interleaved with the runs) ${fmt(o.nodeStartMs)} ms; \`--isolation process\` adds ${fmt(isolationMs)} ms per step over isolation none, **${fmt(isolationMs / o.nodeStartMs)}** of a process start (target <= 1)`,
    "",
    "Crash right after the remote effect (SIGKILL after the blog created the post, before the worker recorded it; resume in a new process), counted at the blog:",
    "",
    "| side | posts online | posts created | create calls that reached the blog | lookups by key | processes (exit) |",
    "|---|---|---|---|---|---|",
    `| LangGraph.js, node posts without a key | ${lgNoKey.posts} | ${lgNoKey.creations} | ${lgNoKey.createCalls} | ${lgNoKey.lookups} | ${lgNoKey.steps.join(", ")} |`,
    `| LangGraph.js, node posts with a hand-made key (the blog deduplicates) | ${lgKey.posts} | ${lgKey.creations} | ${lgKey.createCalls} | ${lgKey.lookups} | ${lgKey.steps.join(", ")} |`,
    `| taskspec, create_post (dedup, ledger + lookup) | ${ts.posts} | ${ts.creations} | ${ts.createCalls} | ${ts.lookups} | ${ts.steps.join(", ")} |`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
