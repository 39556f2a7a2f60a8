/**
 * Test headers name behaviour, not tracker items: an issue's or an item's
 * number means nothing to a reader without the tracker, so no test file's
 * opening comment refers to one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TEST_DIRS = ["test", "compiler/test", "runtime/test", "lsp/test", "cli/test", "examples/test", "extension/test"];
const TRACKER = /\b(?:issue|item)s? #?\d+/i;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : testFiles(p);
    return e.name.endsWith(".test.ts") ? [p] : [];
  });
}

/** The file's opening block comment, if it starts with one. */
function header(text: string): string {
  const start = text.indexOf("/**");
  if (start < 0 || text.slice(0, start).trim() !== "") return "";
  return text.slice(start, text.indexOf("*/", start) + 2);
}

it("no test file's header names a tracker issue or item", () => {
  const files = TEST_DIRS.flatMap((d) => testFiles(join(ROOT, d)));
  expect(files.length).toBeGreaterThan(100);
  const offenders = files.filter((f) => TRACKER.test(header(readFileSync(f, "utf8")))).map((f) => relative(ROOT, f));
  expect(offenders).toEqual([]);
});
