/**
 * Everyday CLI conventions: standard input as `-`,
 * FORCE_COLOR and --color, glob patterns and `.task.yml`, `-o/--output` on
 * every command that prints a document, TASKSPEC_STORE for the operator
 * commands, numeric options validated before anything is recorded.
 */
import { execFile, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const cwd = fileURLToPath(new URL("..", import.meta.url));
const CYCLE = join(cwd, "specs/invalid/C020-cycle.task.yaml");
const taskspec = (args: string[], env: Record<string, string> = {}, input?: string) =>
  spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    input,
    env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", TASKSPEC_STORE: "", ...env },
  });

/** The same, as a promise: the table test below starts its ~60 processes a few at a time. */
const taskspecAsync = (args: string[], env: Record<string, string> = {}) =>
  new Promise<{ stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", TASKSPEC_STORE: "", ...env } },
      (_error, stdout, stderr) => resolve({ stdout, stderr }),
    );
  });

/** `f` over `items`, at most `width` at once, results in the items' order. */
async function pooled<T, R>(items: T[], width: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}

describe("CLI conventions", () => {
  it("check - reads the contract from standard input", () => {
    const r = taskspec(["check", "-"], {}, readFileSync(CYCLE, "utf8"));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^-:\d+:\d+: error C020:/);
  });

  it("FORCE_COLOR=1 colours a pipe, FORCE_COLOR=0 does not", () => {
    expect(taskspec(["check", CYCLE], { FORCE_COLOR: "1" }).stdout).toContain("\u001b[31;1merror C020");
    expect(taskspec(["check", CYCLE], { FORCE_COLOR: "0" }).stdout).not.toContain("\u001b[");
  });

  it("--concurrency must be a positive integer, refused before a run is created", () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "taskspec-conv-")), "store.db")}`;
    for (const bad of ["abc", "0", "1.5", "-2"]) {
      const r = taskspec([
        "run",
        "specs/publish-post.task.yaml",
        "--handlers",
        "examples/dist/handlers/publish-post.js",
        "--store",
        store,
        "--concurrency",
        bad,
      ]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--concurrency must be a positive integer, not ${JSON.stringify(bad)}`);
    }
  });

  it("TASKSPEC_STORE is the store of every command that takes --store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "taskspec-conv-"));
    // Arguments that reach the store; a run that does not exist is enough for most.
    const args: Record<string, string[]> = {
      run: [
        "runtime/test/fixtures/chain.task.yaml",
        "--handlers",
        "runtime/test/fixtures/chain-handlers.mjs",
        "--artifacts",
        join(dir, "artifacts"),
      ],
      resume: ["nope"],
      submit: ["runtime/test/fixtures/chain.task.yaml", "--handlers", join(cwd, "runtime/test/fixtures/chain-handlers.mjs")],
      worker: ["--exit-when-idle"],
      gc: ["--older-than", "30d", "--dry-run"],
      // a bundle is checked whole before the store is opened: this one is real (written below)
      import: [join(dir, "b1.bundle.json")],
      workers: [],
      status: ["nope"],
      runs: [],
      events: ["nope"],
      show: ["nope", "u"],
      handoff: ["nope"],
      approve: ["nope", "u", "--token", "t"],
      cancel: ["nope"],
      rerun: ["nope", "u"],
      branch: ["nope"],
      narrow: ["nope", "--to", "u"],
      flag: ["nope", "--reason", "r"],
      unflag: ["nope"],
      ui: ["--port", "0", "--exit-after-start"],
      resolve: ["nope", "e", "--absent"],
      budget: ["nope", "--cap", "model_calls=5"],
      "store init-operator": ["ops", "--key-file", join(dir, "ops.key")],
    };
    // Every command whose help offers --store, subcommands included: a new one fails here until it is in the table.
    const help = async (cmd: string[]) => (await taskspecAsync([...cmd, "--help"])).stdout;
    const commandsOf = (text: string) => [...text.matchAll(/^ {2}([a-z][a-z-]*)(?: |$)/gm)].map((m) => m[1]!).filter((c) => c !== "help");
    const withStore = (
      await pooled(commandsOf(await help([])), 4, async (c) => {
        const own = await help([c]);
        if (own.includes("--store <url>")) return [c];
        const subs = commandsOf(own.slice(own.indexOf("Commands:")));
        const offers = await pooled(subs, 4, async (sub) => (await help([c, sub])).includes("--store <url>"));
        return subs.filter((_, i) => offers[i]).map((sub) => `${c} ${sub}`);
      })
    ).flat();
    expect(withStore.sort()).toEqual(Object.keys(args).sort());
    const source = { TASKSPEC_STORE: `sqlite:${join(dir, "bundle-source.db")}` };
    const made = await taskspecAsync(["run", ...args.run!, "--run", "B1"], source);
    expect(made.stdout, made.stderr).toMatch(/run B1: done/);
    const bundled = await taskspecAsync(["handoff", "B1", "--bundle", join(dir, "b1.bundle.json")], source);
    expect(existsSync(join(dir, "b1.bundle.json")), bundled.stderr).toBe(true);
    const ran = await pooled(Object.entries(args), 4, async ([command, rest]) => {
      const file = join(dir, `${command.replace(" ", "-")}.db`);
      const r = await taskspecAsync([...command.split(" "), ...rest], { TASKSPEC_STORE: `sqlite:${file}` });
      return { command, file, stderr: r.stderr };
    });
    for (const { command, file, stderr } of ran) {
      expect(existsSync(file), `${command}: ${stderr}`).toBe(true);
      expect(stderr, command).not.toMatch(/internal error/);
    }
  }, 240_000);

  it("--color always colours a pipe and wins over FORCE_COLOR=0; --color never wins over FORCE_COLOR=1", () => {
    expect(taskspec(["check", "--color", "always", CYCLE], { FORCE_COLOR: "0" }).stdout).toContain("\u001b[31;1merror C020");
    expect(taskspec(["check", "--color", "never", CYCLE], { FORCE_COLOR: "1" }).stdout).not.toContain("\u001b[");
    expect(taskspec(["compile", "--color", "always", CYCLE]).stderr).toContain("\u001b[31;1merror C020");
    const bad = taskspec(["check", "--color", "sometimes", CYCLE]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("Allowed choices are auto, always, never");
  }, 240_000);

  it("check expands a quoted glob itself, and finds .task.yml like .task.yaml", () => {
    const root = mkdtempSync(join(tmpdir(), "taskspec-glob-"));
    mkdirSync(join(root, "specs", "a", "b"), { recursive: true });
    copyFileSync(CYCLE, join(root, "specs", "a", "one.task.yaml"));
    copyFileSync(CYCLE, join(root, "specs", "a", "b", "two.task.yml"));
    copyFileSync(CYCLE, join(root, "specs", "a", "b", "notes.yaml"));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    const files = (out: string) => [...new Set(out.split("\n").flatMap((l) => /^([^:\s]+):\d+:\d+: error/.exec(l)?.[1] ?? []))];
    expect(files(run("check", "specs/**/*.task.yaml").stdout)).toEqual(["specs/a/one.task.yaml"]);
    expect(files(run("check", "specs/**/*.task.{yaml,yml}").stdout)).toEqual(["specs/a/b/two.task.yml", "specs/a/one.task.yaml"]);
    expect(files(run("check", "specs").stdout)).toEqual(["specs/a/b/two.task.yml", "specs/a/one.task.yaml"]);
    const none = run("check", "specs/**/*.task.json");
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("no files match 'specs/**/*.task.json'");
  }, 240_000);

  it("-o writes the document of check, compile, impact and graph to a file, and nothing to stdout", () => {
    const out = mkdtempSync(join(tmpdir(), "taskspec-out-"));
    const post = "specs/publish-post.task.yaml";
    const cases: [string, string[], (text: string) => void][] = [
      ["check.json", ["check", "--format", "json", CYCLE], (t) => expect(JSON.parse(t)).toHaveProperty("files")],
      ["check.txt", ["check", "--color", "never", CYCLE], (t) => expect(t).toContain("error C020")],
      ["plan.json", ["compile", post], (t) => expect(JSON.parse(t)).toHaveProperty("units")],
      [
        "impact.json",
        ["impact", post, "--change", "research", "--format", "json"],
        (t) => expect(JSON.parse(t)).toHaveProperty("invalidated"),
      ],
      ["graph.mmd", ["graph", post], (t) => expect(t).toMatch(/^flowchart /m)],
    ];
    for (const [name, args, expectText] of cases) {
      const r = taskspec([...args, "-o", join(out, name)]);
      expect(r.stdout, name).toBe("");
      expectText(readFileSync(join(out, name), "utf8"));
    }
    const unwritable = taskspec(["check", CYCLE, "--output", join(out, "missing", "x.txt")]);
    expect(unwritable.status).toBe(2);
    expect(unwritable.stderr).toContain("cannot write");
  }, 240_000); // six CLI processes, each slow on a loaded machine (bench/RESULTS.md, "figures behind code comments")
});
