/**
 * An effect is its key and its request, through the
 * runtime library against a SQLite file:
 * - a second call with a known key and another request is refused with a
 *   GuardError that shows both requests (digests, never values) and the
 *   adapter is not called again; the earlier receipt is never handed back;
 * - the same key with the same request on a retry keeps today's behaviour
 *   (the receipt, no second call);
 * - a loop's iterations are distinct effects: four iterations calling the
 *   same dedup tool make four effects, and four files reach the disk through
 *   an idempotent tool whose key names the attempt (the bug this guards: only the
 *   first reached the disk).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile, type Plan } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { runPlan } from "../runtime/src/engine/run-plan.js";
import type { HandlerModule, ToolAdapter, UnitContext } from "../runtime/src/handler-api.js";
import { canonicalJson, sha256 } from "../runtime/src/model/identity.js";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import { tempRunDir } from "./runtime-harness.js";

const SECRET_BODY = "body-with-PLANTED-secret-0001";
const OTHER_BODY = "another body, PLANTED-0002";

function planOf(units: string, tools = ""): Plan {
  const text = `contract: 1
task:
  id: effects
  goal: one effect per key and request
  timeout: 1m
  outputs: [out]
  done: [ok]
budgets: { tool_calls: 100, retries: 0 }
tools:
  create_post: { class: dedup, key: "post:\${run.id}:\${unit.id}", lookup: find_post, result: { id: string } }
  find_post: { class: read }
${tools}verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
${units}`;
  const { plan, diagnostics } = compile(text);
  if (!plan) throw new Error(diagnostics.map((d) => `${d.code} ${d.message}`).join("\n"));
  return plan;
}

async function open(dir: string): Promise<SqliteStore> {
  const store = new SqliteStore({ path: join(dir, "store.db") });
  await store.init();
  return store;
}

/** A create_post adapter that counts its calls and answers a new id each time. */
function blog() {
  const calls: Record<string, unknown>[] = [];
  const adapter: ToolAdapter = {
    call: async (args, meta) => {
      calls.push({ ...args, key: meta.key });
      return { id: `p${calls.length}` };
    },
  };
  return { calls, tools: { create_post: adapter, find_post: { call: async () => null } } };
}

const run = (store: SqliteStore, plan: Plan, handlers: HandlerModule, dir: string) =>
  runPlan({ store, plan, handlers, run: "R", artifacts: join(dir, "artifacts"), crash: () => {}, log: () => {} });

describe("a known key with another request", () => {
  it("is refused with both requests shown (no values), the adapter is not called again, no receipt handed back", async () => {
    const { dir } = tempRunDir("taskspec-effects-");
    const store = await open(dir);
    const { calls, tools } = blog();
    const seen: unknown[] = [];
    const handlers: HandlerModule = {
      units: {
        publish: async (ctx: UnitContext) => {
          seen.push(await ctx.tool("create_post", { title: "Hello", body: SECRET_BODY }));
          seen.push(await ctx.tool("create_post", { title: "Hello", body: OTHER_BODY }));
          await ctx.write("out", "x");
          return { ok: true };
        },
      },
      tools,
    };
    const plan = planOf("  publish:\n    uses: [create_post]\n    produces: [out]\n    verify: [ok]\n");
    const out = await run(store, plan, handlers, dir);
    expect(out.status).not.toBe("done");
    expect(calls).toHaveLength(1); // the second request never reached the adapter
    expect(seen).toEqual([{ id: "p1" }]); // and was not answered with the first receipt

    const effects = await store.listEffects("R");
    expect(effects.map((e) => [e.state, e.key, e.iteration])).toEqual([["COMMITTED", "post:R:publish", 1]]);
    const first = { title: "Hello", body: SECRET_BODY };
    expect(effects[0]!.requestHash).toBe(sha256(canonicalJson({ tool: "create_post", args: first })));
    expect(effects[0]!.request).toEqual({
      tool: "create_post",
      args: {
        body: `sha256:${sha256(canonicalJson(SECRET_BODY)).slice(0, 16)}`,
        title: `sha256:${sha256(canonicalJson("Hello")).slice(0, 16)}`,
      },
    });

    const [failed] = await store.listEvents("R", { type: "attempt-failed" });
    const message = String(failed!.data?.message);
    expect(failed!.data?.class).toBe("guard");
    expect(message).toContain('unit publish called create_post with key "post:R:publish", which already names effect R/publish/a1/1');
    expect(message).toContain("made with a different request; refused, nothing was sent and the earlier receipt is not handed back");
    const bodyOf = (body: string) => `body=sha256:${sha256(canonicalJson(body)).slice(0, 16)}`;
    expect(message).toContain(`earlier request: create_post(${bodyOf(SECRET_BODY)}, title=`);
    expect(message).toContain(`this request: create_post(${bodyOf(OTHER_BODY)}, title=`);
    expect(message).toContain("they differ in body");
    // redacted: no argument value anywhere in the store file
    await store.close();
    const bytes = readdirSync(dir)
      .filter((f) => f.startsWith("store.db"))
      .map((f) => readFileSync(join(dir, f)).toString("latin1"))
      .join("");
    expect(bytes).not.toContain("PLANTED");
  });

  it("on a retry: another request is refused; the same request gets the committed receipt, never a second call", async () => {
    for (const [second, expectCalls, expectDone] of [
      [{ title: "Hello", body: OTHER_BODY }, 1, false],
      [{ title: "Hello", body: SECRET_BODY }, 1, true],
    ] as const) {
      const { dir } = tempRunDir("taskspec-effects-");
      const store = await open(dir);
      const { calls, tools } = blog();
      const answers: unknown[] = [];
      const handlers: HandlerModule = {
        units: {
          publish: async (ctx: UnitContext) => {
            if (ctx.attempt.number === 1) {
              await ctx.tool("create_post", { title: "Hello", body: SECRET_BODY });
              throw new Error("the handler failed after its post was made");
            }
            answers.push(await ctx.tool("create_post", second));
            await ctx.write("out", "x");
            return { ok: true };
          },
        },
        tools,
      };
      const plan = planOf("  publish:\n    uses: [create_post]\n    retry: { max: 1 }\n    produces: [out]\n    verify: [ok]\n");
      const out = await run(store, plan, handlers, dir);
      expect(calls).toHaveLength(expectCalls);
      expect(out.status === "done").toBe(expectDone);
      expect(answers).toEqual(expectDone ? [{ id: "p1" }] : []);
      const failures = (await store.listEvents("R", { type: "attempt-failed" })).map((e) => String(e.data?.class));
      expect(failures).toEqual(expectDone ? ["handler-error"] : ["handler-error", "guard"]);
    }
  });
});

