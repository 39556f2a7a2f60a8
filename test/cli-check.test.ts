/**
 * `taskspec check` and `taskspec compile` end to end, as real processes over
 * the built CLI: output shape, exit codes 0/1/2, --strict, --format json,
 * directory recursion, unreadable files.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const specs = fileURLToPath(new URL("../specs/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "taskspec-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const clean = readFileSync(join(specs, "publish-post.task.yaml"), "utf8");
const cycle = readFileSync(join(specs, "invalid", "C020-cycle.task.yaml"), "utf8");
const warnOnly = readFileSync(join(specs, "invalid", "C080-dead-unit.task.yaml"), "utf8");
writeFileSync(join(dir, "clean.task.yaml"), clean);
writeFileSync(join(dir, "cycle.task.yaml"), cycle);
writeFileSync(join(dir, "warn.task.yaml"), warnOnly);
mkdirSync(join(dir, "tree", "deep"), { recursive: true });
writeFileSync(join(dir, "tree", "deep", "a.task.yaml"), clean);
writeFileSync(join(dir, "tree", "ignored.yaml"), "not: a contract");

describe("taskspec check", () => {
  it("exits 0 on a clean contract", () => {
    const r = run("check", "clean.task.yaml");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("0 errors, 0 warnings in 1 file");
  });

  it("prints errors like a compiler, with the source line and a caret, and exits 1", () => {
    const r = run("check", "cycle.task.yaml");
    expect(r.code).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(/^cycle\.task\.yaml:16:14: error C020: dependency cycle: draft -> review -> draft/);
    expect(lines[1]).toBe(" 16 |     needs: { review: content }");
    expect(lines[2]).toBe("    |              ^^^^^^");
    expect(lines[3]).toBe("cycle.task.yaml:20:14: note: review needs draft");
  });

  it("reports a schema file that does not exist beside the contract (C013), from any working directory", () => {
    const missing = readFileSync(join(specs, "invalid", "C013-missing-schema-file.task.yaml"), "utf8");
    mkdirSync(join(dir, "evidence"), { recursive: true });
    writeFileSync(join(dir, "evidence", "collect.task.yaml"), missing);
    const r = run("check", "evidence/collect.task.yaml");
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe(
      "evidence/collect.task.yaml:12:44: error C013: schema file 'schemas/evidence.json' of verifier 'evidence_schema' does not exist (paths are relative to the contract's folder)",
    );
    expect(run("compile", "evidence/collect.task.yaml").code).toBe(1);
    // the same path in the working directory does not count: it is resolved against the contract's folder
    mkdirSync(join(dir, "schemas"), { recursive: true });
    writeFileSync(join(dir, "schemas", "evidence.json"), "{}");
    expect(run("check", "evidence/collect.task.yaml").code).toBe(1);
    mkdirSync(join(dir, "evidence", "schemas"), { recursive: true });
    writeFileSync(join(dir, "evidence", "schemas", "evidence.json"), "{}");
    const fixed = run("check", "evidence/collect.task.yaml");
    expect(fixed.stdout).toContain("0 errors, 0 warnings in 1 file");
    expect(fixed.code).toBe(0);
  });

  it("exits 0 on warnings, 1 with --strict", () => {
    expect(run("check", "warn.task.yaml").code).toBe(0);
    expect(run("check", "--strict", "warn.task.yaml").code).toBe(1);
  });

  it("prints the documented JSON shape with 0-based positions", () => {
    const r = run("check", "--format", "json", "cycle.task.yaml", "clean.task.yaml");
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.files.map((f: { file: string }) => f.file)).toEqual(["cycle.task.yaml", "clean.task.yaml"]);
    expect(json.files[0].diagnostics[0]).toEqual({
      code: "C020",
      severity: "error",
      message: expect.stringContaining("draft -> review -> draft"),
      range: { start: { line: 15, character: 13 }, end: { line: 15, character: 19 } },
      related: [{ message: "review needs draft", range: { start: { line: 19, character: 13 }, end: { line: 19, character: 18 } } }],
      docs: expect.stringMatching(/diagnostics\.md#c020$/),
    });
    expect(json.files[1].diagnostics).toEqual([]);
  });

  it("searches directories recursively for *.task.yaml only", () => {
    const r = run("check", "--format", "json", "tree");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files.map((f: { file: string }) => f.file)).toEqual([join("tree", "deep", "a.task.yaml")]);
  });

  it("reads each file once when arguments overlap, in first-reached order", () => {
    symlinkSync(join(dir, "tree"), join(dir, "tree-link"));
    const r = run("check", "--format", "json", "tree", "tree/deep", "./tree/deep/a.task.yaml", "tree-link", "clean.task.yaml", "tree");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files.map((f: { file: string }) => f.file)).toEqual([
      join("tree", "deep", "a.task.yaml"),
      "clean.task.yaml",
    ]);
    expect(run("check", "tree", "tree/deep").stdout).toContain("in 1 file");
  });

  it("exits quietly when the reader closes stdout early (| head)", async () => {
    const child = spawn(process.execPath, [bin, "check", specs], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).not.toBe(70);
  });

  it("says clearly when a file is missing or unreadable, and exits 2", () => {
    const missing = run("check", "nope.task.yaml");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot read 'nope.task.yaml': no such file or directory");
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    if (process.getuid?.() !== 0) {
      writeFileSync(join(dir, "locked.task.yaml"), clean);
      chmodSync(join(dir, "locked.task.yaml"), 0o000);
      const locked = run("check", "locked.task.yaml");
      expect(locked.code).toBe(2);
      expect(locked.stderr).toContain("permission denied");
    }
  });

  it("refuses a FIFO and a symlink to /dev/zero inside a folder, without hanging or reading forever", () => {
    mkdirSync(join(dir, "special"));
    spawnSync("mkfifo", [join(dir, "special", "pipe.task.yaml")]);
    symlinkSync("/dev/zero", join(dir, "special", "zero.task.yaml"));
    const r = run("check", "special");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot read 'special/pipe.task.yaml': it is a named pipe (FIFO), not a regular file");
    expect(r.stderr).toContain("cannot read 'special/zero.task.yaml': it is a character device, not a regular file");
  });

  it("exits 2 on bad usage", () => {
    expect(run("check").code).toBe(2);
    expect(run("check", "--format", "xml", "clean.task.yaml").code).toBe(2);
  });
});

describe("taskspec compile", () => {
  it("writes the plan to -o and exits 0", () => {
    const r = run("compile", "clean.task.yaml", "-o", "plan.json");
    expect(r.code).toBe(0);
    const plan = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8"));
    expect(plan).toEqual(JSON.parse(readFileSync(join(specs, "publish-post.plan.json"), "utf8")));
  });

  it("prints the plan to stdout without -o", () => {
    const r = run("compile", "clean.task.yaml");
    expect(JSON.parse(r.stdout).task.id).toBe("publish-post");
  });

  it("prints diagnostics to stderr, writes no plan and exits 1 on errors", () => {
    const r = run("compile", "cycle.task.yaml", "-o", "cycle.json");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error C020");
    expect(() => readFileSync(join(dir, "cycle.json"))).toThrow();
  });

  it("exits 2 for a missing file", () => {
    const r = run("compile", "nope.task.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot read 'nope.task.yaml'");
  });
});
