/**
 * The store keeps no secret, end to end: the real CLI runs a contract that
 * marks an input, tool arguments and result fields `secret`, with six
 * planted values (test/secrets-scenario.ts: the input, a tool argument, a
 * result field, a key in a tool's error message, the model's API key from
 * the worker's environment, a value in a handler's thrown error), each
 * quoted where it would otherwise be stored (a unit's result, a receipt, an
 * error message). Then every table and column of the SQLite store, its raw
 * bytes, every file under the artifact root and what `status`, `handoff` and
 * `events` print are read: no planted value anywhere; `***` where one was.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import { filesText, hitsOf, PLANTED, runScenario, sqliteText, startProvider, type ScenarioRun } from "./secrets-scenario.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), "taskspec-secrets-"));
const db = join(dir, "store.db");
let provider: ChildProcess | undefined;
let scenario: ScenarioRun;

beforeAll(async () => {
  const p = await startProvider(dir);
  provider = p.child;
  scenario = await runScenario(dir, `sqlite:${db}`, p.url);
});
afterAll(() => provider?.kill());

describe("a run with six planted secrets (SQLite, real processes)", () => {
  it("ran every unit: the run failed where the scenario fails (a tool error, a handler's throw)", async () => {
    expect(scenario.run.code, scenario.run.stderr).not.toBe(2);
    const store = new SqliteStore({ path: db });
    await store.init();
    try {
      const facts = await store.loadFacts("R");
      const states = Object.fromEntries(facts.units.map((u) => [u.unit, u.state]));
      expect(states).toMatchObject({ send: "succeeded", ask: "succeeded", tell: "failed", check_vault: "failed" });
      // what is kept, in words: the safe argument's value, the receipt without its secret field, *** for secrets
      const [sent] = await store.listEffects("R", { unit: "send" });
      expect(sent).toMatchObject({ intent: "send_mail(to=ops@example.com, password, body)", receipt: { id: "m-1" }, remoteId: "m-1" });
      expect(sent!.request!.args.password).toBe("***");
      const [rec] = await store.getRecords("R", { unit: "send", status: "current" });
      // the receipt the handler got is the stored one: no secret field, on the first call as on a reuse
      expect(sent!.receipt).toEqual({ id: "m-1", cookie: "c" });
      expect(rec!.result).toEqual({ ok: true, id: "m-1", used: "token *** password ***" });
      const [asked] = await store.getRecords("R", { unit: "ask", status: "current" });
      expect(String((asked!.result as { note: string }).note)).toContain("Incorrect API key provided: ***");
      const [told] = await store.listEffects("R", { unit: "tell" });
      // a credential-shaped pair is masked by the stored-message redaction, whatever it holds
      expect(told!.error).toBe("401 from hook: api_key=[redacted] is not valid here");
      const vault = facts.units.find((u) => u.unit === "check_vault")!;
      expect(vault.lastError?.message).toContain("vault value *** is expired");
    } finally {
      await store.close();
    }
  });

  it("no table, column, byte of the store, file under the artifact root or operator view holds a planted value", () => {
    const texts = [
      ...sqliteText(db),
      ...filesText(join(dir, "artifacts")),
      ...Object.values(scenario.views).map((v) => v.stdout + v.stderr),
    ];
    const { count, where } = hitsOf(texts);
    expect(where).toEqual([]);
    expect(count).toEqual({ input: 0, argument: 0, result: 0, errorKey: 0, modelKey: 0, thrown: 0 });
    // the scan reads what it should: the views printed, and values that are kept are found
    for (const [name, v] of Object.entries(scenario.views)) expect(v.stdout.length, `${name}: ${v.stderr}`).toBeGreaterThan(0);
    expect(texts.join("\n")).toContain("ops@example.com");
    expect(texts.join("\n")).toContain("m-1");
  });

  it("the views show *** where a secret was", () => {
    const status = scenario.views.status!.stdout;
    expect(status).toContain("vault value *** is expired");
    expect(scenario.views.handoff!.stdout).toContain("vault value *** is expired");
    expect(scenario.views.events!.stdout).toContain("***");
    expect(Object.values(PLANTED).some((v) => status.includes(v))).toBe(false);
  });
});
