/**
 * A `schema:` verifier path outside the contract's folder: C014 from `check`,
 * and a hand-edited compiled plan with such a path refused by `run` (exit 2)
 * before anything is recorded or read.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { planHashOf, type Plan } from "@taskspec/compiler";
import { runCli } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 60_000 });

const SPECS = fileURLToPath(new URL("../specs/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "taskspec-schema-paths-"));

describe("schema: paths stay in the contract's folder", () => {
  it.concurrent("check reports C014 at the path", async () => {
    const r = await runCli(["check", join(SPECS, "invalid/C014-schema-outside.task.yaml")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/:13:35: error C014: verifier 'climbs' names schema file 'schemas\/\.\.\/\.\.\/secret-file\.txt' outside/);
    expect(r.stdout).toMatch(/:14:37: error C014: verifier 'absolute' names schema file '\/etc\/passwd' outside .*\(an absolute path\)/);
    expect(r.stdout).not.toMatch(/C013/);
  });

  for (const schema of ["../secret-file.txt", "/etc/passwd", "schemas/../../x.json"]) {
    it.concurrent(`run refuses a compiled plan naming ${schema}`, async () => {
      const plan = JSON.parse(readFileSync(join(SPECS, "market-entry-pack.plan.json"), "utf8")) as Plan;
      for (const v of plan.verifiers) if (v.kind === "schema") v.schema = schema;
      plan.planHash = planHashOf(plan); // a consistent plan: the path, not the hash, is what is refused
      const file = join(dir, `${schema.replace(/\W+/g, "-")}.plan.json`);
      writeFileSync(file, JSON.stringify(plan));
      const store = `sqlite:${join(dir, `${schema.replace(/\W+/g, "-")}.db`)}`;
      const r = await runCli(["run", file, "--handlers", join(dir, "none.mjs")], {}, store);
      // the compiler's C014, at the verifier's place in the plan
      expect(r.stderr).toMatch(/#\/verifiers\/\d+\/schema: error C014: /);
      expect(r.stderr).toContain(`verifier 'evidence_schema' names schema file '${schema}' outside the contract's folder`);
      expect(r.stderr).toContain("nothing was run");
      expect(r.code).toBe(2);
    });
  }
});
