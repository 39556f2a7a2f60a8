/**
 * Runtime invalidation: a contract change supersedes what the impact engine
 * says (kept, with its path); a re-run whose artifacts hash the same stops the
 * propagation (early cutoff); per-facet digests narrow it further; a corrupt
 * artifact found on resume invalidates its producer and, unless the re-run
 * hashes the same, what follows.
 */
import { readFileSync, chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule, UnitContext } from "../src/handler-api.js";
import { compileText, FIXTURES, freshStore, tempDir } from "./fixtures/load.js";

const TEXT = readFileSync(join(FIXTURES, "cutoff.task.yaml"), "utf8");
// a behavioural edit of a (a cost edit is policy and would supersede nothing: docs/contract.md)
const changedA = TEXT.replace(
  "    produces: [a-out]\n    cost: { model_calls: 1 }",
  '    produces: [a-out]\n    cost: { model_calls: 1 }\n    verify: [{ check: "true" }]',
);

function handlers(aOutput: () => { body: string; facets?: Record<string, string> }) {
  const calls: string[] = [];
  const unit = (id: string) => async (ctx: UnitContext) => {
    calls.push(`${id} ${ctx.attempt.id}`);
    if (id === "a") {
      const out = aOutput();
      await ctx.write("a-out", out.body, out.facets ? { facets: out.facets } : {});
      return { v: out.body };
    }
    const up = Object.values(ctx.needs)[0]!.result as { v: string };
    await ctx.write(`${id}-out`, `${id}(${up.v})`);
    return { v: `${id}(${up.v})` };
  };
  const module: HandlerModule = { units: { a: unit("a"), b: unit("b"), c: unit("c"), d: unit("d") }, tools: {} };
  return { module, calls };
}

async function setup() {
  const dir = tempDir();
  return { dir, store: await freshStore(dir), artifacts: join(dir, "artifacts") };
}

describe("run-time invalidation", () => {
  it("a changed unit that re-runs to the same bytes cuts off: nothing downstream re-runs; the old records stay superseded", async () => {
    const t = await setup();
    const h = handlers(() => ({ body: "A" }));
    expect(
      (await runPlan({ store: t.store, plan: compileText(TEXT), handlers: h.module, run: "R", artifacts: t.artifacts, crash: () => {} }))
        .status,
    ).toBe("done");
    const out = await runPlan({
      store: t.store,
      plan: compileText(changedA),
      handlers: h.module,
      run: "R",
      artifacts: t.artifacts,
      crash: () => {},
    });
    expect(out.status).toBe("done");
    expect(h.calls).toEqual(["a a1", "b a1", "d a1", "c a1", "a a2"]);
    const kinds = (await t.store.listCheckpoints("R")).map((c) => c.kind);
    expect(kinds.slice(5)).toEqual(["plan-change", "unit", "cutoff", "cutoff", "cutoff"]);
    const superseded = await t.store.getRecords("R", { status: "superseded" });
    expect(superseded.map((r) => r.unit)).toEqual(["a"]);
    const cut = await t.store.listEvents("R", { type: "early-cutoff" });
    expect(cut.map((e) => e.unit).sort()).toEqual(["b", "c", "d"]);
  });

  it("different bytes propagate; per-facet digests stop it on edges whose facet did not change", async () => {
    const t = await setup();
    let version = 1;
    const h = handlers(() => ({ body: `A${version}`, facets: { content: `claims-${version}`, structure: "layout-1" } }));
    await runPlan({ store: t.store, plan: compileText(TEXT), handlers: h.module, run: "R", artifacts: t.artifacts, crash: () => {} });
    version = 2; // new claims, same layout
    await runPlan({ store: t.store, plan: compileText(changedA), handlers: h.module, run: "R", artifacts: t.artifacts, crash: () => {} });
    expect(h.calls.slice(4)).toEqual(["a a2", "b a2", "c a2"]); // d reads only the structure facet: restored
    expect((await t.store.listEvents("R", { type: "early-cutoff" })).map((e) => e.unit)).toEqual(["d"]);
    const superseded = await t.store.getRecords("R", { status: "superseded" });
    expect(superseded.map((r) => r.unit).sort()).toEqual(["a", "b", "c"]);
  });

  it("a corrupt artifact found on resume supersedes its producer; a same-hash re-run restores what follows", async () => {
    const t = await setup();
    const h = handlers(() => ({ body: "A" }));
    const plan = compileText(TEXT);
    await runPlan({ store: t.store, plan, handlers: h.module, run: "R", artifacts: t.artifacts, crash: () => {} });
    const bOut = join(t.artifacts, "runs/R/b/a1/b-out");
    chmodSync(bOut, 0o644);
    writeFileSync(bOut, "tampered");
    const out = await runPlan({ store: t.store, plan, handlers: h.module, run: "R", artifacts: t.artifacts, crash: () => {} });
    expect(out.status).toBe("done");
    expect(h.calls.slice(4)).toEqual(["b a2"]);
    expect((await t.store.listArtifacts("R", { status: "corrupt" })).map((a) => a.path)).toEqual(["runs/R/b/a1/b-out"]);
    expect((await t.store.listEvents("R", { type: "early-cutoff" })).map((e) => e.unit)).toEqual(["c"]);
  });
});
