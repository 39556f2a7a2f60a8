/**
 * A run waiting for a person costs a worker nothing per poll: `taskspec
 * worker` polling every 50 ms visits a run blocked at a gate (each visit a
 * contract compile, modules loaded, facts read) at most twice, records no
 * event after the first, and visits it again as soon as the approval is
 * recorded, driving it to done (runtime scheduler/visit-rest.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, spawnCli, tempRunDir, tokenOf } from "./runtime-harness.js";

const HANDLERS = `export default {
  units: {
    a: async (ctx) => (await ctx.write("a-out", "A"), { ok: true }),
    b: async (ctx) => (await ctx.write("b-out", "B"), { ok: true }),
    gate: async (ctx) => { await ctx.tool("send", { to: "x" }); await ctx.write("sent", "{}"); return { sent: true }; },
  },
  tools: { send: { call: async () => ({ id: "m1" }) } },
};
`;

const until = async (what: () => boolean | Promise<boolean>, why: () => string) => {
  for (let i = 0; i < 600; i++) {
    if (await what()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting: ${why()}`);
};

it("a blocked run is not visited again while nothing changes, and at once when a person decides", async () => {
  const { dir, store } = tempRunDir("taskspec-blocked-visits-");
  const handlers = join(dir, "handlers.mjs");
  writeFileSync(handlers, HANDLERS);
  const first = await runCli(["run", join(FIXTURES, "gate.task.yaml"), "--handlers", handlers, "--run", "R"], LEGACY_FIXTURE_ENV, store);
  expect(first.stdout, first.stderr).toMatch(/blocked gate: approval/);
  const token = tokenOf(first, "gate");
  const s = new SqliteStore({ path: store.slice("sqlite:".length) });
  const events = async () => (await s.listEvents("R")).length;

  const worker = spawnCli(["worker", "--store", store, "--poll", "50ms"], LEGACY_FIXTURE_ENV);
  let stderr = "";
  worker.child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const visits = () => stderr.match(/^taskspec worker: run R: /gm)?.length ?? 0;
  try {
    await until(
      () => visits() >= 1,
      () => stderr,
    );
    const afterFirst = await events();
    // forty polls: each one used to be a visit and a `blocked` event
    await new Promise((r) => setTimeout(r, 2_000));
    expect(visits(), stderr).toBeLessThanOrEqual(2);
    expect(stderr).toMatch(/run R: blocked/);
    expect(await events()).toBe(afterFirst);

    const approve = await runCli(["approve", "R", "gate", "--token", token], {}, store);
    expect(approve.code, approve.stderr).toBe(0);
    await until(
      () => /run R: done/.test(stderr),
      () => stderr,
    );
    expect((await s.getRun("R"))?.status).toBe("done");
  } finally {
    worker.child.kill("SIGTERM");
    await worker.done;
    await s.close();
  }
}, 60_000);
