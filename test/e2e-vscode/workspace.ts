/**
 * The workspace the end-to-end test opens: the project's example contracts
 * (specs/*.task.yaml, so the server has a real workspace to scan; one of them
 * named `.task.yml`, the other spelling of a contract) plus the broken fixture
 * contract the test repairs by typing.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const REPO = join(import.meta.dirname, "..", "..");
export const BROKEN_CONTRACT = "newsletter.task.yaml";
const YML_SOURCE = "publish-post.task.yaml";
export const YML_CONTRACT = "publish-post.task.yml";

export function prepareWorkspace(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const specs = join(REPO, "specs");
  for (const name of readdirSync(specs)) {
    if (name.endsWith(".task.yaml")) copyFileSync(join(specs, name), join(dir, name === YML_SOURCE ? YML_CONTRACT : name));
  }
  // the market-entry pack's `schema:` path, as beside specs/ (else it is C013)
  cpSync(join(specs, "schemas"), join(dir, "schemas"), { recursive: true });
  copyFileSync(join(import.meta.dirname, "fixtures", BROKEN_CONTRACT), join(dir, BROKEN_CONTRACT));
}

export const RUN_STORE = "sqlite:runs.db";
export const RUN_ID = "R1";

/**
 * A finished run in a SQLite store inside the workspace (the runtime's chain
 * fixture run by the real CLI), and a workspace-local `taskspec` the extension
 * finds the way it would in a project that installed taskspec. Returns the
 * CLI's own `status --format json` of the run.
 */
export function prepareRunStore(dir: string): { status: string; counts: { current: number; units: number } } {
  const cli = join(REPO, "cli", "bin", "taskspec.js");
  const fixtures = join(REPO, "runtime", "test", "fixtures");
  const taskspec = (...args: string[]) => {
    const run = spawnSync(process.execPath, [cli, ...args, "--store", RUN_STORE], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    if (run.status !== 0) throw new Error(`taskspec ${args.join(" ")} failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    return run.stdout;
  };
  taskspec("run", join(fixtures, "chain.task.yaml"), "--handlers", join(fixtures, "chain-handlers.mjs"), "--run", RUN_ID);
  const bin = join(dir, "node_modules", ".bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "taskspec"), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(join(bin, "taskspec"), 0o755);
  return JSON.parse(taskspec("status", RUN_ID, "--format", "json"));
}

export const GATE_RUN_ID = "G1";

/**
 * A second run in the same store, blocked at an approval gate in front of an
 * irreversible call (the runtime's gate fixture). Returns the resume token the
 * CLI printed when it blocked, the one a person types to approve it.
 */
export function prepareGateRun(dir: string): { token: string; contract: string } {
  const cli = join(REPO, "cli", "bin", "taskspec.js");
  const contract = join(REPO, "runtime", "test", "fixtures", "gate.task.yaml");
  const handlers = join(dir, "gate-handlers.mjs");
  writeFileSync(
    handlers,
    `export default {
  units: {
    a: async (ctx) => (await ctx.write("a-out", "A"), { ok: true }),
    b: async (ctx) => (await ctx.write("b-out", "B"), { ok: true }),
    gate: async (ctx) => { const r = await ctx.tool("send", { to: "team@example.org" }); await ctx.write("sent", { r }); return { sent: true }; },
  },
  tools: { send: { call: async () => ({ id: "m1" }) } },
};
`,
  );
  const run = spawnSync(process.execPath, [cli, "run", contract, "--handlers", handlers, "--run", GATE_RUN_ID, "--store", RUN_STORE], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
  });
  const token = /resume token (rt_\S+)/.exec(run.stdout)?.[1];
  if (!token) throw new Error(`the gate run did not block at its gate (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  return { token, contract };
}
