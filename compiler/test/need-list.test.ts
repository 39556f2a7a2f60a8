/**
 * A unit's needs as arrays (plan/need-list.ts), which the check's graph, the
 * lens's count index and the plan read instead of the needs object: names in
 * the order of `Object.keys`, each need's edge kinds as the bits of
 * `maskOfNames`, one list per needs object; and the plan's kinds of a need
 * from its mask (`kindsOfMask`), canonical order, one shared frozen array per mask.
 */
import { describe, expect, it } from "vitest";
import { clearMemos } from "../src/memo.js";
import { buildGraph } from "../src/check/graph.js";
import { needListOf } from "../src/plan/need-list.js";
import { kindsOfMask } from "../src/plan/kinds.js";
import type { ContractSpec, UnitSpec } from "../src/schema/contract.js";

const C = 1; // content
const S = 2; // structure
const P = 4; // policy
const A = 8; // audience

const CASES: { name: string; needs: UnitSpec["needs"]; names: string[]; masks: number[] }[] = [
  { name: "no needs", needs: undefined, names: [], masks: [] },
  { name: "an empty needs", needs: {}, names: [], masks: [] },
  { name: "one kind", needs: { a: "structure" }, names: ["a"], masks: [S] },
  { name: "a list of kinds", needs: { a: ["policy", "content"] }, names: ["a"], masks: [C | P] },
  { name: "a kind listed twice", needs: { a: ["audience", "audience"] }, names: ["a"], masks: [A] },
  { name: "every kind", needs: { a: ["content", "structure", "policy", "audience"] }, names: ["a"], masks: [C | S | P | A] },
  {
    name: "a name that is no kind adds no bit",
    needs: { a: "contnet", b: ["contnet", "policy"], c: [] },
    names: ["a", "b", "c"],
    masks: [0, P, 0],
  },
  {
    name: "names in declaration order, integer-like ones first as Object.keys has them",
    needs: { b: "content", "10": "policy", a: "structure", "2": "audience" },
    names: ["2", "10", "b", "a"],
    masks: [A, P, C, S],
  },
];

describe("a unit's need list", () => {
  it.each(CASES)("$name", ({ needs, names, masks }) => {
    const list = needListOf(needs === undefined ? {} : { needs });
    expect(list.names).toEqual(names);
    expect(list.masks).toEqual(masks);
    expect(list.names).toEqual(Object.keys(needs ?? {}));
  });

  it("keeps a need named __proto__ as a name, with its kinds", () => {
    const needs = JSON.parse('{ "__proto__": "policy", "a": "content" }') as UnitSpec["needs"];
    expect(needListOf({ needs })).toEqual({ names: ["__proto__", "a"], masks: [P, C] });
  });

  it("is made once per needs object, and again for another object with the same needs", () => {
    const needs = { a: "content", b: ["structure"] };
    const first = needListOf({ needs });
    const unit: UnitSpec = { phase: "x", needs };
    expect(needListOf(unit)).toBe(first);
    expect(needListOf({ needs: { ...needs } })).not.toBe(first);
    expect(needListOf({ needs: { ...needs } })).toEqual(first);
    clearMemos();
    expect(needListOf({ needs })).not.toBe(first);
  });

  it("is what the graph holds for each unit, in the order of its units", () => {
    const contract = {
      units: { B: { needs: { A: "structure", in0: ["audience", "content"] } }, A: { needs: { in0: "policy" } }, C: {} },
    } as unknown as ContractSpec;
    const graph = buildGraph(contract);
    expect(graph.units).toEqual(["B", "A", "C"]);
    expect(graph.needs).toEqual([
      { names: ["A", "in0"], masks: [S, A | C] },
      { names: ["in0"], masks: [P] },
      { names: [], masks: [] },
    ]);
    expect(graph.upstream.get("B")).toEqual(["A"]);
  });
});

const MASKS: [number, string[]][] = [
  [0, []],
  [C, ["content"]],
  [S, ["structure"]],
  [P, ["policy"]],
  [A, ["audience"]],
  [A | C, ["content", "audience"]],
  [P | S, ["structure", "policy"]],
  [A | P | C, ["content", "policy", "audience"]],
  [C | S | P | A, ["content", "structure", "policy", "audience"]],
];

describe("the kinds a mask holds", () => {
  it.each(MASKS)("%i: %j", (mask, kinds) => {
    expect(kindsOfMask(mask)).toEqual(kinds);
    expect(kindsOfMask(mask)).toBe(kindsOfMask(mask));
    expect(Object.isFrozen(kindsOfMask(mask))).toBe(true);
  });

  it("are the kinds a need names, as the plan had them", () => {
    const needs = { a: ["audience", "content", "audience", "contnet"], b: "policy", c: "nope" };
    const { masks } = needListOf({ needs });
    expect(masks.map(kindsOfMask)).toEqual([["content", "audience"], ["policy"], []]);
  });
});
