// `taskspec check` of a small contract against a bare `node -e 0`, whole
// processes, side by side (the two commands alternate, so machine load hits
// both alike). The CLI is the packed package, as installed: `npm pack -w cli`
// (prepack builds the esbuild bundle), extracted, and run through its bin.
// Also times the checkout's unbundled dist/ for comparison.
//
// Usage: npm run build && node bench/cli/startup.mjs [--runs 21] [--also name=path/to/bin/taskspec.js] [contract]
// --also adds another installed CLI (say, one packed from an older commit) to
// the same alternating rounds, for a before/after side by side.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args.splice(runsAt, 2)[1]) : 21;
const also = [];
for (let at = args.indexOf("--also"); at >= 0; at = args.indexOf("--also")) also.push(args.splice(at, 2)[1].split("="));
const contract = args[0] ?? join(repo, "specs", "publish-post.task.yaml");

const dir = mkdtempSync(join(tmpdir(), "taskspec-startup-"));
execFileSync("npm", ["pack", "-w", "cli", "--pack-destination", dir], { cwd: repo, stdio: "ignore" });
execFileSync(
  "tar",
  [
    "xzf",
    join(
      dir,
      readdirSync(dir).find((f) => f.endsWith(".tgz")),
    ),
  ],
  { cwd: dir },
);
const installed = join(dir, "package", "bin", "taskspec.js");

const cases = {
  "node -e 0": [process.execPath, "-e", "0"],
  "taskspec check (packed, bundled)": [process.execPath, installed, "check", contract],
  "taskspec check (checkout, tsc dist/)": [process.execPath, join(repo, "cli", "bin", "taskspec.js"), "check", contract],
  ...Object.fromEntries(also.map(([name, bin]) => [`taskspec check (${name})`, [process.execPath, bin, "check", contract]])),
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < runs + 1; i++) {
  for (const [name, [cmd, ...rest]] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, rest, { stdio: ["ignore", "ignore", "inherit"] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
    if (i > 0) times[name].push(ms); // the first round warms the page cache
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times["node -e 0"]);
console.log(
  `${runs} runs each, alternating; ${cpus().length} x ${cpus()[0].model}, Node ${process.version}; contract ${contract.replace(repo, "")}`,
);
for (const [name, xs] of Object.entries(times)) {
  console.log(
    `${name.padEnd(38)} median ${median(xs).toFixed(1).padStart(7)} ms  min ${Math.min(...xs)
      .toFixed(1)
      .padStart(7)} ms  ${(median(xs) / base).toFixed(2)}x`,
  );
}
