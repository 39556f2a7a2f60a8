import { describe, expect, it, vi } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SqliteStore } from "../src/store/sqlite.js";
import { runWorker } from "./fixtures/child.js";
import { FIXTURES, tempDir } from "./fixtures/load.js";

// Real processes and services on a shared 2-core machine: generous per-test time.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

function setup() {
  const dir = tempDir();
  const log = join(dir, "invocations.log");
  writeFileSync(log, "");
  return {
    dir,
    log,
    args: {
      contract: join(FIXTURES, "chain.task.yaml"),
      handlers: join(FIXTURES, "chain-handlers.mjs"),
      db: join(dir, "store.db"),
      artifacts: join(dir, "artifacts"),
      run: "R1",
      env: { TASKSPEC_TEST_LOG: log },
    },
    invocations: () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean),
  };
}

async function openDb(path: string) {
  const s = new SqliteStore({ path });
  await s.init();
  return s;
}

describe("crash and resume in real processes", () => {
  it("after-artifact-before-commit: the file is an orphan, the unit re-runs as a2, nothing before it re-runs", async () => {
    const t = setup();
    const first = await runWorker({ ...t.args, env: { ...t.args.env, TASKSPEC_CRASH_AT: "after-artifact-before-commit@b" } });
    expect(first.signal).toBe("SIGKILL");
    const second = await runWorker(t.args);
    expect(second.outcome?.status).toBe("done");
    expect(t.invocations()).toEqual(["a a1", "b a1", "b a2", "c a1"]);
    const store = await openDb(t.args.db);
    const kinds = (await store.listCheckpoints("R1")).map((c) => c.kind);
    expect(kinds).toEqual(["start", "unit", "unit", "unit"]);
    const committed = (await store.listArtifacts("R1")).map((a) => a.path);
    expect(committed).not.toContain("runs/R1/b/a1/b-out");
    const events = await store.listEvents("R1");
    expect(events.some((e) => e.type === "lease-broken" && e.unit === "b")).toBe(true);
    // Budgets survive the crash and count each charge once: b's lost attempt booked its charge, and
    // b a2 was handed that charge back from the journal of paid calls instead of booking it again.
    expect((await store.getRun("R1"))?.budgetUsed).toMatchObject({ model_calls: 3, tokens: 30 });
    const replayed = events.filter((e) => e.type === "paid-call-replayed" && e.unit === "b");
    expect(replayed.map((e) => e.attempt)).toEqual([2]);
    await store.close();
  });

  it("mid-checkpoint (torn transaction): nothing of the half-written commit is visible; the unit re-runs", async () => {
    const t = setup();
    const first = await runWorker({ ...t.args, env: { ...t.args.env, TASKSPEC_CRASH_AT: "mid-checkpoint@b" } });
    expect(first.signal).toBe("SIGKILL");
    const store = await openDb(t.args.db);
    expect((await store.latestCheckpoint("R1")).version).toBe(1);
    expect((await store.getRecords("R1", { unit: "b" })).length).toBe(0);
    await store.close();
    const second = await runWorker(t.args);
    expect(second.outcome?.status).toBe("done");
    expect(t.invocations()).toEqual(["a a1", "b a1", "b a2", "c a1"]);
  });

  it("after-commit-before-ack: the commit stands and nothing re-runs", async () => {
    const t = setup();
    const first = await runWorker({ ...t.args, env: { ...t.args.env, TASKSPEC_CRASH_AT: "after-commit-before-ack@b" } });
    expect(first.signal).toBe("SIGKILL");
    const second = await runWorker(t.args);
    expect(second.outcome?.status).toBe("done");
    expect(t.invocations()).toEqual(["a a1", "b a1", "c a1"]);
  });

  it("resume of a finished run decides the same and does nothing", async () => {
    const t = setup();
    expect((await runWorker(t.args)).outcome?.status).toBe("done");
    expect((await runWorker(t.args)).outcome?.status).toBe("done");
    expect(t.invocations()).toEqual(["a a1", "b a1", "c a1"]);
  });
});

describe("two workers at once", () => {
  it("two resumes of one run race for units; each unit runs exactly once", async () => {
    const t = setup();
    const slow = { ...t.args, env: { ...t.args.env, TASKSPEC_TEST_DELAY_MS: "300" } };
    const [x, y] = await Promise.all([runWorker(slow), runWorker(slow)]);
    expect([x.outcome?.status, y.outcome?.status]).toEqual(["done", "done"]);
    expect(t.invocations().sort()).toEqual(["a a1", "b a1", "c a1"]);
    const store = await openDb(t.args.db);
    expect((await store.listCheckpoints("R1")).map((c) => c.kind)).toEqual(["start", "unit", "unit", "unit"]);
    await store.close();
  });
});

describe("a contract edit seen by two resumes at once", () => {
  it("is applied once: one plan-change checkpoint, the changed unit re-runs once", async () => {
    const t = setup();
    const contract = join(t.dir, "chain.task.yaml");
    writeFileSync(contract, readFileSync(t.args.contract, "utf8"));
    const args = { ...t.args, contract };
    expect((await runWorker(args)).outcome?.status).toBe("done");
    writeFileSync(
      contract,
      readFileSync(contract, "utf8").replace(
        "    produces: [a-out]\n    verify: [has_value]",
        '    produces: [a-out]\n    verify: [has_value, { check: "len(result.value) > 1" }]',
      ),
    );
    const [x, y] = await Promise.all([runWorker(args), runWorker(args)]);
    expect([x.outcome?.status, y.outcome?.status]).toEqual(["done", "done"]);
    const store = await openDb(t.args.db);
    const kinds = (await store.listCheckpoints("R1")).map((c) => c.kind);
    expect(kinds.filter((k) => k === "plan-change")).toHaveLength(1);
    await store.close();
    expect(t.invocations()).toEqual(["a a1", "b a1", "c a1", "a a2"]); // b and c: early cutoff
  });
});
