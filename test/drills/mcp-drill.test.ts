/**
 * `taskspec drill` on a contract whose tools are bound to a real MCP server
 * (test/drills/fixtures/mcp: the SDK-built blog over stdio, a dedup write
 * with a lookup and an irreversible one behind a gate, no adapter written):
 * the worker is killed after the server made each effect and before its
 * receipt, during the lookup, and while the gate waits; every case ends as
 * the uninterrupted run did, with each effect made once by the server's own
 * count (the world reads the server's storage).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support.js";

const bin = join(ROOT, "cli/bin/taskspec.js");
const dir = join(ROOT, "test/drills/fixtures/mcp");

function drill(only: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = ["drill", "blog.task.yaml", "--handlers", "handlers.mjs", "--tools", "tools.mjs", "--world", "world.mjs"];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args, ...only.flatMap((o) => ["--only", o])], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("taskspec drill on an MCP-bound contract", () => {
  it("a worker killed after each server effect, during the lookup and at the gate: every case passes, no duplicate", async () => {
    const r = await drill(["after-effect-before-receipt", "during-reconciliation/publish", "during-approval-wait"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (const c of [
      "after-effect-before-receipt/publish/create_post",
      "after-effect-before-receipt/announce/send_newsletter",
      "during-reconciliation/publish/create_post",
      "during-approval-wait/announce",
    ])
      expect(r.stdout).toMatch(new RegExp(`blog/${c}\\s.*\\sPASS`));
    expect(r.stdout).toContain("4 cases: 4 PASS, 0 FAIL; duplicate effects 0; unnecessary re-runs 0");
  }, 900_000);
});
