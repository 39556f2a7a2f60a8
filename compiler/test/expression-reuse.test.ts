/**
 * Compiled expressions carry over between an editor's checks while a unit's
 * definition is unchanged (check/scopes.ts, check/expressions.ts): an edit to
 * a unit's needs, or to the inputs, must still change what its checks may name.
 */
import { describe, expect, it } from "vitest";
import { checkContract, type CheckResult } from "../src/index.js";
import { contract } from "./checks/helpers.js";

const units = (needs: string) =>
  [
    "  a:",
    "    produces: [x]",
    "    verify: [ok]",
    "  b:",
    `    needs: { ${needs} }`,
    "    produces: [out]",
    '    verify: [{ check: "a.done && inputs.brief.ok" }]',
    "  c:",
    "    needs: { b: content }",
    "    produces: [y]",
    "    verify: [ok]",
  ].join("\n");
const text = (needs: string, inputs = "  brief: { kind: external }") => contract({ units: units(needs), inputs });
const c060 = (r: CheckResult) => r.diagnostics.filter((d) => d.code === "C060").map((d) => d.message);

describe("expressions checked again after an edit", () => {
  it("follow the unit's needs and the inputs, as a fresh check does", () => {
    const versions = [
      text("a: content"),
      text("x: content"),
      text("a: content"),
      text("a: content", "  other: { kind: external }"),
      text("a: content"),
    ];
    let previous = checkContract(versions[0]!);
    expect(c060(previous)).toEqual([]);
    for (const version of versions.slice(1)) {
      const next = checkContract(version, previous.parsed.reusable ? { previous: previous.parsed.reusable } : {});
      expect(c060(next)).toEqual(c060(checkContract(version)));
      previous = next;
    }
    expect(c060(checkContract(versions[1]!)).join()).toContain("unknown name 'a'");
    expect(c060(checkContract(versions[3]!)).join()).toContain("brief");
  });
});
