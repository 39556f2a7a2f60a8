/**
 * A handler process may read only its read roots (isolation/launch.ts), so
 * every runtime file its script imports from outside the script's own folder
 * must be among them, whatever folder the handler module lives in: a missing
 * one stops every handler process at load, before the handler runs.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { childEntryPath, handlerReadRoots } from "../src/isolation/launch.js";

describe("the handler process's script imports only what it may read", () => {
  it("each import of the built child-entry.js outside its folder is a read root of a module in a temp folder", () => {
    const entry = childEntryPath();
    const source = readFileSync(entry, "utf8");
    const imports = [...source.matchAll(/from\s+"(\.[^"]+)"/g)].map((m) => resolve(dirname(entry), m[1]!));
    const outside = imports.filter((p) => dirname(p) !== dirname(entry));
    expect(outside.length).toBeGreaterThan(0);
    const roots = handlerReadRoots(resolve(tmpdir(), "somewhere-else", "handlers.mjs"));
    for (const file of outside) expect(roots, file).toContain(file);
  });
});
