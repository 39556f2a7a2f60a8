/**
 * Hidden misbehaving handlers against the real CLI, under both isolation
 * modes: a handler's throw, whatever it throws, is its own failure with its
 * message (never `crashed`, which is for a process that dies).
 */
import { createServer, type Server } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli, tempRunDir, type CliResult } from "./runtime-harness.js";
import { SqliteStore } from "../runtime/src/store/sqlite.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const HANDLERS = fileURLToPath(new URL("./fixtures/misbehaving/handlers.mjs", import.meta.url));
const { dir, store } = tempRunDir("taskspec-misbehaving-");
const db = join(dir, "store.db");

const THROWS = `contract: 1
task:
  id: throws
  version: 1
  goal: A handler's throw is its failure with its message
  outputs: [odd-out, getter-out]
  done: [ok]
inputs:
  channel: { kind: decision, value: "news-desk" }
budgets:
  model_calls: 10
  tool_calls: 10
  tokens: 1000
  retries: 0
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  t_odd: { needs: { channel: content }, produces: [odd-out], verify: [ok] }
  t_getter: { produces: [getter-out], verify: [ok] }
`;

let server: Server;
const runs: Record<string, CliResult> = {};
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { TASKSPEC_ISOLATION: undefined, MISBEHAVING_URL: url(), ...env }, store);
let port = 0;
const url = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  server = createServer((_req, res) => res.end("{}"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
  writeFileSync(join(dir, "throws.task.yaml"), THROWS);
  const [p, n] = await Promise.all([
    cli(["run", join(dir, "throws.task.yaml"), "--handlers", HANDLERS, "--run", "TP", "--isolation", "process"]),
    cli(["run", join(dir, "throws.task.yaml"), "--handlers", HANDLERS, "--run", "TN", "--isolation", "none"]),
  ]);
  runs.TP = p;
  runs.TN = n;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

async function unitsOf(run: string) {
  const s = new SqliteStore({ path: db });
  try {
    return new Map((await s.loadFacts(run)).units.map((u) => [u.unit, u]));
  } finally {
    await s.close();
  }
}

describe("a handler that throws fails with its own error, never `crashed`", () => {
  for (const [run, mode] of [
    ["TP", "process"],
    ["TN", "none"],
  ] as const) {
    it(`--isolation ${mode}: odd thrown values are the handler's error, their message scrubbed`, async () => {
      expect(runs[run]!.stderr).not.toMatch(/internal|TypeError: Cannot convert/);
      expect(runs[run]!.stdout).toMatch(new RegExp(`run ${run}: failed`));
      const units = await unitsOf(run);
      expect(units.get("t_odd")).toMatchObject({
        state: "failed",
        failures: 1,
        lastError: { class: "handler-error", message: "handler threw: odd boom near [redacted]" },
      });
      expect(units.get("t_getter")).toMatchObject({
        state: "failed",
        lastError: { class: "handler-error", message: expect.stringMatching(/^handler threw: a thrown object that cannot be shown/) },
      });
    });
  }
});
