/**
 * The first Format Document of a freshly opened contract, in process: a fresh
 * Node process per run (cold, as the language server is on its first format)
 * analyses the generated contract as the server does on open, then times one
 * `formatDocument`: CPU time (process.cpuUsage) and wall time, median of the
 * runs. Five texts: the contract as generated, already formatted (the answer
 * is no edits); the same with every indentation doubled (four spaces a level
 * where the client asks for two: every line but the top-level keys changes);
 * that text with its flow mappings unpadded as well (`{a: 1}`, which yaml
 * prints `{ a: 1 }`); and the doubled text with each unit's `phase` written as
 * a block scalar (`phase: |-` and the value on the next line, the same
 * string), whose re-indenting only yaml does; and the formatted contract with
 * that block scalar per unit (`phase: |-`, the value one step deeper on the
 * next line: formatted already, the answer is no edits), the usual shape of
 * prompts and goals in real contracts.
 *
 * Run: `node bench/lsp/first-format.mjs [sizes...]` after `npm run build`;
 * `--root DIR` times the build of another checkout (e.g. main's), `--runs N`
 * sets the runs per size (5). Prints one Markdown row per size and text.
 */
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args.splice(i, 2)[1];
};
const root = resolve(option("--root", join(HERE, "..", "..")));
const runs = Number(option("--runs", "5"));

if (process.env.FIRST_FORMAT_CHILD) {
  const n = Number(args[0]);
  const kind = args[1];
  const { generateContract } = await import(pathToFileURL(join(HERE, "generate-contract.mjs")).href);
  const { analyze } = await import(pathToFileURL(join(root, "lsp", "dist", "service", "analysis.js")).href);
  const { formatDocument } = await import(pathToFileURL(join(root, "lsp", "dist", "service", "formatting.js")).href);
  const generated = generateContract(n);
  const reindented = kind === "formatted" || kind === "formattedBlock" ? generated : generated.replace(/^( +)/gm, (m) => m + m);
  const text =
    kind === "unpadded"
      ? reindented.replace(/\{ ([^{}\n]*) \}/g, "{$1}")
      : kind === "block"
        ? reindented.replace(/^( +)phase: (.*)$/gm, "$1phase: |-\n$1    $2")
        : kind === "formattedBlock"
          ? reindented.replace(/^( +)phase: (.*)$/gm, "$1phase: |-\n$1  $2")
          : reindented;
  const analysis = analyze("file:///bench.task.yaml", 1, text);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const edits = formatDocument(analysis, { tabSize: 2, insertSpaces: true });
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ cpu: (used.user + used.system) / 1000, wall, edits: edits.length, bytes: text.length }));
} else {
  const sizes = args.map(Number).filter((n) => n > 0);
  const TEXTS = {
    formatted: "formatted",
    reindented: "indentation doubled",
    unpadded: "doubled, flow maps unpadded",
    block: "doubled, a block scalar per unit",
    formattedBlock: "formatted, a block scalar per unit",
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  process.stdout.write(`root ${root}, load average ${loadavg()[0].toFixed(1)} at start\n`);
  process.stdout.write("| units | text | file | CPU | wall | edits |\n|---:|---|---:|---:|---:|---:|\n");
  for (const [n, kind] of (sizes.length > 0 ? sizes : [500, 2000, 10000]).flatMap((n) => [
    [n, "formatted"],
    [n, "reindented"],
    [n, "unpadded"],
    [n, "block"],
    [n, "formattedBlock"],
  ])) {
    const results = Array.from({ length: runs }, () =>
      JSON.parse(
        execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--root", root, String(n), kind], {
          env: { ...process.env, FIRST_FORMAT_CHILD: "1" },
          encoding: "utf8",
        }),
      ),
    );
    const kb = Math.round(results[0].bytes / 1024);
    process.stdout.write(
      `| ${n} | ${TEXTS[kind]} | ${kb} KB | ${median(results.map((r) => r.cpu)).toFixed(0)} ms | ${median(results.map((r) => r.wall)).toFixed(0)} ms | ${results[0].edits} |\n`,
    );
  }
  process.stdout.write(`load average ${loadavg()[0].toFixed(1)} at end\n`);
}
