/**
 * The worked examples of contract-v1.md "Invalidation semantics", as written
 * there: S04 feeds A01 via [content, structure] and A03 via content; F01 needs both.
 */
import { describe, expect, it } from "vitest";
import { causeJson, impact, invalidatedBy, pathNodesOf } from "../../src/impact/index.js";
import { buildPlan } from "./plan-builder.js";

const plan = buildPlan({
  inputs: { audience: {} },
  units: {
    S04: { phase: "synthesis" },
    A01: { phase: "assemble", needs: { S04: ["content", "structure"] } },
    A03: { phase: "assemble", needs: { S04: "content" } },
    F01: { phase: "final", needs: { A01: "content", A03: "content" } },
    U27: { phase: "risk", needs: { S04: "content", audience: "audience" } },
    U30: { phase: "risk", needs: { U27: "content" } },
  },
});

const paths = (report: ReturnType<typeof impact>) => Object.fromEntries(report.invalidated.map((i) => [i.unit, i.path]));

describe("contract-v1 invalidation examples", () => {
  it("S04:structure invalidates A01, then F01 through content", () => {
    const report = impact(plan, [{ origin: "S04", kinds: ["structure"] }]);
    expect(paths(report)).toEqual({
      A01: "S04 --structure--> A01",
      F01: "S04 --structure--> A01 --content--> F01",
    });
    expect(report.kept).toEqual(["A03", "U27", "U30"]);
    expect(report.origins).toEqual(["S04"]);
    expect(report.unmatched).toEqual([]);
  });

  it("S04:content invalidates A01, A03 and F01 (and what else reads its content)", () => {
    const report = impact(plan, [{ origin: "S04", kinds: ["content"] }]);
    expect(report.invalidated.map((i) => i.unit)).toEqual(["A01", "A03", "U27", "F01", "U30"]);
    expect(paths(report).F01).toBe("S04 --content--> A01 --content--> F01");
  });

  it("audience invalidates only the units that need it and what lies downstream of them", () => {
    const report = impact(plan, [{ origin: "audience", kinds: "all" }]);
    expect(paths(report)).toEqual({
      U27: "audience --audience--> U27",
      U30: "audience --audience--> U27 --content--> U30",
    });
    expect(report.kept).toEqual(["S04", "A01", "A03", "F01"]);
    expect(report.origins).toEqual([]);
  });

  it("gives a cause tree naming the change and each edge", () => {
    const report = impact(plan, [{ origin: "S04", kinds: ["structure"] }]);
    expect(report.invalidated.find((i) => i.unit === "F01")).toEqual({
      unit: "F01",
      phase: "final",
      path: "S04 --structure--> A01 --content--> F01",
      cause: {
        type: "edge",
        from: "A01",
        to: "F01",
        kind: "content",
        edgeKinds: ["content"],
        because: {
          type: "edge",
          from: "S04",
          to: "A01",
          kind: "structure",
          edgeKinds: ["content", "structure"],
          because: { type: "change", change: 0, origin: "S04", kind: "structure" },
        },
      },
    });
  });
});

describe("report items are plain data", () => {
  it("are ordinary objects with own data properties only: unit, phase, path, cause", () => {
    const [item] = impact(plan, [{ origin: "S04", kinds: ["structure"] }]).invalidated;
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    expect(Object.keys(item!)).toEqual(["unit", "phase", "path", "cause"]);
    for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(item))) expect(descriptor).toHaveProperty("value");
    expect(item).toEqual({
      unit: "A01",
      phase: "assemble",
      path: "S04 --structure--> A01",
      cause: {
        type: "edge",
        from: "S04",
        to: "A01",
        kind: "structure",
        edgeKinds: ["content", "structure"],
        because: { type: "change", change: 0, origin: "S04", kind: "structure" },
      },
    });
    expect(pathNodesOf(item!.cause)).toEqual(["S04", "A01"]);
  });

  it("invalidatedBy gives the same units as impact, without explanations", () => {
    for (const changes of [
      [{ origin: "S04", kinds: "all" as const }],
      [{ origin: "S04", kinds: ["structure"] }],
      [{ origin: "nowhere", kinds: "all" as const }],
    ]) {
      expect(invalidatedBy(plan, changes)).toEqual(impact(plan, changes).invalidated.map((i) => i.unit));
    }
  });
});

