/**
 * `taskspec init [dir]` from the checkout (install.md, section 3): into a new
 * directory it writes the templates and a package.json named after the
 * directory; run again, it refuses and writes nothing. The installed-package
 * test covers the other half (an existing package.json is kept).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
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
      "handlers/hello.mts",
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
