/**
 * Numeric command-line options are validated up front: out of range,
 * zero or not a number is a usage error (exit 2) naming the option, never
 * an internal error later (`approve --expires 99999999999d` made an invalid
 * date and exited 70 with a stack trace).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "taskspec-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = `sqlite:${join(dir, "store.db")}`;

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args, "--store", store], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: r.status, stderr: r.stderr };
}

describe("numeric options", () => {
  it.each([
    [["approve", "R", "gate", "--expires", "99999999999d"], /bad --expires "99999999999d": at most 3650d/],
    [["approve", "R", "gate", "--expires", "0s"], /bad --expires "0s": it must be longer than zero/],
    [["approve", "R", "gate", "--expires", "soon"], /bad --expires "soon"/],
    [["budget", "R", "--cap", `tokens=${"9".repeat(400)}`], /bad cap .*a cap is a whole number/],
    [["worker", "--heartbeat", "10s", "--dead-after", "15s"], /--dead-after 15s must be at least twice --heartbeat 10s/],
  ])("%j is a usage error", (args, message) => {
    const r = run(...args);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.code).toBe(2);
  });
});