describe("impact rules widen", () => {
  const withRule = buildPlan({
    inputs: { audience: {} },
    units: {
      S04: {},
      U26: { needs: { S04: "content" } },
      U27: { needs: { audience: "audience" } },
      U28: { needs: { U26: "structure" } },
    },
    rules: [{ on: "audience", invalidate: ["U26"] }],
  });

  it("a rule fires on a change carrying its kind and what it names propagates like any other", () => {
    const report = impact(withRule, [{ origin: "audience", kinds: "all" }]);
    expect(paths(report)).toEqual({
      U26: "audience ==audience rule==> U26",
      U27: "audience --audience--> U27",
    });
    expect(report.invalidated.find((i) => i.unit === "U26")?.cause).toEqual({
      type: "rule",
      rule: 0,
      on: "audience",
      from: "audience",
      to: "U26",
      because: { type: "change", change: 0, origin: "audience", kind: "audience" },
    });
  });

  it("a rule does not fire on other kinds", () => {
    const report = impact(withRule, [{ origin: "S04", kinds: ["content"] }]);
    expect(report.invalidated.map((i) => i.unit)).toEqual(["U26"]);
  });

  it("`at` limits a rule to changes at that node, including carried ones", () => {
    const atPlan = buildPlan({
      inputs: { audience: {}, tone: {} },
      units: { U27: { needs: { audience: "audience" } }, U26: {}, U30: { needs: { U27: "content" } } },
      rules: [{ on: "audience", at: "U27", invalidate: ["U26"] }],
    });
    expect(paths(impact(atPlan, [{ origin: "audience", kinds: "all" }]))).toEqual({
      U27: "audience --audience--> U27",
      U26: "audience --audience--> U27 ==audience rule==> U26",
      U30: "audience --audience--> U27 --content--> U30",
    });
    expect(impact(atPlan, [{ origin: "U30", kinds: "all" }]).invalidated).toEqual([]);
  });
});

describe("changes that match nothing", () => {
  it.each([
    [
      { origin: "audiense", kinds: "all" as const },
      "unknown-node",
      "audience",
      "'audiense' is neither a unit nor an input — did you mean 'audience'?",
    ],
    [
      { origin: "S04", kinds: ["contnet"] },
      "unknown-kind",
      "content",
      "'contnet' is not an edge kind (content, structure, policy, audience or all) — did you mean 'content'?",
    ],
    [{ origin: "zzz", kinds: "all" as const }, "unknown-node", undefined, "'zzz' is neither a unit nor an input"],
    [
      { origin: "audience", kinds: ["structure"] },
      "no-matching-edge",
      undefined,
      "nothing depends on 'audience' in structure (its dependents need it as audience)",
    ],
    [{ origin: "F01", kinds: "all" as const }, "no-matching-edge", undefined, "nothing depends on 'F01' in any kind (no unit needs it)"],
  ])("%j is reported as %s", (change, code, didYouMean, reason) => {
    const report = impact(plan, [change]);
    expect(report.unmatched).toEqual([{ change, code, reason, ...(didYouMean ? { didYouMean } : {}) }]);
    expect(report.invalidated).toEqual([]);
  });

  it("a typo'd change does not hide the others", () => {
    const report = impact(plan, [
      { origin: "audiense", kinds: "all" },
      { origin: "S04", kinds: ["structure"] },
    ]);
    expect(report.unmatched.map((u) => u.code)).toEqual(["unknown-node"]);
    expect(report.invalidated.map((i) => [i.unit, i.path])).toEqual([
      ["A01", "S04 --structure--> A01"],
      ["F01", "S04 --structure--> A01 --content--> F01"],
    ]);
  });
});

describe("deep graphs", () => {
  it("explains a unit 20,000 hops down a chain without overflowing the stack", () => {
    const units: Record<string, { needs?: Record<string, "content"> }> = { C00000: {} };
    for (let i = 1; i < 20_000; i++)
      units[`C${String(i).padStart(5, "0")}`] = { needs: { [`C${String(i - 1).padStart(5, "0")}`]: "content" } };
    const report = impact(buildPlan({ units }), [{ origin: "C00000", kinds: ["content"] }]);
    const last = report.invalidated.at(-1)!;
    expect(report.invalidated).toHaveLength(19_999);
    expect(pathNodesOf(last.cause)).toHaveLength(20_000);
    expect(last.path.endsWith("C19998 --content--> C19999")).toBe(true);
    let depth = 0;
    for (let link = last.cause; link.type !== "change"; link = link.because) depth++;
    expect(depth).toBe(19_999);
    expect(() => JSON.stringify(last.cause)).toThrow(RangeError);
    const json = causeJson(last.cause);
    expect(
      json.startsWith(
        '{"type":"edge","from":"C19998","to":"C19999","kind":"content","edgeKinds":["content"],"because":{"type":"edge","from":"C19997"',
      ),
    ).toBe(true);
    expect(json.endsWith('{"type":"change","change":0,"origin":"C00000","kind":"content"}' + "}".repeat(19_999))).toBe(true);
  });

  it("writes a cause tree as JSON with the same text as JSON.stringify", () => {
    const report = impact(plan, [
      { origin: "S04", kinds: "all" },
      { origin: "audience", kinds: "all" },
    ]);
    expect(report.invalidated.length).toBeGreaterThan(0);
    for (const i of report.invalidated) expect(causeJson(i.cause)).toBe(JSON.stringify(i.cause));
  });
});
