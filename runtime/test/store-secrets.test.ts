/**
 * After a run whose tool calls carry planted secrets (arguments, a remote
 * answer with cookies and tokens, error messages quoting a password), no
 * byte of the SQLite store holds any of them: the ledger keeps argument
 * names and digests, the receipt without the result fields the contract
 * marks secret (the cookie, the headers, the raw body) and safe error messages
 * (runtime/src/ledger/redact.ts; docs/runtime.md "What the store keeps").
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import { ToolError, type HandlerModule } from "../src/handler-api.js";
import { compileText, freshStore, tempDir } from "./fixtures/load.js";

const contract = `contract: 1
task:
  id: secrets
  version: 1
  goal: planted secrets never reach the store
  outputs: [sent, notified, crashed]
  done: [ok]
budgets: { model_calls: 10, tool_calls: 10, tokens: 1000, retries: 0 }
tools:
  send_email:
    class: dedup
    key: "mail:\${run.id}"
    lookup: find_email
    result: { id: string, cookie: { type: string, secret: true }, headers: { type: object, secret: true }, html: { type: string, secret: true } }
  find_email: { class: read }
  notify: { class: idempotent }
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  send: { produces: [sent], uses: [send_email], verify: [ok] }
  tell: { produces: [notified], uses: [notify], verify: [ok] }
  crash: { produces: [crashed], verify: [ok] }
`;

const PLANTED = {
  apiKey: "sk-live-PLANTED-API-KEY-0001",
  email: "planted.person@example.com",
  password: "PLANTED-hunter2-PASSWORD",
  cookie: "PLANTED-SESSION-COOKIE-abcdef",
  bearer: "PLANTEDBEARERTOKEN0123456789",
  html: "PLANTED-RAW-HTML-BODY",
  smtp: "PLANTED-SMTP-PASS",
  dsn: "PLANTED-DB-PASS",
};

it("a whole SQLite store holds none of the secrets planted in arguments, receipts and errors", async () => {
  const dir = tempDir();
  const store = await freshStore(dir);
  const plan = compileText(contract);
  const handlers: HandlerModule = {
    units: {
      send: async (ctx) => {
        await ctx.tool("send_email", { to: PLANTED.email, api_key: PLANTED.apiKey, body: `password: ${PLANTED.password}` });
        await ctx.write("sent", "sent");
        return { ok: true };
      },
      tell: async (ctx) => {
        await ctx.tool("notify", { to: PLANTED.email, password: PLANTED.smtp });
        return { ok: true };
      },
      crash: async () => {
        throw new Error(`cannot connect to postgres://app:${PLANTED.dsn}@db.internal/app (Authorization: Bearer ${PLANTED.bearer})`);
      },
    },
    tools: {
      send_email: {
        call: async () => ({
          id: "m-1",
          cookie: PLANTED.cookie,
          headers: { authorization: `Bearer ${PLANTED.bearer}` },
          html: `<html>${PLANTED.html}</html>`,
        }),
      },
      find_email: { call: async () => null },
      notify: {
        call: async (args) => {
          throw new ToolError(`535 authentication failed for ${String(args.to)} with password ${String(args.password)}`, "failed");
        },
      },
    },
  };
  await runPlan({ store, plan, handlers, run: "R", artifacts: join(dir, "artifacts"), crash: () => {}, log: () => {} });

  // what the ledger kept, in words
  const [sent] = await store.listEffects("R", { unit: "send" });
  expect(sent).toMatchObject({ state: "COMMITTED", intent: "send_email(to, api_key, body)", remoteId: "m-1" });
  expect(sent!.receipt).toEqual({ id: "m-1" });
  const [told] = await store.listEffects("R", { unit: "tell" });
  expect(told!.state).toBe("FAILED");
  expect(told!.error).toContain("535 authentication failed for [redacted]");
  await store.close();

  // and in bytes: the database file and its journals
  const files = readdirSync(dir).filter((f) => f.startsWith("store.db"));
  expect(files).toContain("store.db");
  const bytes = files.map((f) => readFileSync(join(dir, f)).toString("latin1")).join("\n");
  for (const [what, secret] of Object.entries(PLANTED)) expect(bytes.includes(secret), `${what} found in the store`).toBe(false);
});
