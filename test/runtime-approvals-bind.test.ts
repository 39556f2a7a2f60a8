/**
 * With the real CLI, default isolation (a handler process
 * per attempt) and the examples' mail service on 127.0.0.1: approvals bind
 * what they release. A gate in front of an irreversible mail runs its unit up
 * to the call, records the rendered request PREPARED and blocks (exit 3);
 * `approve --dry-run` and `status` show exactly what will be sent; the
 * approval binds the request hash, the gate unit's input and need digests,
 * the plan version, scope and expiry. A recipient changed after the approval
 * (a volatile input, read fresh at the call) is not mailed: the run blocks
 * again, naming what changed, and the mail service receives nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, harnessPerTest, tokenOf, type CliResult } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const h = harnessPerTest();
const CONTRACT = join(FIXTURES, "notify.task.yaml");
/** Default isolation: the handler runs in a process of its own, its tools and input reader in the worker. */
const ISOLATED = { TASKSPEC_ISOLATION: undefined } as unknown as Record<string, string>;

interface Message {
  id: string;
  key: string | null;
  to: string;
  subject: string;
  body: string;
}

/**
 * The handler module (units only, imported in handler processes) and the tools module (imported in the
 * worker): send_mail posts to the mail service; the recipient is read from a file (a volatile input).
 */
function setup(): { args: (run: string) => string[]; setRecipient: (to: string) => void } {
  const recipient = join(h.dir, "recipient.txt");
  const handlers = join(h.dir, "notify-handlers.mjs");
  const tools = join(h.dir, "notify-tools.mjs");
  writeFileSync(
    handlers,
    `export default {
  units: {
    itinerary: async (ctx) => (await ctx.write("itinerary", "BER-LIS 7 Dec, back 10 Dec"), { ok: true, text: "BER-LIS 7 Dec, back 10 Dec" }),
    notify: async (ctx) => {
      const r = await ctx.tool("send_mail", { to: ctx.inputs.recipient, subject: "Your trip", body: ctx.needs.itinerary.result.text });
      await ctx.write("receipt", r);
      return r;
    },
  },
};
`,
  );
  writeFileSync(
    tools,
    `import { readFileSync } from "node:fs";
export default {
  inputs: { recipient: async () => readFileSync(${JSON.stringify(recipient)}, "utf8").trim() },
  tools: {
    send_mail: {
      call: async (args, meta) => {
        const res = await fetch(process.env.TASKSPEC_MAIL_URL + "/send", {
          method: "POST",
          headers: { "content-type": "application/json", "Idempotency-Key": meta.key, "X-Fencing-Token": String(meta.fencingToken) },
          body: JSON.stringify(args),
          signal: meta.signal,
        });
        const json = await res.json();
        if (!res.ok) throw new Error("mail: " + res.status);
        return { message_id: json.id };
      },
    },
  },
};
`,
  );
  const setRecipient = (to: string) => writeFileSync(recipient, `${to}\n`);
  setRecipient("ada@example.org");
  return { args: (run) => ["run", CONTRACT, "--handlers", handlers, "--tools", tools, "--run", run], setRecipient };
}

const cli = (args: string[]) => h.cli(args, ISOLATED);
const messages = async () => (await h.get("mail", "/messages")) as Message[];
const statusJson = async (run: string) =>
  JSON.parse((await cli(["status", run, "--format", "json"])).stdout) as {
    status: string;
    prepared: Array<{
      unit: string;
      tool: string;
      key?: string;
      requestHash: string;
      args: Record<string, unknown>;
      inputs: Record<string, string>;
    }>;
    units: Array<{ unit: string; attempts: number; reason?: string }>;
  };
const noTrace = (r: CliResult) => {
  expect(r.stderr + r.stdout).not.toMatch(/\n\s+at |internal error/);
  expect(r.stderr).not.toMatch(/warning/);
};

