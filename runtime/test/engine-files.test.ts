/**
 * The engine stays split by job (CONTRIBUTING.md, "Adding a worker step"):
 * no file of runtime/src/engine grows past 500 lines.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ENGINE = join(dirname(fileURLToPath(import.meta.url)), "../src/engine");
const MAX_LINES = 500;

describe("runtime/src/engine: one job per file", () => {
  it(`every file is at most ${MAX_LINES} lines`, () => {
    const files = readdirSync(ENGINE).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(10);
    const long = files
      .map((f) => ({ file: f, lines: readFileSync(join(ENGINE, f), "utf8").split("\n").length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
