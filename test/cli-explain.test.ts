/**
 * Docs that ship with the tool: `taskspec explain` prints a code's
 * section of docs/diagnostics.md from the local copy, the CLI's docs links
 * point at that copy (or TASKSPEC_DOCS_URL), and no file links into a GitHub
 * organisation (the project owns none).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const DOCS = fileURLToPath(new URL("../docs/diagnostics.md", import.meta.url));
const cwd = fileURLToPath(new URL("..", import.meta.url));
const taskspec = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, TASKSPEC_DOCS_URL: "", NO_COLOR: "1", ...env },
  });

describe("taskspec explain", () => {
  it("prints the code's docs section, from its heading to the next", () => {
    const r = taskspec(["explain", "C020"]);
    expect(r.status, r.stderr).toBe(0);
    const page = readFileSync(DOCS, "utf8");
    const start = page.indexOf("## C020\n");
    const end = page.indexOf("\n## ", start + 1);
    expect(r.stdout).toBe(`${page.slice(start, end).trimEnd()}\n`);
    expect(taskspec(["explain", "c020"]).stdout).toBe(r.stdout);
  });

  it("refuses an unknown code with the list of codes, exit 2", () => {
    const r = taskspec(["explain", "C999"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown diagnostic code "C999": codes are C001, C002');
  });
});

describe("docs links", () => {
  it("point at the shipped docs by default and at TASKSPEC_DOCS_URL when set", () => {
    const local = taskspec(["check", "specs/invalid/C020-cycle.task.yaml"]);
    expect(local.stdout).toContain(`docs: ${pathToFileURL(DOCS).href}#c020`);
    const mirror = taskspec(["check", "--format", "json", "specs/invalid/C020-cycle.task.yaml"], {
      TASKSPEC_DOCS_URL: "https://docs.example/diagnostics.md",
    });
    expect(JSON.parse(mirror.stdout).files[0].diagnostics[0].docs).toBe("https://docs.example/diagnostics.md#c020");
  });

  it("none points into a GitHub organisation: the project owns none", () => {
    // Left out: lockfiles (dependencies' funding links) and the SARIF schema vendored
    // as published (its own $id). This file names the pattern it looks for.
    const git = spawnSync(
      "git",
      [
        "grep",
        "-n",
        "github\\.com/",
        "--",
        ":!**/package-lock.json",
        ":!package-lock.json",
        ":!test/fixtures/sarif/",
        ":!test/cli-explain.test.ts",
      ],
      { cwd, encoding: "utf8" },
    );
    expect(git.status, git.stderr).toBe(1); // git grep: 1 = no match
    expect(git.stdout).toBe("");
  });
});
