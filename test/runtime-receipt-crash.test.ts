/**
 * A crash never changes what a unit produces: real `taskspec` processes
 * killed (SIGKILL at a crash point) after a charge reached the remote, then
 * resumed, write byte for byte the artifacts a run without the kill writes.
 * The charge's receipt carries fields the contract does not declare (`card`,
 * `status`, `key`), a Date and a NaN, and the unit writes it into its
 * artifact:
 * - killed after the effect committed and before the unit did
 *   (`after-artifact-before-commit`): the re-run reuses the stored receipt;
 * - killed after the remote charged and before the receipt was stored
 *   (`after-effect-before-receipt`): recovery adopts the lookup's answer and
 *   the re-run reuses that.
 * The remote charges once in every run.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import { runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const CONTRACT = `contract: 1
task:
  id: receipts
  version: 1
  goal: a crash never changes what a unit writes
  timeout: 1m
  outputs: [charge-receipt, statement]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets: { tool_calls: 20, retries: 0 }
tools:
  charge:
    class: dedup
    key: "charge:\${run.id}"
    lookup: find_charge
    result: { charge_id: string }
  find_charge: { class: read }
units:
  pay:
    uses: [charge]
    produces: [charge-receipt]
    verify: [{ check: "result.card == 'visa-4242'" }]
  statement:
    needs: { pay: content }
    produces: [statement]
    verify: [{ check: "true" }]
`;

// The remote is a folder: one file per key. Its record holds more than the contract declares.
const HANDLERS = `import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
const dir = () => process.env.RECEIPT_REMOTE_DIR;
const receipt = (r) => ({ charge_id: r.id, card: r.card, status: r.status, key: r.key, created: new Date(r.created), fee: Number.NaN, note: undefined });
export default {
  units: {
    async pay(ctx) {
      const r = await ctx.tool("charge", { amount: 5 });
      await ctx.write("charge-receipt", JSON.stringify(r));
      return { card: r.card, status: r.status, created: r.created };
    },
    async statement(ctx) {
      const paid = ctx.needs.pay.result;
      await ctx.write("statement", \`paid with \${paid.card} (\${paid.status}) at \${paid.created}\`);
      return {};
    },
  },
  tools: {
    charge: {
      async call(args, meta) {
        mkdirSync(dir(), { recursive: true });
        const file = join(dir(), encodeURIComponent(meta.key));
        const record = existsSync(file)
          ? JSON.parse(readFileSync(file, "utf8"))
          : { id: "ch_1", card: "visa-4242", status: "succeeded", key: meta.key, created: "2026-01-01T00:00:01.000Z", amount: args.amount, charges: 0 };
        record.charges += 1;
        writeFileSync(file, JSON.stringify(record));
        return receipt(record);
      },
    },
    find_charge: {
      async call(args) {
        const file = join(dir(), encodeURIComponent(String(args.key)));
        return existsSync(file) ? receipt(JSON.parse(readFileSync(file, "utf8"))) : null;
      },
    },
  },
};
`;

interface Outcome {
  /** Current artifacts by name: sha256 and the bytes on disk. */
  artifacts: Record<string, { sha256: string; text: string }>;
  charges: number;
  reused: number;
}

async function runWith(crashAt?: string): Promise<Outcome> {
  const { dir, store } = tempRunDir("taskspec-receipt-");
  writeFileSync(join(dir, "receipts.task.yaml"), CONTRACT);
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const remote = join(dir, "remote");
  mkdirSync(remote);
  const env = { RECEIPT_REMOTE_DIR: remote };
  const args = ["run", join(dir, "receipts.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R"];
  if (crashAt) {
    const killed = await runCli(args, { ...env, TASKSPEC_CRASH_AT: crashAt }, store);
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    const resumed = await runCli(["resume", "R"], env, store);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
  } else {
    const r = await runCli(args, env, store);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }
  const db = new SqliteStore({ path: join(dir, "store.db") });
  await db.init();
  try {
    const current = new Set((await db.getRecords("R", { status: "current" })).map((r) => r.id));
    const artifacts = (await db.listArtifacts("R", { status: "committed" })).filter(
      (a) => a.recordId !== undefined && current.has(a.recordId),
    );
    const reused = (await db.listEvents("R")).filter((e) => e.type === "effect-reused").length;
    const record = JSON.parse(readFileSync(join(remote, encodeURIComponent("charge:R")), "utf8")) as { charges: number };
    return {
      artifacts: Object.fromEntries(
        artifacts.map((a) => [a.name, { sha256: a.sha256, text: readFileSync(join(dir, "artifacts", a.path), "utf8") }]),
      ),
      charges: record.charges,
      reused,
    };
  } finally {
    await db.close();
  }
}

describe("a crash never changes what a unit writes (one receipt)", () => {
  it("killed between the effect's commit and the unit's, or before the receipt was stored: the same artifacts, one charge", async () => {
    const plain = await runWith();
    expect(plain.charges).toBe(1);
    expect(Object.keys(plain.artifacts).sort()).toEqual(["charge-receipt", "statement"]);
    // the receipt as the store keeps it: undeclared fields kept, the Date as its ISO string, NaN as null, undefined gone
    expect(JSON.parse(plain.artifacts["charge-receipt"]!.text)).toEqual({
      charge_id: "ch_1",
      card: "visa-4242",
      status: "succeeded",
      key: "charge:R",
      created: "2026-01-01T00:00:01.000Z",
      fee: null,
    });
    expect(plain.artifacts.statement!.text).toBe("paid with visa-4242 (succeeded) at 2026-01-01T00:00:01.000Z");

    const [afterEffect, lostReceipt] = await Promise.all([
      runWith("after-artifact-before-commit@pay"),
      runWith("after-effect-before-receipt@pay/charge"),
    ]);
    for (const crashed of [afterEffect, lostReceipt]) {
      expect(crashed.charges).toBe(1);
      expect(crashed.reused).toBe(1);
      expect(crashed.artifacts).toEqual(plain.artifacts);
    }
  });
});