describe("a loop's iterations", () => {
  it("are distinct effects: 4 iterations of a dedup call make 4 effects, and 4 files reach the disk", async () => {
    const { dir } = tempRunDir("taskspec-effects-");
    const store = await open(dir);
    const { calls, tools } = blog();
    const disk = join(dir, "workspace");
    const written: Record<string, unknown>[] = [];
    const handlers: HandlerModule = {
      units: {
        refine: async (ctx: UnitContext) => {
          const n = ctx.iteration;
          await ctx.tool("create_post", { title: `draft ${n}` });
          await ctx.tool("write_file", { name: `draft-${n}.md`, content: `draft ${n}` });
          await ctx.tool("tag", { label: `v${n}` });
          if (n === 4) await ctx.write("out", "final");
          return { ok: true, n };
        },
      },
      tools: {
        ...tools,
        write_file: {
          call: async (args, meta) => {
            written.push(args);
            const folder = join(disk, String(meta.key));
            mkdirSync(folder, { recursive: true });
            writeFileSync(join(folder, String(args.name)), String(args.content));
            return { path: join(String(meta.key), String(args.name)) };
          },
        },
        tag: { call: async (args) => ({ id: String(args.label) }) },
      },
    };
    const plan = planOf(
      '  refine:\n    uses: [create_post, write_file, tag]\n    loop: { max: 4, until: "result.n >= 4" }\n    produces: [out]\n    verify: [ok]\n',
      '  write_file: { class: idempotent, key: "${run.id}/${unit.id}/${attempt.id}" }\n  tag: { class: dedup, key: "tag:${run.id}:${iteration}", lookup: find_post }\n',
    );
    const out = await run(store, plan, handlers, dir);
    expect(out.status).toBe("done");
    expect(calls.map((c) => c.key)).toEqual(["post:R:refine#i1", "post:R:refine#i2", "post:R:refine#i3", "post:R:refine#i4"]);
    expect(written).toHaveLength(4);
    for (let n = 1; n <= 4; n++) expect(existsSync(join(disk, `R/refine/a1#i${n}`, `draft-${n}.md`))).toBe(true);
    const effects = await store.listEffects("R");
    const byTool = (tool: string) => effects.filter((e) => e.tool === tool).map((e) => [e.key, e.iteration, e.state]);
    expect(byTool("create_post")).toEqual([1, 2, 3, 4].map((n) => [`post:R:refine#i${n}`, n, "COMMITTED"]));
    expect(byTool("write_file")).toEqual([1, 2, 3, 4].map((n) => [`R/refine/a1#i${n}`, n, "COMMITTED"]));
    // a key that names the iteration itself is used as rendered
    expect(byTool("tag")).toEqual([1, 2, 3, 4].map((n) => [`tag:R:${n}`, n, "COMMITTED"]));
    expect(new Set(effects.map((e) => e.requestHash)).size).toBe(12);
  });
});
