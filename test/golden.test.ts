/**
 * Golden tests over specs/: every example contract compiles without errors to
 * exactly its specs/<name>.plan.json, and every specs/invalid case yields
 * exactly the diagnostics (code and 1-based line:col) in its .expected file.
 * File references (C013) are resolved against each contract's own folder, and
 * an MCP lock beside a case (`<name>.mcp-lock.json`) is read as `check` reads it.
 * `UPDATE_GOLDEN=1 npx vitest run test/golden.test.ts` rewrites the goldens.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { compile, DiagnosticCodes, PlanSchema } from "../compiler/src/index.js";
import { filesBeside, mcpLockBeside, mcpLockPath } from "../compiler/src/node/index.js";

const specs = fileURLToPath(new URL("../specs/", import.meta.url));
const invalid = join(specs, "invalid");
const update = process.env.UPDATE_GOLDEN === "1";
const taskFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".task.yaml"))
    .sort();
const validatePlan = new Ajv2020({ strict: false }).compile(PlanSchema);

function golden(path: string, actual: string): void {
  if (update) writeFileSync(path, actual);
  expect(existsSync(path), `${path} is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
  expect(actual).toBe(readFileSync(path, "utf8"));
}

describe("specs/*.task.yaml compile to their golden plans", () => {
  it.each(taskFiles(specs))("%s", (file) => {
    const { plan, diagnostics } = compile(readFileSync(join(specs, file), "utf8"), { files: filesBeside(join(specs, file)) });
    expect(diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.message}`)).toEqual([]);
    expect(plan).toBeDefined();
    expect(validatePlan(plan), JSON.stringify(validatePlan.errors)).toBe(true);
    golden(join(specs, file.replace(/\.task\.yaml$/, ".plan.json")), `${JSON.stringify(plan, null, 2)}\n`);
  });
});

function expectedLines(file: string): string {
  const path = join(invalid, file);
  // an MCP case has its lock beside it, as `taskspec check` reads it
  const mcp = existsSync(mcpLockPath(path)) ? { mcp: mcpLockBeside(path) } : {};
  const { diagnostics } = compile(readFileSync(path, "utf8"), { files: filesBeside(path), ...mcp });
  return diagnostics.map((d) => `${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1}\n`).join("");
}

describe("specs/invalid/*.task.yaml give exactly their expected diagnostics", () => {
  it.each(taskFiles(invalid))("%s", (file) => {
    golden(join(invalid, file.replace(/\.task\.yaml$/, ".expected")), expectedLines(file));
  });

  it("every code in the catalog is exercised by at least one invalid case", () => {
    const seen = new Set<string>();
    for (const file of taskFiles(invalid)) {
      const expected = join(invalid, file.replace(/\.task\.yaml$/, ".expected"));
      if (existsSync(expected)) for (const line of readFileSync(expected, "utf8").split("\n")) if (line) seen.add(line.split(" ")[0]!);
    }
    expect(Object.keys(DiagnosticCodes).filter((code) => !seen.has(code))).toEqual([]);
  });
});
