/**
 * The real language server as users start it (`taskspec lsp --stdio`, a
 * child process; `bin`: another build of the command, e.g. the package's
 * bundle) with a test client on its pipes. `stop` shuts it down the
 * way an editor does and checks it exited 0 with nothing on stderr.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { TestClient } from "../lsp/test/client.js";
import { REPO } from "../lsp/test/helpers.js";

export function startStdioServer(bin: string = join(REPO, "cli", "bin", "taskspec.js")): { client: TestClient; stop: () => Promise<void> } {
  const server = spawn(process.execPath, [bin, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  server.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  const client = new TestClient(server.stdout, server.stdin);
  return {
    client,
    stop: async () => {
      await client.request("shutdown", null);
      await client.notify("exit", null);
      expect(await exited).toBe(0);
      expect(stderr).toBe("");
      client.dispose();
    },
  };
}
