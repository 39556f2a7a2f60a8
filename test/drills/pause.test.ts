/**
 * drill.waitForPause: a worker writes its pause marker and only then stops
 * itself, so the marker alone does not mean "stopped". Here the worker is
 * held between the two (it spins until the test lets it go) to make the
 * window wide: waitForPause must not resolve until the process is in state T,
 * so the SIGCONT that follows is never lost (it was, under load: the
 * paused-past-lease takeover worker then hung for good).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { drill } from "@taskspec/runtime";

const dir = mkdtempSync(join(tmpdir(), "taskspec-pause-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker that marks its pause spot, spins until `go` exists, then stops itself; on SIGCONT it exits 0. */
function worker(marker: string, go: string): drill.ChildHandle {
  const script = `
    const fs = require("fs");
    fs.writeFileSync(${JSON.stringify(marker)}, String(process.pid));
    while (!fs.existsSync(${JSON.stringify(go)})) {}
    process.kill(process.pid, "SIGSTOP");
  `;
  const child = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
  const done = new Promise<drill.ChildResult>((resolve) =>
    child.once("close", (code, signal) => resolve({ pid: child.pid ?? 0, code, signal, stderr: "" })),
  );
  return { pid: child.pid ?? 0, done, signal: (s) => child.kill(s) };
}

const state = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
};

describe.runIf(existsSync("/proc/self/stat"))("drill.waitForPause", () => {
  it("resolves only once the worker is stopped, not when its marker appears; the SIGCONT after it wakes the worker", async () => {
    const marker = join(dir, "marker");
    const go = join(dir, "go");
    const w = worker(marker, go);
    const paused = drill.waitForPause(marker, w);
    await drill.waitForFile(marker, w.done);
    // Let the worker stop a little after its marker showed (the window a loaded machine opens by itself).
    setTimeout(() => writeFileSync(go, ""), 200);
    await paused;
    expect(state(w.pid)).toBe("T");
    w.signal("SIGCONT");
    expect(await w.done).toMatchObject({ code: 0, signal: null });
  }, 60_000);

  it("rejects when the worker ends before it stops", async () => {
    const marker = join(dir, "marker-2");
    const child = spawn(process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "x")`], { stdio: "ignore" });
    const done = new Promise<drill.ChildResult>((resolve) =>
      child.once("close", (code, signal) => resolve({ pid: child.pid ?? 0, code, signal, stderr: "" })),
    );
    await expect(drill.waitForPause(marker, { pid: child.pid ?? 0, done, signal: (s) => child.kill(s) })).rejects.toThrow(
      /ended before it stopped/,
    );
  }, 60_000);
});
