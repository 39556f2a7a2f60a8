/**
 * The CI formats of `taskspec check`: SARIF 2.1.0 validated against
 * the vendored schema, GitHub workflow commands, JUnit XML, and the JSON
 * format's related locations, fixes and docs links. Real CLI processes over
 * specs/invalid (every diagnostic code, some with related notes and fixes).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DiagnosticCodes } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { sarifValidator } from "./sarif-schema.js";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const INVALID = "specs/invalid";
const cwd = fileURLToPath(new URL("..", import.meta.url));
const check = (...args: string[]) => spawnSync(process.execPath, [CLI, "check", ...args], { cwd, encoding: "utf8", maxBuffer: 64 << 20 });

describe("check --format sarif", () => {
  const r = check("--format", "sarif", INVALID);
  const log = JSON.parse(r.stdout) as {
    runs: Array<{ tool: { driver: { rules: Array<{ id: string; helpUri: string }> } }; results: Array<Record<string, unknown>> }>;
  };

  it("is a valid SARIF 2.1.0 log", () => {
    expect(r.status).toBe(1);
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const wrongLevel = structuredClone(log);
    wrongLevel.runs[0]!.results[0]!.level = "fatal";
    expect(validate(wrongLevel)).toBe(false); // the validator does reject a bad log
  });

  it("has one rule per catalog code with its docs link, and results with locations, related locations and fixes", () => {
    const { rules } = log.runs[0]!.tool.driver;
    expect(rules.map((x) => x.id)).toEqual(Object.keys(DiagnosticCodes));
    for (const rule of rules) expect(rule.helpUri).toMatch(new RegExp(`diagnostics\\.md#${rule.id.toLowerCase()}$`));
    const results = log.runs[0]!.results;
    expect(results.length).toBeGreaterThan(30);
    expect(results.some((x) => Array.isArray(x.relatedLocations))).toBe(true);
    expect(results.some((x) => Array.isArray(x.fixes))).toBe(true);
    const first = results[0] as {
      ruleId: string;
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
    };
    expect(first.locations[0]!.physicalLocation.artifactLocation.uri).toMatch(/^specs\/invalid\/.*\.task\.yaml$/);
    expect(first.locations[0]!.physicalLocation.region.startLine).toBeGreaterThan(0);
  });

  it("a clean contract gives a valid log with no results, exit 0", () => {
    const clean = check("--format", "sarif", "specs/publish-post.task.yaml");
    expect(clean.status).toBe(0);
    const parsed = JSON.parse(clean.stdout) as { runs: Array<{ results: unknown[] }> };
    expect(sarifValidator()(parsed)).toBe(true);
    expect(parsed.runs[0]!.results).toEqual([]);
  });
});

describe("check --format github", () => {
  it("prints one workflow command per diagnostic with file, line and column", () => {
    const json = JSON.parse(check("--format", "json", INVALID).stdout) as { files: Array<{ diagnostics: unknown[] }> };
    const total = json.files.reduce((n, f) => n + f.diagnostics.length, 0);
    const r = check("--format", "github", INVALID);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(total);
    for (const line of lines)
      expect(line).toMatch(
        /^::(error|warning|notice) file=specs\/invalid\/[^,]+\.task\.yaml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=C\d{3} \w+::\S/,
      );
  });
});

describe("check --format junit", () => {
  it("has one test case per file, failed ones carrying their diagnostics", () => {
    const r = check("--format", "junit", INVALID, "specs/publish-post.task.yaml");
    expect(r.status).toBe(1);
    const cases = r.stdout.match(/<testcase /g) ?? [];
    const failures = r.stdout.match(/<failure /g) ?? [];
    const files = JSON.parse(check("--format", "json", INVALID, "specs/publish-post.task.yaml").stdout).files as Array<{
      diagnostics: Array<{ severity: string }>;
    }>;
    expect(cases).toHaveLength(files.length);
    expect(failures).toHaveLength(files.filter((f) => f.diagnostics.some((d) => d.severity === "error")).length);
    expect(r.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="taskspec check" tests="\d+" failures="\d+">/);
    expect(r.stdout).toContain('<testcase name="specs/publish-post.task.yaml" classname="taskspec.check"/>');
    expect(r.stdout.trim().endsWith("</testsuites>")).toBe(true);
  });
});

describe("check --format json", () => {
  it("carries related locations, fixes and the docs link", () => {
    const files = JSON.parse(check("--format", "json", INVALID).stdout).files as Array<{ diagnostics: Array<Record<string, unknown>> }>;
    const all = files.flatMap((f) => f.diagnostics);
    for (const d of all) expect(d.docs).toMatch(/diagnostics\.md#c\d{3}$/);
    expect(all.some((d) => Array.isArray(d.related) && (d.related as Array<{ range?: unknown; message?: unknown }>)[0]?.range)).toBe(true);
    expect(all.some((d) => Array.isArray(d.fixes) && typeof (d.fixes as Array<{ title?: unknown }>)[0]?.title === "string")).toBe(true);
  });
});

describe("docs/ci.md", () => {
  it("shows the workflow `taskspec init` writes, as the template has it (less its comment)", () => {
    const page = readFileSync(new URL("../docs/ci.md", import.meta.url), "utf8");
    const shown = /`taskspec init` writes this workflow[^\n]*\n\n```yaml\n([\s\S]*?)```/.exec(page)?.[1];
    const template = readFileSync(new URL("../cli/templates/init/.github/workflows/taskspec.yml", import.meta.url), "utf8");
    expect(shown).toBe(template.replace(/^#.*\n/gm, ""));
  });
});
