/**
 * Run ids and unit ids match their documented pattern at every entry, and
 * the artifact storage checks containment before it creates a directory:
 * a run id with `../` used to create folders outside the artifact root.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FsArtifactStorage } from "../src/artifacts/storage.js";
import { runPlan } from "../src/engine/run-plan.js";
import { BadIdError, runIdProblem, unitIdProblem } from "../src/model/ids.js";
import { fixturePlan, freshStore, tempDir } from "./fixtures/load.js";

describe("ids", () => {
  it.each(["ME-042", "trip-booking-20261201T223300", "a.b_c-d", "x".repeat(128)])("run id %s is valid", (id) => {
    expect(runIdProblem(id)).toBeUndefined();
  });

  it.each(["../escape", "a/b", "", ".hidden", "-flag", "x".repeat(129), 'quote"d', "esc\u001b[2J", "sp ace", "a\\b"])(
    "run id %j is refused",
    (id) => {
      expect(runIdProblem(id)).toMatch(/is not valid/);
    },
  );

  it("unit ids follow the contract's name pattern", () => {
    expect(unitIdProblem("draft_2")).toBeUndefined();
    expect(unitIdProblem("../up")).toMatch(/is not valid/);
    expect(unitIdProblem("a/b")).toMatch(/is not valid/);
  });

  it("a run with a bad id, or a plan with a bad unit id, is refused before anything is created", async () => {
    const dir = tempDir();
    const store = await freshStore(dir);
    const plan = fixturePlan("chain.task.yaml");
    const artifacts = join(dir, "root", "artifacts");
    const go = (run: string, p = plan) =>
      runPlan({ store, plan: p, handlers: { units: {}, tools: {} }, run, artifacts, crash: () => {}, log: () => {} });
    await expect(go("../../outside")).rejects.toBeInstanceOf(BadIdError);
    const evil = { ...plan, units: plan.units.map((u, i) => (i === 0 ? { ...u, id: "../../../outside" } : u)) };
    await expect(go("R", evil)).rejects.toThrow(/the plan's unit id "\.\.\/\.\.\/\.\.\/outside" is not valid/);
    expect(existsSync(join(dir, "root"))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(
      readdirSync(dir)
        .filter((f) => f.startsWith("store.db"))
        .sort(),
    );
  });

  it("the artifact storage refuses a directory outside its root before creating it", async () => {
    const dir = tempDir();
    const storage = new FsArtifactStorage(join(dir, "artifacts"), false);
    await expect(storage.write("runs/../../outside/u/a1", "f.txt", new Uint8Array([1]))).rejects.toThrow(
      /not a plain path inside the artifact root/,
    );
    expect(existsSync(join(dir, "outside"))).toBe(false);
    expect(existsSync(join(dir, "artifacts"))).toBe(false);
  });
});
