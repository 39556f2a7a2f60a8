// What a process of this checkout spends loading modules before it does any
// work: CPU time (user + system, from the child's own process.cpuUsage) of a
// fresh `node` that only imports one module, the candidates alternating run
// by run so machine load hits them alike. chevrotain's package entry against
// its single-file build (what compiler/src/expr/chevrotain.ts loads), then the
// compiler's and the runtime's dist/ as the tests, drills and CLI of a
// checkout load them.
//
// Usage: npx tsc -b && node bench/cli/module-load.mjs [--runs 15]
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const runsAt = process.argv.indexOf("--runs");
const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : 15;
const entry = import.meta.resolve("chevrotain");

const modules = {
  "node, nothing imported": undefined,
  "chevrotain, package entry (lodash-es module by module)": entry,
  "chevrotain, single-file build": new URL("../chevrotain.mjs", entry).href,
  "compiler dist/index.js": pathToFileURL(`${repo}compiler/dist/index.js`).href,
  "runtime dist/index.js": pathToFileURL(`${repo}runtime/dist/index.js`).href,
};

const cpu = Object.fromEntries(Object.keys(modules).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, url] of Object.entries(modules)) {
    const code = `${url ? `await import(${JSON.stringify(url)});` : ""} const u = process.cpuUsage(); console.log((u.user + u.system) / 1000);`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
    cpu[name].push(Number(r.stdout.trim()));
  }
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(`| module | CPU ms: median (min-max) of ${runs} |`);
console.log("|---|---:|");
for (const [name, v] of Object.entries(cpu)) {
  console.log(`| ${name} | ${median(v).toFixed(0)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)}) |`);
}
