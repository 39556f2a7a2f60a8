/**
 * The packages as a user gets them: packed, installed into an
 * empty project outside the checkout, then `npx taskspec` used there: version,
 * init, the handlers' TypeScript build against the installed types, check,
 * compile, impact, graph, a configuration file and an inline suppression,
 * the shipped schemas' `$id`, run, a crash and its resume, status, the
 * language server answering `initialize` over stdio, `explain` with no
 * network and the docs links into the shipped copy, docs/ci.md's recipes, and
 * docs/tutorial.md, then docs/mcp.md in the tutorial's folder.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse as parseYaml } from "yaml";
import { packAndInstall, REPO, type Installed } from "./installed-package.js";
import { sarifValidator } from "./sarif-schema.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 900_000 });

let p: Installed;
const out = (r: { stdout: string; stderr: string }) => `${r.stdout}${r.stderr}`;
/** The bin `npx taskspec` runs (the first test goes through npx itself; npx costs a second per call on a loaded machine). */
const taskspec = (args: string[], env?: Record<string, string>) =>
  p.sh(process.execPath, [join(p.project, "node_modules", ".bin", "taskspec"), ...args], env);

beforeAll(() => {
  p = packAndInstall(["typescript@5.9.3", "@types/node@20.19.43"]);
});

describe("the installed tarballs", () => {
  it("every package ships its license, types, exports, engines and no sources", () => {
    for (const name of ["compiler", "runtime", "lsp", "cli"]) {
      const dir = join(p.project, "node_modules", "@taskspec", name);
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
      expect(pkg.license, name).toBe("MIT");
      expect(pkg.engines, name).toEqual({ node: ">=20" });
      expect(pkg.exports, name).toBeDefined();
      expect(existsSync(join(dir, String(pkg.types))), `${name} types`).toBe(true);
      expect(readFileSync(join(dir, "LICENSE"), "utf8")).toMatch(/^MIT License/);
      expect(existsSync(join(dir, "src")), `${name} ships src/`).toBe(false);
    }
    expect(readFileSync(join(REPO, "LICENSE"), "utf8")).toMatch(/^MIT License/);
  });

  it("npx taskspec --version prints the package version", () => {
    const r = p.sh("npx", ["taskspec", "--version"]);
    expect(r.status, out(r)).toBe(0);
    expect(r.stdout.trim()).toBe("0.1.0");
  });

  it("init scaffolds a project whose handlers build against the installed types and whose contract checks clean", () => {
    const init = taskspec(["init"]);
    expect(init.status, out(init)).toBe(0);
    for (const f of [
      "hello.task.yaml",
      "handlers/units.mts",
      "handlers/tools.mts",
      "handlers/verifiers.mts",
      "tsconfig.json",
      ".github/workflows/taskspec.yml",
      ".vscode/extensions.json",
    ]) {
      expect(existsSync(join(p.project, f)), f).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(p.project, "package.json"), "utf8")).name).toBe("user-project"); // not overwritten
    const again = taskspec(["init"]);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("not overwriting");
    const tsc = p.sh(process.execPath, [join(p.project, "node_modules", "typescript", "bin", "tsc"), "-p", "."]);
    expect(tsc.status, out(tsc)).toBe(0);
    const check = taskspec(["check", "--strict", "hello.task.yaml"]);
    expect(check.status, out(check)).toBe(0);
    expect(check.stdout).toContain("0 errors, 0 warnings in 1 file");
  });

  it("compile, impact and graph work on the scaffold", () => {
    const compile = taskspec(["compile", "hello.task.yaml", "-o", "plan.json"]);
    expect(compile.status, out(compile)).toBe(0);
    expect(JSON.parse(readFileSync(join(p.project, "plan.json"), "utf8")).task.id).toBe("hello");
    const impact = taskspec(["impact", "hello.task.yaml", "--change", "audience"]);
    expect(impact.status, out(impact)).toBe(0);
    expect(impact.stdout).toContain("publish");
    const graph = taskspec(["graph", "hello.task.yaml", "--format", "svg"]);
    expect(graph.status, out(graph)).toBe(0);
    expect(graph.stdout).toContain("<svg");
  });

  it("taskspec.config.yaml and inline suppressions apply, and the shipped schemas' $id resolve to the installed copies", () => {
    const dir = join(p.project, "policy");
    mkdirSync(dir, { recursive: true });
    const dead = readFileSync(join(REPO, "specs", "invalid", "C080-dead-unit.task.yaml"), "utf8");
    writeFileSync(join(dir, "taskspec.config.yaml"), "rules:\n  C080: error\n");
    writeFileSync(join(dir, "dead.task.yaml"), dead);
    const raised = taskspec(["check", "policy/dead.task.yaml"]);
    expect(raised.status, out(raised)).toBe(1);
    expect(raised.stdout).toContain("error C080");
    writeFileSync(
      join(dir, "dead.task.yaml"),
      dead.replace("  translate:\n", "  # taskspec-ignore C080: kept for the audit\n  translate:\n"),
    );
    const accepted = taskspec(["check", "--strict", "policy/dead.task.yaml"]);
    expect(accepted.status, out(accepted)).toBe(0);
    expect(accepted.stdout).toContain("(1 suppressed)");
    writeFileSync(join(dir, "taskspec.config.yaml"), "rules:\n  C020: off\n");
    const broken = taskspec(["check", "policy/dead.task.yaml"]);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain("policy/taskspec.config.yaml:2:9: error: C020 is an error and stays one");
    for (const file of ["contract.schema.json", "config.schema.json"]) {
      const path = join(p.project, "node_modules", "@taskspec", "compiler", file);
      const shipped = JSON.parse(readFileSync(path, "utf8")) as { $id: string };
      const resolved = new URL(shipped.$id, pathToFileURL(path));
      expect(resolved.href).toBe(pathToFileURL(path).href);
      expect(JSON.parse(readFileSync(resolved, "utf8"))).toEqual(shipped);
    }
  });

  it("the docs' $schema modelines name the installed schemas, which accept the scaffold and reject a bad value", () => {
    const modeline = (doc: string) => /# yaml-language-server: \$schema=(\S+)/.exec(readFileSync(join(REPO, "docs", doc), "utf8"))?.[1];
    const schemaAt = (doc: string) => {
      // Relative to the YAML file holding the modeline: here, files at the project's root.
      const path = join(p.project, modeline(doc)!);
      expect(existsSync(path), `${doc}: ${path}`).toBe(true);
      return new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(readFileSync(path, "utf8")) as object);
    };
    const contract = schemaAt("contract.md");
    expect(contract(parseYaml(readFileSync(join(p.project, "hello.task.yaml"), "utf8"))), JSON.stringify(contract.errors)).toBe(true);
    expect(contract({ contract: 1, task: { id: "x" }, units: [] })).toBe(false);
    const config = schemaAt("config.md");
    expect(config(parseYaml("rules:\n  C080: error\n")), JSON.stringify(config.errors)).toBe(true);
    expect(config({ rules: { C080: "loud" } })).toBe(false);
  });

  it("runs the scaffold to done, and a crash after the publish resumes without publishing twice", () => {
    // the run line `taskspec init` prints: units and tools in modules of their own
    const scaffoldRun = (id: string) => [
      "run",
      "hello.task.yaml",
      "--handlers",
      "dist/handlers/units.mjs",
      "--tools",
      "dist/handlers/tools.mjs",
      "--verifiers",
      "dist/handlers/verifiers.mjs",
      "--run",
      id,
    ];
    const run = taskspec(scaffoldRun("first"));
    expect(run.status, out(run)).toBe(0);
    expect(run.stdout).toContain("run first: done");
    expect(run.stderr).not.toContain("warning:"); // the split layout: the worker never imports the units
    const crashed = taskspec(scaffoldRun("second"), {
      TASKSPEC_CRASH_AT: "after-effect-before-receipt@publish",
    });
    expect(crashed.status, out(crashed)).not.toBe(0);
    const status = taskspec(["status", "second"]);
    expect(status.stdout, out(status)).toContain("effect STARTED: second/publish/a1/1 publish_note");
    const resumed = taskspec(["resume", "second"]);
    expect(resumed.status, out(resumed)).toBe(0);
    expect(resumed.stdout).toContain("run second: done");
    // one note per run: a second publish under the same key would have failed ("wx") and blocked the run
    expect(readdirSync(join(p.project, "outbox")).sort()).toEqual(["note%3Afirst.json", "note%3Asecond.json"]);
  });

  it("the language server answers initialize over stdio", async () => {
    const child = spawn("npx", ["taskspec", "lsp", "--stdio"], { cwd: p.project, stdio: ["pipe", "pipe", "pipe"] });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { processId: null, rootUri: null, capabilities: {} },
    });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const reply = await new Promise<string>((resolve) => {
      let text = "";
      child.stdout.on("data", (d: Buffer) => {
        text += d.toString();
        if (text.includes('"capabilities"')) resolve(text);
      });
    });
    child.kill();
    expect(reply).toContain('"id":1');
    expect(reply).toContain("textDocumentSync");
  });

  it("explain prints a code's docs with no network, and the docs links point at the copy shipped in the package", () => {
    const shipped = join(p.project, "node_modules", "@taskspec", "cli", "docs", "diagnostics.md");
    expect(readFileSync(shipped, "utf8")).toBe(readFileSync(join(REPO, "docs", "diagnostics.md"), "utf8"));
    // A network namespace of its own (loopback only, down): nothing can be fetched.
    const explain = p.sh("unshare", ["-rn", process.execPath, join(p.project, "node_modules", ".bin", "taskspec"), "explain", "C020"]);
    expect(explain.status, out(explain)).toBe(0);
    expect(explain.stdout.split("\n")[0]).toBe("## C020");
    expect(explain.stdout).toContain("<!-- fixed -->");
    writeFileSync(join(p.project, "cycle.task.yaml"), readFileSync(join(REPO, "specs", "invalid", "C020-cycle.task.yaml")));
    const check = taskspec(["check", "--format", "json", "cycle.task.yaml"], { TASKSPEC_DOCS_URL: "" });
    const docs = (JSON.parse(check.stdout) as { files: { diagnostics: { code: string; docs: string }[] }[] }).files[0]!.diagnostics;
    expect(docs.find((d) => d.code === "C020")?.docs).toBe(`${pathToFileURL(shipped).href}#c020`);
    // Used as a library (the language server in another client, a team's tooling): the compiler's own shipped copy.
    const lib = p.sh(
      process.execPath,
      ["--input-type=module", "-e", 'import { docsUrl } from "@taskspec/compiler"; console.log(docsUrl("C020"))'],
      { TASKSPEC_DOCS_URL: "" },
    );
    const link = new URL(lib.stdout.trim());
    expect(link.hash, out(lib)).toBe("#c020");
    expect(fileURLToPath(link)).toBe(join(p.project, "node_modules", "@taskspec", "compiler", "docs", "diagnostics.md"));
    expect(readFileSync(fileURLToPath(link), "utf8")).toBe(readFileSync(shipped, "utf8"));
  });

  it("docs/ci.md's recipes run as written: the workflow's check and SARIF steps, the GitLab job, the pre-commit hook, the git hook", () => {
    const page = readFileSync(join(REPO, "docs", "ci.md"), "utf8");
    const section = (title: string) => page.split(/^## /m).find((s) => s.startsWith(`${title}\n`)) ?? "";
    const blocks = (text: string, lang: string) =>
      [...text.matchAll(new RegExp(`\`\`\`${lang}\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]!);
    // A folder of the project without a package.json of its own: `npx taskspec` finds the installed bin, as in CI.
    const dir = join(p.project, "ci");
    mkdirSync(dir);
    const sh = (command: string) =>
      spawnSync("sh", ["-c", command], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 120_000 });
    writeFileSync(join(dir, "post.task.yml"), readFileSync(join(REPO, "specs", "publish-post.task.yaml")));
    const dead = readFileSync(join(REPO, "specs", "invalid", "C080-dead-unit.task.yaml"));

    // GitHub Actions: the steps that run taskspec (`npm ci` is the install, done).
    const steps = blocks(section("GitHub Actions"), "yaml").flatMap((b) =>
      [...b.matchAll(/- run: (npx taskspec .*)$/gm)].map((m) => m[1]!),
    );
    expect(steps).toEqual(["npx taskspec check --format github --strict .", "npx taskspec check --format sarif . > taskspec.sarif"]);
    const clean = sh(steps[0]!);
    expect(clean.status, out(clean)).toBe(0);
    writeFileSync(join(dir, "dead.task.yaml"), dead);
    const annotated = sh(steps[0]!);
    expect(annotated.status, out(annotated)).toBe(1);
    expect(annotated.stdout).toMatch(/^::warning file=dead\.task\.yaml,line=\d+,col=\d+,.*title=C080 /m);
    expect(sh(steps[1]!).status).toBe(0); // no --strict: the step writes the log, the upload shows it
    const sarif = JSON.parse(readFileSync(join(dir, "taskspec.sarif"), "utf8")) as { runs: { results: { ruleId: string }[] }[] };
    const validate = sarifValidator();
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(["C080"]);

    // GitLab CI: the job's taskspec line, then the report it keeps.
    const [job] = blocks(section("GitLab CI"), "yaml").flatMap((b) => [...b.matchAll(/^\s+- (npx taskspec .*)$/gm)].map((m) => m[1]!));
    const gitlab = sh(job!);
    expect(gitlab.status, out(gitlab)).toBe(1);
    const junit = readFileSync(join(dir, "taskspec-junit.xml"), "utf8");
    expect(junit).toContain('<testcase name="post.task.yml" classname="taskspec.check"/>');
    expect(junit).toMatch(/<testcase name="dead\.task\.yaml"[^>]*>[\s\S]*C080/);

    // pre-commit: the hook's entry with the staged files its `files` pattern selects (what pre-commit passes).
    expect(sh("git init -q && git add post.task.yml dead.task.yaml").status).toBe(0);
    const config = parseYaml(blocks(section("pre-commit"), "yaml")[0]!) as { repos: { hooks: { entry: string; files: string }[] }[] };
    const hook = config.repos[0]!.hooks[0]!;
    const staged = sh("git diff --cached --name-only")
      .stdout.split("\n")
      .filter((f) => new RegExp(hook.files).test(f));
    expect(staged.sort()).toEqual(["dead.task.yaml", "post.task.yml"]);
    const precommit = sh(`${hook.entry} ${staged.join(" ")}`);
    expect(precommit.status, out(precommit)).toBe(1);
    expect(precommit.stdout).toContain("warning C080");

    // The plain git hook: a real commit, refused while a staged contract warns, made once it is unstaged.
    writeFileSync(join(dir, ".git", "hooks", "pre-commit"), blocks(section("pre-commit"), "sh")[0]!, { mode: 0o755 });
    const commit = () => sh("git -c user.name=ci -c user.email=ci@example.org commit -q -m contracts");
    const refused = commit();
    expect(refused.status, out(refused)).not.toBe(0);
    expect(refused.stderr).toContain("warning C080"); // git sends a hook's output to stderr
    expect(sh("git rm -q --cached dead.task.yaml").status).toBe(0);
    const made = commit();
    expect(made.status, out(made)).toBe(0);
    expect(sh("git log --name-only --format=").stdout.trim()).toBe("post.task.yml");
  });

  it("docs/tutorial.md runs step by step: every file it creates, every edit, every sh command in order, every output it states", () => {
    // A fresh, empty folder of the project (node_modules resolve from the project).
    // `npx x` is run as the project's bin x itself: npx in a folder of its own
    // could fetch a registry package of that name, which is not ours.
    const dir = join(p.project, "tutorial");
    mkdirSync(dir);
    const page = readFileSync(join(REPO, "docs", "tutorial.md"), "utf8");
    const env = {
      ...process.env,
      PATH: `${join(p.project, "node_modules", ".bin")}:${process.env.PATH}`,
      TASKSPEC_CRASH_AT: "",
      NO_COLOR: "1",
    };
    const steps = tutorialSteps(page);
    const count = (kind: TutorialStep["kind"]) => steps.filter((s) => s.kind === kind).length;
    // The page's shape: the reader writes the contract and three files, edits twice, and runs the rest.
    expect([count("file"), count("diff"), count("output")]).toEqual([4, 2, 8]);
    const ran = runSteps(steps, dir, env);
    expect(count("claim")).toBe(2);
    expect(ran).toContain("npx taskspec resume second");
    // The run crashed after its post and was resumed: one post per run, and the second run is done.
    expect(readdirSync(join(dir, "outbox")).sort()).toEqual(["notes-first.md", "notes-second.md"]);
    const store = `sqlite:${join(dir, ".taskspec", "store.db")}`;
    const status = taskspec(["status", "--store", store, "second"]);
    expect(status.stdout, out(status)).toContain("run second (release-notes): done");
    const show = taskspec(["show", "--store", store, "second", "publish"]);
    expect(show.stdout.match(/^ {2}effect /gm), out(show)).toHaveLength(1); // "has one effect"
  });

  it("docs/mcp.md runs step by step in the tutorial's folder: the server, the bindings, the lock, the crash, one post", () => {
    const dir = join(p.project, "tutorial");
    const page = readFileSync(join(REPO, "docs", "mcp.md"), "utf8");
    const env = {
      ...process.env,
      PATH: `${join(p.project, "node_modules", ".bin")}:${process.env.PATH}`,
      TASKSPEC_CRASH_AT: "",
      NO_COLOR: "1",
    };
    const steps = tutorialSteps(page);
    const count = (kind: TutorialStep["kind"]) => steps.filter((s) => s.kind === kind).length;
    // the server and the emptied tools module, one edit of the contract, five stated outputs
    expect([count("file"), count("diff"), count("output")]).toEqual([2, 1, 5]);
    const ran = runSteps(steps, dir, env);
    expect(ran).toContain("npx taskspec resume third");
    const notes = JSON.parse(readFileSync(join(dir, "notes.json"), "utf8")) as { posts: Array<{ key: string }> };
    expect(notes.posts.map((post) => post.key)).toEqual(["notes-third"]); // the server's own count: one post
    expect(existsSync(join(dir, "release.mcp-lock.json"))).toBe(true);
    const status = taskspec(["status", "--store", `sqlite:${join(dir, ".taskspec", "store.db")}`, "third"]);
    expect(status.stdout, out(status)).toContain("run third (release-notes): done");
  });
});

/**
 * Runs a page's steps in `dir` as a reader would, each `sh` line in a shell
 * of its own (an `export X=Y` line sets X for the lines after it), and
 * returns the commands run. Every stated output must match what the command
 * before it printed.
 */
function runSteps(steps: TutorialStep[], dir: string, env: NodeJS.ProcessEnv): string[] {
  let last: { line: string; stdout: string } | undefined;
  const ran: string[] = [];
  for (const step of steps) {
    if (step.kind === "install") {
      // What packAndInstall did for this project: the tarballs, TypeScript and Node's types.
      expect(step.text).toBe("npm init -y\nnpm i -D /path/to/taskspec/dist/*.tgz typescript @types/node\n");
    } else if (step.kind === "file") {
      mkdirSync(dirname(join(dir, step.path)), { recursive: true });
      writeFileSync(join(dir, step.path), step.text);
    } else if (step.kind === "diff") {
      const file = join(dir, step.path);
      writeFileSync(file, applyHunks(readFileSync(file, "utf8"), step.hunks, step.path));
    } else if (step.kind === "sh") {
      const exported = /^export (\w+)=(\S+)$/.exec(step.line);
      if (exported) {
        env[exported[1]!] = exported[2]!;
        continue;
      }
      const expected = Number(/# exit (\d+)\s*$/.exec(step.line)?.[1] ?? 0);
      const r = spawnSync("sh", ["-c", step.line.replace(/\bnpx /g, "")], { cwd: dir, encoding: "utf8", env, timeout: 120_000 });
      expect(r.status, `${step.line}\n${r.stdout}${r.stderr}`).toBe(expected);
      last = { line: step.line, stdout: r.stdout };
      ran.push(step.line.replace(/\s*#.*$/, ""));
    } else if (step.kind === "output") {
      expect(last, "an output block with no command before it").toBeDefined();
      expect(last!.stdout, `${last!.line} should print:\n${step.text}`).toMatch(statedOutput(step.text));
    } else {
      // "It prints `X`" / "It ends `X (…)`": the last command printed X (up to an ellipsis).
      expect(last!.stdout, last!.line).toContain(step.text.split("…")[0]);
    }
  }
  return ran;
}

/** One step of docs/tutorial.md (or docs/mcp.md), in page order. */
type TutorialStep =
  | { kind: "install"; text: string }
  | { kind: "file"; path: string; text: string }
  | { kind: "diff"; path: string; hunks: string[][] }
  | { kind: "sh"; line: string }
  | { kind: "output"; text: string }
  | { kind: "claim"; text: string };

/**
 * Every fenced block of the tutorial becomes a step, and a block of no kind
 * below fails: the page has no code the test does not run or check. A block
 * after prose ending "`path`:" is a file the reader creates; `diff` is an
 * edit; `sh`, one command per line; `text`, what the command before it
 * printed; the one block with no language, the install (done by the setup).
 */
function tutorialSteps(page: string): TutorialStep[] {
  const steps: TutorialStep[] = [];
  let at = 0;
  const claims = (prose: string) => {
    for (const [, text] of prose.matchAll(/\bIt (?:prints|ends) `([^`]+)`/g)) steps.push({ kind: "claim", text: text! });
  };
  for (const m of page.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    const prose = page.slice(at, m.index);
    at = m.index + m[0].length;
    claims(prose);
    const [, lang, text] = m as unknown as [string, string, string];
    const created = /`([^`]+)`:\s*$/.exec(prose)?.[1];
    if (lang === "") steps.push({ kind: "install", text });
    else if (lang === "sh") for (const line of text.split("\n").filter((l) => l.trim() !== "")) steps.push({ kind: "sh", line });
    else if (lang === "text") steps.push({ kind: "output", text });
    else if (lang === "diff") {
      const path = /^\+\+\+ (\S+)$/m.exec(text)?.[1];
      if (!path) throw new Error(`a diff block names no file:\n${text}`);
      const hunks = text
        .split(/^@@.*\n/m)
        .slice(1)
        .map((h) => h.split("\n").filter((l) => l !== ""));
      steps.push({ kind: "diff", path, hunks });
    } else if (created && ["yaml", "ts", "json", "js"].includes(lang)) steps.push({ kind: "file", path: created, text });
    else throw new Error(`a \`\`\`${lang} block the tutorial test neither runs nor checks:\n${text}`);
  }
  claims(page.slice(at));
  return steps;
}

/** Applies a diff's hunks as a reader would: each hunk's old lines must occur exactly once. */
function applyHunks(text: string, hunks: string[][], path: string): string {
  for (const hunk of hunks) {
    const side = (keep: string) =>
      hunk
        .filter((l) => l[0] === " " || l[0] === keep)
        .map((l) => `${l.slice(1)}\n`)
        .join("");
    const [old, now] = [side("-"), side("+")];
    const found = text.split(old).length - 1;
    if (found !== 1) throw new Error(`${path}: the diff's lines occur ${found} times, not once:\n${old}`);
    text = text.replace(old, () => now);
  }
  return text;
}

/** A stated output as a pattern over whole lines: `…` in a line is any text, a line of `…` alone any lines. */
function statedOutput(text: string): RegExp {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const lines = text.replace(/\n$/, "").split("\n");
  const body = lines.map((l) => (l === "…" ? "(?:[^\\n]*\\n)*?" : `${l.split("…").map(escape).join("[^\\n]*")}(?:\\n|$)`)).join("");
  return new RegExp(`^${body}`, "m");
}
