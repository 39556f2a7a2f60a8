/**
 * Rows of docs/runtime.md's "compiler checks and the run-time guards" table
 * that no end-to-end suite shows on its own: a check passes only when it is
 * exactly `true` (an evaluation error or any other value fails closed, with
 * the values it read), and an attempt directory is written once (a second
 * write of a name, or a write through a symlink, is refused).
 */
import { mkdtempSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { ArtifactPathError, FsArtifactStorage } from "../src/artifacts/storage.js";
import { checkPasses } from "../src/engine/expressions.js";

const plan = compile(
  `contract: 1
task: { id: t, version: 1, goal: g, outputs: [o], done: [ok] }
budgets: { model_calls: 1 }
verifiers:
  ok: { kind: rule, check: "result.count > 2" }
units:
  u: { produces: [o], verify: [ok], timeout: 1m }
`,
).plan!;
const check = plan.verifiers.find((v) => v.name === "ok")!.check!;

describe("C060: only compiled expressions, true or failed", () => {
  it.each([
    ["true", { count: 3 }, true],
    ["false, with the value it read", { count: 1 }, false],
    ["an operand of the wrong type at run time", { count: "many" }, false],
    ["a missing field", {}, false],
  ])("%s", (_name, result, passed) => {
    const out = checkPasses(check, { result });
    expect(out.passed).toBe(passed);
    if (!passed) expect(out.reason).toMatch(/result\.count > 2/);
  });
});

describe("C012: attempt directories are written once", () => {
  const root = mkdtempSync(join(tmpdir(), "taskspec-once-"));
  const storage = new FsArtifactStorage(root, false);

  it("a second write of the same name in one attempt directory is refused", async () => {
    await storage.write("runs/R/u/a1", "o.json", Buffer.from("{}"));
    await expect(storage.write("runs/R/u/a1", "o.json", Buffer.from("{}"))).rejects.toThrow(/already exists/);
  });

  it("a write through a symlink planted in the attempt directory is refused", async () => {
    mkdirSync(join(root, "runs/R/u/a2"), { recursive: true });
    writeFileSync(join(root, "outside.txt"), "x");
    symlinkSync(join(root, "outside.txt"), join(root, "runs/R/u/a2/o.json"));
    await expect(storage.write("runs/R/u/a2", "o.json", Buffer.from("{}"))).rejects.toBeInstanceOf(ArtifactPathError);
  });
});
