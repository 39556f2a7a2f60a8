/**
 * With the real CLI: verifiers belong to
 * the contract. A handler module that exports `verifiers.ok` (the name of a
 * rule) does not replace the rule: a unit returning { ok: false } fails, a
 * run whose `final_quality` rule sees quality 0 does not end done. Code
 * verifiers come from a verifier module of their own (`--verifiers`), whose
 * sha256 the run records and `status` shows; without one, a contract that
 * needs it is refused. A `schema:` path that resolves outside the contract's
 * folder through a symlink is refused at run time, and the stored failure
 * never contains the file's content.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const { dir } = tempRunDir("taskspec-verifiers-");
let n = 0;
/** A fresh folder with the given files; returns its path and a store in it. */
function project(files: Record<string, string>): { root: string; store: string } {
  const root = join(dir, `p${++n}`);
  mkdirSync(root, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return { root, store: `sqlite:${join(root, "store.db")}` };
}

const CONTRACT = `contract: 1
task:
  id: judged
  version: 1
  goal: the contract's verifiers judge, not the handlers
  outputs: [final]
  done: [final_quality]
budgets: { model_calls: 10, tool_calls: 10, tokens: 1000, retries: 0 }
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
  final_quality: { kind: rule, check: "result.quality > 0" }
units:
  work: { produces: [work-out], verify: [ok] }
  finish: { needs: { work: content }, produces: [final], verify: [{ check: "exists(result.quality)" }] }
`;

/** A handler module that tries to judge itself: `ok` and `final_quality` always pass. */
const SELF_JUDGING = (ok: boolean) => `export default {
  units: {
    work: async (ctx) => { await ctx.write("work-out", "w"); return { ok: ${ok} }; },
    finish: async (ctx) => { await ctx.write("final", "f"); return { quality: 0 }; },
  },
  tools: {},
  verifiers: { ok: async () => ({ passed: true }), final_quality: async () => ({ passed: true }) },
};
`;

const MODEL_CONTRACT = `contract: 1
task:
  id: modelled
  version: 1
  goal: a model verifier from the verifier module
  outputs: [note]
  done: [{ check: "count(result.outputs) == 1" }]
budgets: { model_calls: 10, tool_calls: 10, tokens: 1000, retries: 0 }
verifiers:
  has_text: { kind: rule, check: "len(result.text) > 0" }
  reads_well: { kind: model, describe: "the note greets someone" }
units:
  draft: { produces: [note], verify: [has_text, reads_well] }
`;
const MODEL_HANDLERS = `export default {
  units: { draft: async (ctx) => { await ctx.write("note", "Hello, world"); return { text: "Hello, world" }; } },
  tools: {},
};
`;
const READS_WELL = `export default {
  verifiers: { reads_well: async (ctx) => (/^Hello, \\S/.test(ctx.result.text) ? { passed: true } : { passed: false, reason: "greets nobody" }) },
};
`;

const run = (p: { root: string; store: string }, contract: string, extra: string[] = []) =>
  runCli(
    ["run", join(p.root, contract), "--handlers", join(p.root, "handlers.mjs"), "--run", "R", "--format", "json", ...extra],
    {},
    p.store,
  );
const events = async (p: { store: string }) =>
  (await runCli(["events", "R", "--format", "json"], {}, p.store)).stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; data?: unknown });
const status = async (p: { store: string }) => JSON.parse((await runCli(["status", "R", "--format", "json"], {}, p.store)).stdout);

