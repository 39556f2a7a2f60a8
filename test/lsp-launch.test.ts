/**
 * How `taskspec lsp --stdio` starts the server: in a child process launched
 * with --expose-gc (so the heap keeper has V8's collector without flipping
 * flags at run time), on the same stdio, exiting with the child's code; with
 * TASKSPEC_LSP_GC=0 in the CLI process itself. Linux: the child is found
 * through /proc.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InitializeResult } from "vscode-languageserver";
import { TestClient } from "../lsp/test/client.js";
import { REPO } from "../lsp/test/helpers.js";

/** Command lines of the live processes whose parent is `pid`. */
function childrenOf(pid: number): string[][] {
  const out: string[][] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // the command name in field 2 may hold spaces and parentheses: the parent pid follows the last ')'
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== pid) continue;
      out.push(readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean));
    } catch {
      // the process ended while being read
    }
  }
  return out;
}

async function session(env: NodeJS.ProcessEnv): Promise<{ children: string[][]; code: number | null }> {
  const server = spawn(process.execPath, [join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  const client = new TestClient(server.stdout, server.stdin);
  const init = (await client.initialize(null)) as InitializeResult;
  expect(init.serverInfo?.name).toBe("taskspec-lsp");
  const children = childrenOf(server.pid!);
  await client.request("shutdown", null);
  await client.notify("exit", null);
  const code = await exited;
  client.dispose();
  return { children, code };
}

describe.runIf(process.platform === "linux")("taskspec lsp --stdio launch", () => {
  it("serves from a child started with --expose-gc and exits with its code", async () => {
    const { children, code } = await session({});
    expect(children).toHaveLength(1);
    expect(children[0]).toContain("--expose-gc");
    expect(children[0]!.slice(-2)).toEqual(["lsp", "--stdio"]);
    expect(code).toBe(0);
  });

  it("serves in the CLI process itself with TASKSPEC_LSP_GC=0", async () => {
    const { children, code } = await session({ TASKSPEC_LSP_GC: "0" });
    expect(children).toEqual([]);
    expect(code).toBe(0);
  });
});
