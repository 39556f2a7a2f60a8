/**
 * A run with six planted secret values, and a scanner that reads everything
 * a run leaves behind: every table and column of the store (SQLite: also the
 * raw bytes of the database and its journals), every file under the artifact
 * root (attempt directories), and what `status`, `handoff` and `events` print.
 * Used by test/runtime-secrets.test.ts (SQLite) and
 * test/postgres-secrets.test.ts (PostgreSQL); docs/runtime.md "What the store
 * keeps" is the promise they hold.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import pg from "pg";
import { runCli, type CliResult } from "./runtime-harness.js";

/** The six planted values, each where a contract marks it secret. */
export const PLANTED = {
  /** the value the tools module's reader gives the secret input `vault_token` */
  input: "PLANTED-input-vault-token-7f3a",
  /** the secret argument `password` of `send_mail` */
  argument: "PLANTED-argument-smtp-pass-51c2",
  /** the secret result field `session` of `send_mail`'s receipt */
  result: "PLANTED-result-session-9e04",
  /** a key in the message the `notify` adapter fails with (the call's secret `api_key`) */
  errorKey: "PLANTED-error-key-c0ffee11",
  /** the model provider's key, from the worker's environment (TASKSPEC_MODEL_API_KEY) */
  modelKey: "PLANTED-model-api-key-d00d",
  /** what the secret result field `secret_value` of the `vault_read` read tool holds, quoted in a handler's thrown error */
  thrown: "PLANTED-thrown-a11ce",
} as const;

/**
 * Where each planted value would go without the markings: a unit's result
 * that quotes it (unit_records), a receipt (effects.receipt), an error
 * message (effects.error, unit_states.last_error, attempt-failed events).
 */
export const CONTRACT = `contract: 1
task:
  id: secrets
  version: 1
  goal: planted secrets never reach the store
  timeout: 1m
  outputs: [sent, notified, asked, checked]
  done: [{ check: "count(result.stale_outputs) >= 0" }]
inputs:
  vault_token: { kind: external, secret: true }
budgets: { model_calls: 10, tool_calls: 20, tokens: 1000, retries: 0 }
tools:
  send_mail:
    class: idempotent
    key: "mail:\${run.id}:\${unit.id}"
    args: { password: { secret: true }, to: { safe: true } }
    result: { id: string, session: { type: string, secret: true } }
  notify:
    class: idempotent
    args: { api_key: { secret: true } }
  vault_read:
    class: read
    result: { secret_value: { type: string, secret: true } }
units:
  send:
    needs: { vault_token: content }
    uses: [send_mail]
    produces: [sent]
    verify: [{ check: "result.ok" }]
  tell:
    uses: [notify]
    produces: [notified]
    verify: [{ check: "result.ok" }]
    retry: { max: 0 }
  ask:
    produces: [asked]
    verify: [{ check: "result.ok" }]
  check_vault:
    uses: [vault_read]
    produces: [checked]
    retry: { max: 0 }
`;

export const UNITS = `export default {
  units: {
    async send(ctx) {
      const token = ctx.inputs.vault_token;
      const password = ${JSON.stringify(PLANTED.argument)};
      const r = await ctx.tool("send_mail", { to: "ops@example.com", password, body: "hello" });
      await ctx.write("sent", "sent");
      // a result that quotes what it used: the input, the argument, the receipt's secret field (the receipt it gets has none)
      return { ok: true, id: r.id, used: "token " + token + " password " + password, session: r.session };
    },
    async tell(ctx) {
      await ctx.write("notified", "n");
      await ctx.tool("notify", { channel: "ops", api_key: ${JSON.stringify(PLANTED.errorKey)} });
      return { ok: true };
    },
    async ask(ctx) {
      await ctx.write("asked", "a");
      try {
        await ctx.model({ model: "echo-key-401", messages: [{ role: "user", content: "hi" }] });
        return { ok: true, note: "answered" };
      } catch (err) {
        // the provider's refusal quotes the key: the handler passes the message on in its result
        return { ok: true, note: String(err.message) };
      }
    },
    async check_vault(ctx) {
      await ctx.write("checked", "c");
      const v = await ctx.tool("vault_read", { path: "app/db" });
      throw new Error("vault value " + v.secret_value + " is expired");
    },
  },
};
`;

