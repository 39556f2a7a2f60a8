/**
 * The hostile inputs through real `taskspec check` processes: device files
 * and a FIFO are refused at once (not read until memory runs out, not waited
 * on), the corpus folder gets one clean diagnostic set per file, text output
 * stays bounded (frames clipped and capped, control characters escaped) and
 * a folder of seeded mutants never ends in an internal error.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { hostileInputs, seedContracts, writeCorpus } from "./corpus.js";
import { mutant, mutantText } from "./mutate.js";

const bin = fileURLToPath(new URL("../../cli/bin/taskspec.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "taskspec-hostile-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** More output than this is a flood: the child is killed and the test fails. */
const OUTPUT_CAP = 16 * 1024 * 1024;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  killed: string | undefined;
}

/** Runs `taskspec check ...args` in `dir`; kills it past `timeoutMs` or OUTPUT_CAP (and says which). */
const check = (args: string[], timeoutMs = 60_000): Promise<Run> => taskspec(["check", ...args], timeoutMs);

/** Runs `taskspec ...args` in `dir`; kills it past `timeoutMs` or OUTPUT_CAP (and says which). */
function taskspec(args: string[], timeoutMs = 60_000): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
  let stdout = "";
  let stderr = "";
  let killed: string | undefined;
  const kill = (why: string) => {
    killed ??= why;
    child.kill("SIGKILL");
  };
  const timer = setTimeout(() => kill(`still running after ${timeoutMs} ms`), timeoutMs);
  const collect = (add: (s: string) => void) => (chunk: Buffer) => {
    add(chunk.toString());
    if (stdout.length + stderr.length > OUTPUT_CAP) kill(`wrote more than ${OUTPUT_CAP} characters`);
  };
  child.stdout.on(
    "data",
    collect((s) => (stdout += s)),
  );
  child.stderr.on(
    "data",
    collect((s) => (stderr += s)),
  );
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started, killed });
    }),
  );
}

const noCrash = (r: Run) => {
  expect(r.killed).toBeUndefined();
  expect(r.stderr).not.toContain("internal error");
  expect(r.stderr + r.stdout).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
};

// the corpus, a FIFO and a symlink to /dev/zero in one folder, as a CI runner would meet them
const corpus = join(dir, "corpus");
mkdirSync(corpus);
writeCorpus(corpus);
spawnSync("mkfifo", [join(corpus, "pipe.task.yaml")]);
symlinkSync("/dev/zero", join(corpus, "zero.task.yaml"));
mkdirSync(join(dir, "fifo"));
spawnSync("mkfifo", [join(dir, "fifo", "x.task.yaml")]);