describe("approvals bind what they release", () => {
  it("the run blocks with the request PREPARED; dry-run shows the exact recipient; the approved request is sent once", async () => {
    const { args } = setup();
    const first = await cli(args("N1"));
    noTrace(first);
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(first.stdout).toMatch(/blocked notify: approval: unit notify prepared send_mail\(to, subject, body\) under key "mail:N1"/);
    expect(await messages()).toEqual([]); // prepared, not sent

    const status = await statusJson("N1");
    expect(status.status).toBe("blocked");
    expect(status.prepared).toHaveLength(1);
    const prepared = status.prepared[0]!;
    expect(prepared).toMatchObject({ unit: "notify", tool: "send_mail", key: "mail:N1" });
    expect(prepared.args).toEqual({ to: "ada@example.org", subject: "Your trip", body: "BER-LIS 7 Dec, back 10 Dec" });
    expect(Object.keys(prepared.inputs)).toEqual(["recipient"]);
    const text = (await cli(["status", "N1"])).stdout;
    expect(text).toContain("prepared at gate notify (PREPARED, not sent;");
    expect(text).toContain('    to: "ada@example.org"');

    const dry = await cli(["approve", "N1", "notify", "--dry-run", "--expires", "2h"]);
    noTrace(dry);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("will send: send_mail");
    expect(dry.stdout).toContain('  to: "ada@example.org"');
    expect(dry.stdout).toContain('  subject: "Your trip"');
    expect(dry.stdout).toContain("  key: mail:N1");
    expect(dry.stdout).toContain(`  request sha256: ${prepared.requestHash}`);
    expect(dry.stdout).toMatch(/bound to: plan \S+, scope unit, expires \S+/);
    expect(dry.stdout).toMatch(/input recipient: sha256:[0-9a-f]{64}/);
    expect(dry.stdout).toMatch(/need itinerary: sha256:[0-9a-f]{64}/);
    expect(dry.stdout).toContain("(dry run: nothing recorded)");

    const approved = await cli(["approve", "N1", "notify", "--token", tokenOf(first, "notify")]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`bound to request sha256 ${prepared.requestHash}`);
    expect((await statusJson("N1")).prepared).toHaveLength(1); // approved, still not sent until resume

    const done = await cli(["resume", "N1"]);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toMatch(/run N1: done/);
    const sent = await messages();
    expect(sent.map((m) => [m.to, m.key, m.subject])).toEqual([["ada@example.org", "mail:N1", "Your trip"]]);
    expect((await h.stats("mail")).counters.sends).toBe(1);

    // one effect in the ledger: the PREPARED request the person approved, now COMMITTED; the waiting attempt counted no failure
    const store = await h.open();
    try {
      const effects = await store.listEffects("N1");
      expect(effects.map((e) => [e.state, e.requestHash, e.held])).toEqual([["COMMITTED", prepared.requestHash, undefined]]);
      const row = (await store.loadFacts("N1")).units.find((u) => u.unit === "notify")!;
      expect(row).toMatchObject({ state: "succeeded", attempts: 2, failures: 0 });
    } finally {
      await store.close();
    }
    expect((await cli(["resume", "N1"])).code).toBe(0);
    expect((await h.stats("mail")).counters.sends).toBe(1); // exactly once
  });

  it("a recipient changed after the approval is not mailed: the run blocks for a new approval naming what changed", async () => {
    const { args, setRecipient } = setup();
    const first = await cli(args("N2"));
    expect(first.code, first.stdout + first.stderr).toBe(3);
    const approved = await cli(["approve", "N2", "notify", "--token", tokenOf(first, "notify")]);
    expect(approved.code, approved.stderr).toBe(0);
    const approvalId = /approved notify of N2: (ap_\S+)/.exec(approved.stdout)![1]!;

    setRecipient("mallory@example.net"); // the address book changed after the person approved
    const again = await cli(["resume", "N2"]);
    noTrace(again);
    expect(again.code, again.stdout + again.stderr).toBe(3);
    expect(again.stdout).toContain(`a new approval is needed: `);
    expect(again.stdout).toMatch(/the request changed \(sha256 [0-9a-f]{16} → [0-9a-f]{16}; it differs in to\)/);
    expect(again.stdout).toMatch(/input recipient changed \(sha256:[0-9a-f]{12} → sha256:[0-9a-f]{12}\)/);
    expect(again.stdout).toMatch(/approval requested for notify: resume token rt_/);
    expect(await messages()).toEqual([]); // the remote received nothing
    expect((await h.stats("mail")).counters.sends ?? 0).toBe(0);

    // the new prepared request is what a new approval would release; the old approval does not apply
    const dry = await cli(["approve", "N2", "notify", "--dry-run"]);
    expect(dry.stdout).toContain('  to: "mallory@example.net"');
    expect(dry.stdout).toContain("changed since the last approval or prepared request: the request changed");
    const status = await statusJson("N2");
    expect(status.prepared.map((p) => p.args.to)).toEqual(["mallory@example.net"]);
    const granted = JSON.parse((await cli(["status", "N2", "--format", "json"])).stdout).approvals.granted as Array<{
      id: string;
      current: boolean;
    }>;
    expect(granted).toEqual([expect.objectContaining({ id: approvalId })]);

    const store = await h.open();
    try {
      const effects = await store.listEffects("N2");
      // the first prepared request was never sent: replaced (FAILED, its display copy dropped), the new one waits
      expect(effects.map((e) => [e.state, e.held?.display.args.to ?? null])).toEqual([
        ["FAILED", null],
        ["PREPARED", "mallory@example.net"],
      ]);
      expect(effects[0]!.error).toMatch(/^not sent: replaced by a new prepared request/);
      expect((await store.loadFacts("N2")).units.find((u) => u.unit === "notify")).toMatchObject({ failures: 0 });
    } finally {
      await store.close();
    }

    // a person approves the new request: exactly that one is sent
    const second = await cli(["approve", "N2", "notify", "--token", tokenOf(again, "notify")]);
    expect(second.code, second.stderr).toBe(0);
    const done = await cli(["resume", "N2"]);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect((await messages()).map((m) => m.to)).toEqual(["mallory@example.net"]);
  });
});
