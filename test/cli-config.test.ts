/**
 * taskspec.config.yaml and inline suppressions through the built CLI, as real
 * processes in temporary projects: per-code severity, path overrides, ignored
 * paths, the configuration's own errors at file:line:col, and what every
 * output format and `compile` make of suppressed and re-graded diagnostics.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const DEAD = readFileSync(fileURLToPath(new URL("../specs/invalid/C080-dead-unit.task.yaml", import.meta.url)), "utf8");
const SUPPRESSED = DEAD.replace("  translate:\n", "  # taskspec-ignore C080: the German copy is kept for the audit\n  translate:\n");
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A temporary project: path -> content. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "taskspec-config-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function taskspec(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("taskspec check with taskspec.config.yaml", () => {
  it.each([
    ["no configuration: C080 is a warning, exit 0", undefined, "specs/dead.task.yaml", 0, /warning C080/, "0 errors, 1 warning"],
    ["C080: error makes it fail", "rules:\n  C080: error\n", "specs/dead.task.yaml", 1, /error C080/, "1 error, 0 warnings"],
    ["C080: off drops it", "rules:\n  C080: off\n", "specs/dead.task.yaml", 0, /^(?![\s\S]*C080)/, "0 errors, 0 warnings"],
    [
      "an override for a folder wins over the top-level rule",
      "rules:\n  C080: error\noverrides:\n  - files: [specs/legacy]\n    rules: { C080: off }\n",
      "specs/legacy/dead.task.yaml",
      0,
      /^(?![\s\S]*C080)/,
      "0 errors, 0 warnings",
    ],
    [
      "an override for another folder does not apply",
      "rules:\n  C080: error\noverrides:\n  - files: ['specs/legacy/**']\n    rules: { C080: off }\n",
      "specs/dead.task.yaml",
      1,
      /error C080/,
      "1 error",
    ],
    [
      "the nearest configuration is found from a subfolder",
      "rules: { C080: error }\n",
      "specs/deep/er/dead.task.yaml",
      1,
      /error C080/,
      "1 error",
    ],
  ])("%s", (_name, config, contract, code, output, summary) => {
    const root = project({ ...(config ? { "taskspec.config.yaml": config } : {}), [contract]: DEAD });
    const r = taskspec(root, "check", contract);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stdout).toMatch(output);
    expect(r.stdout).toContain(summary);
  });

  it("ignore: skips matching files found in folders quietly, and says so for a file named on the command line", () => {
    const root = project({
      "taskspec.config.yaml": "ignore: [specs/generated]\n",
      "specs/generated/g.task.yaml": DEAD,
      "specs/ok.task.yaml": DEAD,
    });
    const all = taskspec(root, "check", "specs");
    expect(all.stdout).toContain("in 1 file");
    expect(all.stdout).not.toContain("generated");
    expect(all.stderr).toBe("");
    const named = taskspec(root, "check", "specs/generated/g.task.yaml");
    expect(named.code).toBe(0);
    expect(named.stderr).toContain("skipped 'specs/generated/g.task.yaml': ignored by taskspec.config.yaml");
  });

  it.each([
    ["an error's code lowered", "rules:\n  C020: warning\n", "taskspec.config.yaml:2:9: error: C020 is an error and stays one"],
    ["an unknown code", "rules:\n  C999: off\n", "taskspec.config.yaml:2:3: error: 'C999' is not a diagnostic code"],
    ["a bad severity", "rules:\n  C080: loud\n", "taskspec.config.yaml:2:9: error: 'rules.C080' must be one of off, warning, error"],
    ["a misspelled key", "rule:\n  C080: off\n", "taskspec.config.yaml:1:1: error: unknown key 'rule' in the configuration"],
    ["an override without files", "overrides:\n  - rules: { C080: off }\n", "taskspec.config.yaml:2:5: error: 'overrides.0' needs 'files'"],
    ["broken YAML", "rules: [\n", "taskspec.config.yaml:2:1: error: YAML syntax error"],
  ])("a configuration with %s is refused with file:line:col, exit 2", (_name, config, message) => {
    const root = project({ "taskspec.config.yaml": config, "dead.task.yaml": DEAD });
    const r = taskspec(root, "check", "dead.task.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("taskspec: invalid configuration\n");
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe("inline suppressions through the CLI", () => {
  it("--strict passes with the one intentional warning suppressed, and the summary counts it", () => {
    const root = project({ "dead.task.yaml": SUPPRESSED });
    expect(taskspec(root, "check", "--strict", "dead.task.yaml")).toMatchObject({ code: 0 });
    expect(taskspec(root, "check", "dead.task.yaml").stdout).toContain("0 errors, 0 warnings (1 suppressed) in 1 file");
    const bare = project({ "dead.task.yaml": DEAD });
    expect(taskspec(bare, "check", "--strict", "dead.task.yaml").code).toBe(1);
  });

  it("an unused suppression fails --strict (C090)", () => {
    const root = project({ "dead.task.yaml": SUPPRESSED.replace("  write:\n", "  # taskspec-ignore C052: nothing soft here\n  write:\n") });
    const r = taskspec(root, "check", "--strict", "dead.task.yaml");
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/dead\.task\.yaml:14:3: warning C090: unused suppression: no C052 is reported in lines 15-17/);
  });

  it("--format json lists suppressed diagnostics with the reason and the comment's place", () => {
    const root = project({ "dead.task.yaml": SUPPRESSED });
    const doc = JSON.parse(taskspec(root, "check", "--format", "json", "dead.task.yaml").stdout) as {
      files: { diagnostics: unknown[]; suppressed: { code: string; reason: string; comment: { start: { line: number } } }[] }[];
    };
    expect(doc.files[0]!.diagnostics).toEqual([]);
    expect(doc.files[0]!.suppressed.map((s) => [s.code, s.reason, s.comment.start.line])).toEqual([
      ["C080", "the German copy is kept for the audit", 16],
    ]);
  });

  it("--format sarif keeps the result, marked suppressed in source with the reason", () => {
    const root = project({ "dead.task.yaml": SUPPRESSED });
    const log = JSON.parse(taskspec(root, "check", "--format", "sarif", "dead.task.yaml").stdout) as {
      runs: { results: { ruleId: string; suppressions?: { kind: string; justification: string }[] }[] }[];
    };
    expect(log.runs[0]!.results).toEqual([
      expect.objectContaining({
        ruleId: "C080",
        suppressions: [{ kind: "inSource", justification: "the German copy is kept for the audit" }],
      }),
    ]);
  });

  it("--format github and junit leave a suppressed warning out", () => {
    const root = project({ "dead.task.yaml": SUPPRESSED });
    expect(taskspec(root, "check", "--format", "github", "dead.task.yaml").stdout).not.toContain("C080");
    const junit = taskspec(root, "check", "--format", "junit", "--strict", "dead.task.yaml");
    expect(junit.code).toBe(0);
    expect(junit.stdout).not.toContain("<failure");
  });
});

describe("taskspec compile honours the configuration", () => {
  it("a warning raised to an error stops the plan (exit 1, no file); off lets it through", () => {
    const root = project({ "taskspec.config.yaml": "rules: { C080: error }\n", "dead.task.yaml": DEAD });
    const raised = taskspec(root, "compile", "dead.task.yaml", "-o", "plan.json");
    expect(raised.code).toBe(1);
    expect(raised.stderr).toContain("error C080");
    expect(() => readFileSync(join(root, "plan.json"))).toThrow();
    writeFileSync(join(root, "taskspec.config.yaml"), "rules: { C080: off }\n");
    const off = taskspec(root, "compile", "dead.task.yaml", "-o", "plan.json");
    expect(off.code).toBe(0);
    expect(off.stderr).toBe("");
    expect(JSON.parse(readFileSync(join(root, "plan.json"), "utf8"))).toHaveProperty("task");
  });
});
