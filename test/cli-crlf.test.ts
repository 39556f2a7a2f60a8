/**
 * The CLI's code frames on a CRLF contract are the LF ones: same line:col,
 * same caret, no carriage return (or its escape) in the frame.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 60_000 });

const INVALID = fileURLToPath(new URL("../specs/invalid/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "taskspec-crlf-"));

describe("taskspec check on CRLF contracts", () => {
  for (const name of ["C002-unknown-key", "C010-unknown-need", "C020-cycle"]) {
    it.concurrent(name, async () => {
      const lf = readFileSync(join(INVALID, `${name}.task.yaml`), "utf8");
      const lfFile = join(dir, `${name}.lf.task.yaml`);
      const crlfFile = join(dir, `${name}.crlf.task.yaml`);
      writeFileSync(lfFile, lf);
      writeFileSync(crlfFile, lf.replaceAll("\n", "\r\n"));
      const [a, b] = await Promise.all([runCli(["check", lfFile]), runCli(["check", crlfFile])]);
      expect(a.code).toBe(1);
      expect(b.code).toBe(1);
      expect(b.stdout).not.toMatch(/\r|\\r/);
      expect(b.stdout.replaceAll(crlfFile, "F")).toBe(a.stdout.replaceAll(lfFile, "F"));
    });
  }
});