describe("taskspec check on hostile files", () => {
  it("refuses /dev/zero, a FIFO named x.task.yaml and a symlink to /dev/zero at once", async () => {
    const runs = await Promise.all([
      check(["/dev/zero"], 20_000),
      check(["fifo/x.task.yaml"], 20_000),
      check(["corpus/zero.task.yaml"], 20_000),
    ]);
    for (const r of runs) {
      noCrash(r);
      expect(r.code).toBe(2);
    }
    expect(runs[0]!.stderr).toContain("cannot read '/dev/zero': it is a character device, not a regular file");
    expect(runs[1]!.stderr).toContain("cannot read 'fifo/x.task.yaml': it is a named pipe (FIFO), not a regular file");
    expect(runs[2]!.stderr).toContain("cannot read 'corpus/zero.task.yaml': it is a character device, not a regular file");
  });

  it("gives every file of the corpus folder its clean diagnostics, and refuses the unreadable ones", async () => {
    const r = await check(["--format", "json", "corpus"]);
    noCrash(r);
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as { files: { file: string; diagnostics: { code: string }[] }[] };
    const codes = Object.fromEntries(
      report.files.map((f) => [f.file.replace(/^corpus\//, ""), [...new Set(f.diagnostics.map((d) => d.code))].sort()]),
    );
    for (const input of hostileInputs()) {
      if (input.refused) expect(r.stderr).toMatch(new RegExp(`cannot read 'corpus/${input.name}': .*${input.refused.source}`));
      else expect([input.name, codes[input.name]]).toEqual([input.name, input.codes]);
    }
    expect(r.stderr).toContain("cannot read 'corpus/pipe.task.yaml': it is a named pipe (FIFO)");
    expect(r.stderr).toContain("cannot read 'corpus/zero.task.yaml': it is a character device");
  });

  it("prints bounded text: frames clipped and capped per file, control characters escaped", async () => {
    const r = await check(["corpus"]);
    noCrash(r);
    const lines = r.stdout.split("\n");
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(600);
    // 2,000 errors on one 31 KB line: 50 frames, then one line each
    expect(r.stdout).toContain("long-line-errors.task.yaml: 1950 more diagnostics shown without code frame, notes or help");
    expect(r.stdout.length).toBeLessThan(1024 * 1024);
    // no raw control character reaches the terminal (tabs and newlines aside)
    expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.stdout).toContain("\\e]0;owned\\ast\\e[2J");
  });

  it("finds a schema: path that a symlink leads out of the contract's folder (C014), not only at run time", async () => {
    const folder = join(dir, "linked");
    mkdirSync(folder);
    writeFileSync(join(dir, "secret-file.txt"), "TOPSECRET");
    symlinkSync(join(dir, "secret-file.txt"), join(folder, "evidence.json"));
    const contract = `contract: 1
task: { id: t, goal: g, outputs: [o], done: [ok] }
budgets: { model_calls: 1 }
verifiers:
  ok: { kind: rule, check: "result.ok" }
  shape: { kind: schema, schema: evidence.json }
units:
  a: { produces: [o], verify: [ok, shape] }
`;
    writeFileSync(join(folder, "c.task.yaml"), contract);
    const r = await check(["linked/c.task.yaml"]);
    noCrash(r);
    expect(r.stdout).toContain(
      "linked/c.task.yaml:6:34: error C014: verifier 'shape' names schema file 'evidence.json', which resolves outside the contract's folder through a symlink",
    );
    expect(r.stdout).not.toContain("TOPSECRET");
    expect(r.code).toBe(1);
  });

  it("prints the impact of a change at the top of a 1,500-unit chain, text and JSON, with long paths elided", async () => {
    const [text, json] = await Promise.all([
      taskspec(["impact", "corpus/deep-chain.task.yaml", "--change", "u0"], 120_000),
      taskspec(["impact", "corpus/deep-chain.task.yaml", "--change", "u0", "--format", "json"], 120_000),
    ]);
    for (const r of [text, json]) {
      noCrash(r);
      expect(r.code).toBe(0);
      // about 1.5 KB a unit; whole paths would be many megabytes (bench/RESULTS.md, "figures behind code comments")
      expect(r.stdout.length).toBeLessThan(1500 * 2048);
    }
    expect(text.stdout).toContain("  u1499  u0 --content--> u1 --(1487 more hops)--> u1488 --content--> u1489 --content--> ");
    expect(text.stdout).toContain("1487 paths are longer than 12 hops and shown with the middle elided");
    const report = JSON.parse(json.stdout) as { invalidated: { unit: string; path: string; cause: Record<string, unknown> }[] };
    const last = report.invalidated.at(-1)!;
    expect(last.path).toMatch(/^u0 --content--> u1 --\(1487 more hops\)--> u1488 .* --content--> u1499$/);
    let link = last.cause;
    let hops = 0;
    for (; link.type !== "change"; link = link.because as Record<string, unknown>) hops++;
    expect([hops, link]).toEqual([12, { type: "change", change: 0, origin: "u0", kind: "content", elidedHops: 1487 }]);
  });

  it("refuses a bad --cap, --store-outage or --lease-ttl of `run` with exit 2 before any run is recorded", async () => {
    const fixtures = fileURLToPath(new URL("../../runtime/test/fixtures/", import.meta.url));
    const store = `sqlite:${join(dir, "options.db")}`;
    const cases: [string[], string][] = [
      [["--cap", "model_calls=1e308"], 'bad cap "model_calls=1e308"'],
      [["--cap", "nope=3"], 'bad cap "nope=3"'],
      [["--store-outage", "-1s"], 'bad --store-outage "-1s"'],
      [["--store-outage", "0s"], 'bad --store-outage "0s": it must be longer than zero'],
      [["--lease-ttl", "25d"], 'bad --lease-ttl "25d": at most 24d'],
    ];
    for (const [option, message] of cases) {
      const r = await taskspec([
        "run",
        join(fixtures, "chain.task.yaml"),
        "--handlers",
        join(fixtures, "chain-handlers.mjs"),
        "--isolation",
        "none",
        "--store",
        store,
        "--run",
        "R1",
        ...option,
      ]);
      noCrash(r);
      const said = `taskspec: ${message}`;
      expect({ option, code: r.code, said: r.stderr.slice(0, said.length) }).toEqual({ option, code: 2, said });
      expect(r.stderr).not.toContain("started");
    }
    // nothing was recorded: the first bad option used to leave run R1 started
    const runs = await taskspec(["runs", "--store", store]);
    expect(runs.stdout).toContain("no runs in this store");
  });

  it("checks a folder of seeded mutants of the example contracts without an internal error, in bounded output", async () => {
    const seeds = seedContracts();
    const mutants = join(dir, "mutants");
    mkdirSync(mutants);
    const sample = fc.sample(mutant(seeds), { numRuns: 80, seed: 20261202 });
    let bytes = 0;
    sample.forEach((m, i) => {
      const text = mutantText(seeds, m);
      bytes += text.length;
      writeFileSync(join(mutants, `m${String(i).padStart(3, "0")}.task.yaml`), text);
    });
    const r = await check(["mutants"], 120_000);
    noCrash(r);
    expect([0, 1]).toContain(r.code);
    expect(r.stdout).toMatch(/in 80 files/);
    expect(r.stdout.length).toBeLessThan(bytes + sample.length * 64 * 1024);
  });
});
