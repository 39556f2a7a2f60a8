/**
 * `taskspec init [dir]` from the checkout (install.md, section 3): into a new
 * directory it writes the templates and a package.json named after the
 * directory, whose `build` and `start` scripts (the run command init prints)
 * build the handlers and run the contract to done in the split layout, with
 * no warning; run again, it refuses and writes nothing. The installed-package
 * test covers the other half (an existing package.json is kept).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const TSC = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
const NODE_MODULES = fileURLToPath(new URL("../node_modules", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "taskspec-init-"));
const taskspec = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8" });

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("taskspec init [dir]", () => {
  it("writes the scaffold and a package.json where none exists; the contract checks clean with --strict", () => {
    const init = taskspec("init", "My Project");
    expect(init.status, init.stderr).toBe(0);
    const dir = join(root, "My Project");
    for (const f of [
      "hello.task.yaml",
      "handlers/units.mts",
      "handlers/tools.mts",
      "handlers/verifiers.mts",
      "tsconfig.json",
      ".github/workflows/taskspec.yml",
      ".vscode/extensions.json",
    ])
      expect(existsSync(join(dir, f)), f).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toMatchObject({ name: "my-project", private: true });
    expect(init.stdout).toContain("cd My Project");
    const check = taskspec("check", "--strict", join("My Project", "hello.task.yaml"));
    expect(check.status, check.stdout).toBe(0);
  });

  it("its build and start scripts (the run command it prints) run the scaffold to done, split, with no warning", () => {
    const dir = join(root, "My Project");
    // The checkout's packages and TypeScript, as an install would put them beside the project.
    symlinkSync(NODE_MODULES, join(dir, "node_modules"), "dir");
    const { scripts } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: Record<string, string> };
    // The scripts have no quoted words: split on spaces as npm's shell would.
    const [tsc, ...buildArgs] = scripts.build!.split(" ");
    expect(tsc).toBe("tsc");
    const build = spawnSync(process.execPath, [TSC, ...buildArgs], { cwd: dir, encoding: "utf8" });
    expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
    const [bin, ...runArgs] = scripts.start!.split(" ");
    expect(bin).toBe("taskspec");
    expect(runArgs).toContain("--tools");
    const printed = /^ {2}npx (taskspec run .*)$/m.exec(taskspec("init", "elsewhere").stdout)?.[1];
    expect(printed).toBe(scripts.start);
    const run = spawnSync(process.execPath, [CLI, ...runArgs], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, TASKSPEC_CRASH_AT: "" },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^run \S+: done/m);
    expect(run.stderr).not.toContain("warning:");
  });

  it("--mcp: the tools bound to the MCP server beside the contract, with its lock: checks clean, runs to done, one note at the server", () => {
    const init = taskspec("init", "bound", "--mcp");
    expect(init.status, init.stderr).toBe(0);
    const dir = join(root, "bound");
    for (const f of ["hello.task.yaml", "hello.mcp-lock.json", "servers/notes-server.mjs", "handlers/units.mts", "handlers/tools.mts"])
      expect(existsSync(join(dir, f)), f).toBe(true);
    expect(init.stdout).toContain("npm i @modelcontextprotocol/sdk");
    const check = taskspec("check", "--strict", join("bound", "hello.task.yaml"));
    expect(check.status, check.stdout).toBe(0);
    symlinkSync(NODE_MODULES, join(dir, "node_modules"), "dir");
    const build = spawnSync(process.execPath, [TSC, "-p", "."], { cwd: dir, encoding: "utf8" });
    expect(build.status, `${build.stdout}${build.stderr}`).toBe(0);
    const { scripts } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: Record<string, string> };
    const run = spawnSync(process.execPath, [CLI, ...scripts.start!.split(" ").slice(1), "--run", "R"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, TASKSPEC_CRASH_AT: "" },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^run R: done/m);
    const notes = JSON.parse(readFileSync(join(dir, "notes.json"), "utf8")) as { notes: Array<{ key: string }> };
    expect(notes.notes.map((n) => n.key)).toEqual(["note:R"]);
  });

  it("writes nothing when any of its files exists", () => {
    const dir = join(root, "taken");
    const init = taskspec("init", "taken");
    expect(init.status).toBe(0);
    rmSync(join(dir, "hello.task.yaml"));
    writeFileSync(join(dir, "tsconfig.json"), "{}\n");
    const again = taskspec("init", "taken");
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("not overwriting");
    expect(existsSync(join(dir, "hello.task.yaml"))).toBe(false);
    expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toBe("{}\n");
  });
});
