/**
 * The seed's cases (seed 004) on specs/market-entry-pack.task.yaml: the
 * audience change, source group C, the S04 example of contract-v1.md, the
 * `sources` policy rule, and contract edits between plan v4 and v5.
 * The text renderings are golden files beside this test.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile.js";
import { formatEditImpact, formatImpact, impact, impactOfEdit, type ChangeInput } from "../../src/impact/index.js";
import type { Plan } from "../../src/plan/schema.js";

const text = readFileSync(new URL("../../../specs/market-entry-pack.task.yaml", import.meta.url), "utf8");

function planOf(source: string): Plan {
  const { plan, diagnostics } = compile(source);
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return plan!;
}
const plan = planOf(text);
const run = (...changes: ChangeInput[]) => impact(plan, changes);
const unitsOf = (changes: ChangeInput[]) => impact(plan, changes).invalidated.map((i) => i.unit);

/** Units reachable from `roots` over plan edges of any kind (roots excluded). */
function downstreamOf(roots: string[]): Set<string> {
  const seen = new Set<string>();
  for (let frontier = roots; frontier.length > 0;) {
    frontier = plan.edges.filter((e) => frontier.includes(e.from) && !seen.has(e.to)).map((e) => e.to);
    for (const unit of frontier) seen.add(unit);
  }
  return seen;
}

describe("market-entry pack (seed 004)", () => {
  it("has the seed's 36 units in the seed's run order", () => {
    expect(plan.units).toHaveLength(36);
    expect(plan.units.slice(26, 30).map((u) => u.id)).toEqual(["U27", "U28", "U29", "U30"]);
  });

  it("audience: U27-U30, and only what lies downstream of them", async () => {
    const report = run({ origin: "audience", kinds: "all" });
    const units = report.invalidated.map((i) => i.unit);
    expect(units).toEqual(["U27", "U28", "U29", "U30", "A01", "A03", "F01"]);
    const frame = ["U27", "U28", "U29", "U30"];
    const allowed = new Set([...frame, ...downstreamOf(frame)]);
    expect(units.filter((u) => !allowed.has(u))).toEqual([]);
    // The evidence table, the inventory and the appendix do not read anything audience-dependent.
    expect(report.kept).toEqual(expect.arrayContaining(["U31", "A02", "A04"]));
    expect(report.kept).toHaveLength(29);
    await expect(formatImpact(plan, report)).toMatchFileSnapshot("golden/market-entry-audience.txt");
  });

  it("source group C: E03 and its true downstream only", async () => {
    const report = run({ origin: "group-c", kinds: "all" });
    const units = report.invalidated.map((i) => i.unit);
    expect(units).toEqual(["E03", "V02", "S02", "S06", "U28", "U31", "A01", "A02", "A03", "A04", "F01"]);
    const allowed = new Set(["E03", ...downstreamOf(["E03"])]);
    expect(units.filter((u) => !allowed.has(u))).toEqual([]);
    // The other eleven extractions stay; so does U30, which reads only the *structure* of S02 and S06,
    // and a change in interview content reaches them as content.
    expect(report.kept).toEqual(expect.arrayContaining(["E01", "E02", "E04", "E12", "S04", "S05", "U30"]));
    await expect(formatImpact(plan, report)).toMatchFileSnapshot("golden/market-entry-group-c.txt");
  });

  it("S04:structure invalidates A01, then F01; S04:content A01, A03 and F01 (contract-v1.md)", () => {
    expect(run({ origin: "S04", kinds: ["structure"] }).invalidated.map((i) => i.path)).toEqual([
      "S04 --structure--> A01",
      "S04 --structure--> A01 --content--> F01",
    ]);
    expect(unitsOf([{ origin: "S04", kinds: ["content"] }])).toEqual(["A01", "A03", "F01"]);
  });

  it("a policy change to the approved sources fires the impact rule on U31", () => {
    const report = run({ origin: "sources", kinds: ["policy"] });
    expect(report.invalidated.map((i) => i.path)).toEqual([
      "sources ==policy rule==> U31",
      "sources ==policy rule==> U31 --content--> A02",
      "sources ==policy rule==> U31 --content--> A04",
      "sources ==policy rule==> U31 --content--> A02 --content--> F01",
    ]);
  });

  it("several changes combine", () => {
    expect(
      unitsOf([
        { origin: "audience", kinds: "all" },
        { origin: "group-c", kinds: "all" },
      ]),
    ).toEqual(["E03", "V02", "S02", "S06", "U27", "U28", "U29", "U30", "U31", "A01", "A02", "A03", "A04", "F01"]);
  });
});

describe("market-entry pack edits", () => {
  it("plan v5 (audience: investment committee) re-runs U27-U30 and their downstream", async () => {
    const v5 = text.replace("value: product-team", "value: investment-committee").replace("version: 4", "version: 5");
    const edit = impactOfEdit(plan, planOf(v5));
    expect(edit.diff.inputs.changed).toEqual(["audience"]);
    expect(edit.diff.units).toEqual({ added: [], removed: [], changed: [] });
    expect(edit.mustRerun).toEqual(["U27", "U28", "U29", "U30", "A01", "A03", "F01"]);
    expect(edit.staysValid).toHaveLength(29);
    await expect(formatEditImpact(planOf(v5), edit)).toMatchFileSnapshot("golden/market-entry-v4-v5.txt");
  });

  it("editing a comment or reordering keys invalidates nothing", () => {
    const commented = text.replace("# ---- verify:", "# ---- verification (reworded):");
    const reordered = text.replace(
      "    needs: { group-c: content }\n    uses: [fetch_page, write_file]",
      "    uses: [fetch_page, write_file]\n    needs: { group-c: content }",
    );
    expect(reordered).not.toBe(text);
    for (const edited of [commented, reordered]) {
      const edit = impactOfEdit(plan, planOf(edited));
      expect(edit.diff.changes).toEqual([]);
      expect(edit.mustRerun).toEqual([]);
    }
  });

  it("a retry edit is policy: nothing re-runs, the key is named", () => {
    const edited = text.replace("    produces: [evidence-03]\n", "    produces: [evidence-03]\n    retry: { max: 2 }\n");
    const edit = impactOfEdit(plan, planOf(edited));
    expect(edit.mustRerun).toEqual([]);
    expect(edit.diff.keys).toEqual({ E03: { behaviour: [], policy: ["retry"] } });
  });

  it("changing one extraction re-runs it and its true downstream", () => {
    const edited = text.replace("    produces: [evidence-03]\n", "    produces: [evidence-03]\n    approval: rule\n");
    const edit = impactOfEdit(plan, planOf(edited));
    expect(edit.diff.units.changed).toEqual(["E03"]);
    expect(edit.diff.keys.E03).toEqual({ behaviour: ["approval"], policy: [] });
    expect(edit.mustRerun).toEqual(["E03", "V02", "S02", "S06", "U28", "U31", "A01", "A02", "A03", "A04", "F01"]);
  });
});