export const TOOLS = `// a ToolError by its brand (runtime/src/handler-api.ts isToolError): this module imports nothing
const failed = (message) => Object.assign(new Error(message), { code: "TASKSPEC_TOOL_ERROR", outcome: "failed" });
export default {
  inputs: { vault_token: () => ${JSON.stringify(PLANTED.input)} },
  tools: {
    send_mail: { call: async () => ({ id: "m-1", session: ${JSON.stringify(PLANTED.result)}, cookie: "c" }) },
    notify: {
      call: async (args) => {
        throw failed("401 from hook: api_key=" + args.api_key + " is not valid here");
      },
    },
    vault_read: { call: async () => ({ secret_value: ${JSON.stringify(PLANTED.thrown)} }) },
  },
};
`;

/** A local chat-completions provider (runtime/test/fixtures/chat-provider.mjs) that knows the planted model key. */
export async function startProvider(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const log = join(dir, "provider.jsonl");
  writeFileSync(log, "");
  const script = fileURLToPath(new URL("../runtime/test/fixtures/chat-provider.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, log, PLANTED.modelKey], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => child.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  return { url: `http://127.0.0.1:${port}/v1`, child };
}

export interface ScenarioRun {
  run: CliResult;
  /** What `status --format json`, `handoff --format json`, `handoff` and `events --format json` printed. */
  views: Record<string, CliResult>;
}

/**
 * Writes the contract and modules into `dir` and runs them with the real CLI
 * against `store` (in `dir`, so artifacts go to `dir/artifacts` for a SQLite
 * store beside them, `dir/.taskspec/artifacts` for PostgreSQL), then reads
 * the operator views.
 */
export async function runScenario(dir: string, store: string, providerUrl: string): Promise<ScenarioRun> {
  writeFileSync(join(dir, "secrets.task.yaml"), CONTRACT);
  writeFileSync(join(dir, "units.mjs"), UNITS);
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  const env = { TASKSPEC_MODEL_API_KEY: PLANTED.modelKey, TASKSPEC_ISOLATION: undefined };
  const run = await runCli(
    [
      "run",
      join(dir, "secrets.task.yaml"),
      "--handlers",
      join(dir, "units.mjs"),
      "--tools",
      join(dir, "tools.mjs"),
      "--run",
      "R",
      "--model-url",
      providerUrl,
      "--model",
      "local-echo",
    ],
    env,
    store,
    dir,
  );
  const views: Record<string, CliResult> = {};
  for (const [name, args] of [
    ["status", ["status", "R", "--format", "json"]],
    ["handoff-json", ["handoff", "R", "--format", "json"]],
    ["handoff", ["handoff", "R"]],
    ["events", ["events", "R", "--format", "json"]],
  ] as const)
    views[name] = await runCli([...args], env, store, dir);
  return { run, views };
}

/** Every row of every table of a SQLite store as text, and the raw bytes of the database and its journals. */
export function sqliteText(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const out: string[] = [];
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables)
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])
        out.push(`${name}: ${Object.values(row).map(cellText).join(" | ")}`);
  } finally {
    db.close();
  }
  for (const f of readdirSync(join(file, "..")).filter((f) => f.startsWith(file.split("/").pop()!)))
    out.push(readFileSync(join(file, "..", f)).toString("latin1"));
  return out;
}

/** Every row of every table of the store's PostgreSQL schema, as text. */
export async function postgresText(url: string, schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const out: string[] = [];
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
      [schema],
    );
    for (const { table_name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${table_name}" t`);
      for (const r of rows.rows) out.push(`${table_name}: ${r.row}`);
    }
  } finally {
    await client.end();
  }
  return out;
}

/** Every file under `root` (attempt directories, artifacts), as text. */
export function filesText(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(`${p}: ${readFileSync(p).toString("latin1")}`);
    }
  };
  walk(root);
  return out;
}

/** Occurrences of each planted value in the texts, and where (the first 120 characters of each text that holds one). */
export function hitsOf(texts: readonly string[]): { count: Record<keyof typeof PLANTED, number>; where: string[] } {
  const count = Object.fromEntries(Object.keys(PLANTED).map((k) => [k, 0])) as Record<keyof typeof PLANTED, number>;
  const where: string[] = [];
  for (const text of texts)
    for (const [what, value] of Object.entries(PLANTED) as [keyof typeof PLANTED, string][]) {
      const n = text.split(value).length - 1;
      if (n === 0) continue;
      count[what] += n;
      const at = text.indexOf(value);
      where.push(`${what} x${n}: …${text.slice(Math.max(0, at - 60), at + value.length + 20)}…`);
    }
  return { count, where };
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (Buffer.isBuffer(v)) return v.toString("latin1");
  return typeof v === "string" ? v : String(v);
}