describe("verifiers belong to the contract", () => {
  it("a handler module exporting verifiers.ok does not replace the rule: a unit returning { ok: false } fails", async () => {
    const p = project({ "c.task.yaml": CONTRACT, "handlers.mjs": SELF_JUDGING(false) });
    const out = await run(p, "c.task.yaml");
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/warning: handler module \S+handlers\.mjs exports verifiers \(ok, final_quality\); they are not used/);
    const s = await status(p);
    expect(s.units.find((u: { unit: string }) => u.unit === "work")).toMatchObject({
      state: "failed",
      reason: expect.stringMatching(/verifier-failed: ok: result\.ok == true is false/),
    });
    expect(s.status).not.toBe("done");
  });

  it("a run whose final_quality rule sees quality 0 does not end done, whatever the handler module exports", async () => {
    const p = project({ "c.task.yaml": CONTRACT, "handlers.mjs": SELF_JUDGING(true) });
    const out = await run(p, "c.task.yaml");
    expect(out.code).toBe(3); // blocked: task.done failed (docs/operator.md, exit codes)
    const s = await status(p);
    expect(s.counts.current).toBe(2);
    expect(s.status).not.toBe("done");
    expect(s.blocked[0].detail).toMatch(/task\.done failed on the final artifacts: final_quality: result\.quality > 0 is false/);
  });

  it("code verifiers come from the verifier module; the run records its sha256 and status shows it", async () => {
    const p = project({ "c.task.yaml": MODEL_CONTRACT, "handlers.mjs": MODEL_HANDLERS, "verifiers.mjs": READS_WELL });
    const verifiers = join(p.root, "verifiers.mjs");
    const sha = createHash("sha256").update(readFileSync(verifiers)).digest("hex");
    const out = await run(p, "c.task.yaml", ["--verifiers", verifiers]);
    expect(out.code, out.stderr).toBe(0);
    expect((await events(p)).filter((e) => e.type === "verifier-module")).toEqual([
      expect.objectContaining({ data: { path: verifiers, sha256: sha } }),
    ]);
    expect((await status(p)).verifierModule).toEqual({ path: verifiers, sha256: sha });
    const text = await runCli(["status", "R"], {}, p.store);
    expect(text.stdout).toContain(`verifier module: ${verifiers} (sha256 ${sha.slice(0, 12)}…)`);
    // a plain resume uses the recorded module again and records nothing new (same file, same hash)
    expect((await runCli(["resume", "R"], {}, p.store)).code).toBe(0);
    expect((await events(p)).filter((e) => e.type === "verifier-module")).toHaveLength(1);
  });

  it("refuses before any work: no verifier module for a model verifier, a module that implements a rule, the handler module as verifier module", async () => {
    const p = project({
      "c.task.yaml": MODEL_CONTRACT,
      "handlers.mjs": MODEL_HANDLERS,
      "rules.mjs": `export default { verifiers: { reads_well: async () => ({ passed: true }), has_text: async () => ({ passed: true }) } };\n`,
    });
    const none = await run(p, "c.task.yaml");
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("the plan uses code verifiers (kind model or human) and no verifier module was given; nothing was run");
    expect(none.stderr).toContain("verifiers.reads_well: model verifier (verifies draft) is not implemented");
    expect(none.stderr).toContain("pass --verifiers <module>");
    const rule = await run(p, "c.task.yaml", ["--verifiers", join(p.root, "rules.mjs")]);
    expect(rule.code).toBe(2);
    expect(rule.stderr).toMatch(
      /verifiers\.has_text: the contract declares has_text as a rule verifier, which decides exactly as declared; a module cannot replace it/,
    );
    const same = await run(p, "c.task.yaml", ["--verifiers", join(p.root, "handlers.mjs")]);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/is the handler module: a unit's handler never decides its own verification/);
    for (const r of [none, rule, same]) expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(p.root)).not.toContain("store.db");
  });
});

describe("schema: paths are confined to the contract's folder at run time", () => {
  const SCHEMA_CONTRACT = `contract: 1
task:
  id: schemad
  version: 1
  goal: schema files stay in the contract's folder
  outputs: [doc]
  done: [{ check: "count(result.outputs) == 1" }]
budgets: { model_calls: 10, tool_calls: 10, tokens: 1000, retries: 0 }
verifiers:
  doc_schema: { kind: schema, schema: schemas/doc.json }
units:
  make: { produces: [doc], verify: [doc_schema] }
`;
  const HANDLERS = `export default {
  units: { make: async (ctx) => { await ctx.write("doc", { a: 1 }, { mediaType: "application/json" }); return { a: 1 }; } },
  tools: {},
};
`;
  const SECRET = "TOP-SECRET-a9f3e1 not json at all";

  /** Every text the store keeps (all tables, all columns). */
  const storeText = (store: string) => {
    const db = new Database(store.slice("sqlite:".length), { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
    const text = tables.map((t) => JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).all())).join("\n");
    db.close();
    return text;
  };

  it("a schema file that is a symlink to a file outside the folder is refused; its content is never stored", async () => {
    const outside = join(dir, "outside-secret.json");
    writeFileSync(outside, SECRET);
    const p = project({
      "c.task.yaml": SCHEMA_CONTRACT,
      "handlers.mjs": HANDLERS,
      "schemas/doc.json": JSON.stringify({ type: "object" }),
    });
    // The compiler refuses such a symlink (C014); the run-time guard is for one planted after the
    // check, so the plan is compiled while the file is still a plain one.
    expect((await runCli(["compile", join(p.root, "c.task.yaml"), "-o", join(p.root, "c.plan.json")])).code).toBe(0);
    rmSync(join(p.root, "schemas", "doc.json"));
    symlinkSync(outside, join(p.root, "schemas", "doc.json"));
    const checked = await runCli(["check", join(p.root, "c.task.yaml")]);
    expect(checked.code).toBe(1);
    expect(checked.stdout + checked.stderr).toContain("C014");
    const out = await run(p, "c.plan.json");
    expect(out.code, out.stdout + out.stderr).toBe(1);
    const s = await status(p);
    expect(s.units[0]).toMatchObject({
      state: "failed",
      reason: expect.stringContaining(
        "schema file 'schemas/doc.json' resolves outside the contract's folder (through a symlink or '..'); refused",
      ),
    });
    expect(storeText(p.store)).not.toContain("TOP-SECRET");
  });

  it("a schema file inside the folder that is not JSON fails without quoting it", async () => {
    const p = project({ "c.task.yaml": SCHEMA_CONTRACT, "handlers.mjs": HANDLERS, "schemas/doc.json": SECRET });
    const out = await run(p, "c.task.yaml");
    expect(out.code).toBe(1);
    expect((await status(p)).units[0].reason).toContain("schema file 'schemas/doc.json' is not valid JSON");
    expect(storeText(p.store)).not.toContain("TOP-SECRET");
  });

  it("a schema file inside the folder validates as before", async () => {
    const p = project({
      "c.task.yaml": SCHEMA_CONTRACT,
      "handlers.mjs": HANDLERS,
      "schemas/doc.json": JSON.stringify({ type: "object", required: ["a"] }),
    });
    const out = await run(p, "c.task.yaml");
    expect(out.code, out.stdout + out.stderr).toBe(0);
  });
});
