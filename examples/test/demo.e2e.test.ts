/**
 * `npm run demo` end to end, in real child processes: the demo starts the
 * blog, runs, kills and resumes `taskspec` processes, and exits non-zero when
 * any figure is off. Asserts its exit code and the seed's figures it printed,
 * and that it ran the default isolation (a handler process per attempt, the
 * handler module never imported by the worker), with its invocation log whole.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DEMO = fileURLToPath(new URL("../dist/demo.js", import.meta.url));

describe("npm run demo", () => {
  it("replays both seeds and reports the seed's figures", () => {
    const run = spawnSync(process.execPath, [DEMO], { encoding: "utf8", timeout: 600_000 });
    const out = run.stdout + run.stderr;
    expect(out, out).toContain("Demo passed");
    expect(run.status, out).toBe(0);
    for (const line of [
      "ok    posts online: 1",
      "ok    posts the blog ever created: 1",
      "ok    current units: 36",
      "ok    superseded units: 4",
      "ok    orphan artifacts: 1",
      "ok    baseline commits: 41",
      'ok    units that ran more than once: {"E07":2,"U27":2,"U28":2,"U29":2,"U30":2}',
      "ok    units with a handler invocation: 36",
    ]) {
      expect(out).toContain(line);
    }
    // both status reports of ME-042: the showcase runs as a user's run would, never --isolation none
    expect(
      out.match(/handlers: a handler process per attempt \(--isolation process\)[^\n]*handler module imported only in handler processes/g),
    ).toHaveLength(2);
    expect(out).not.toMatch(/--isolation none|not isolated at import|taskspec: warning/);
  }, 660_000);
});
