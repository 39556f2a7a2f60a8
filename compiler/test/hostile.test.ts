/**
 * Hostile input gets a diagnostic, never a throw or a hang (vitest's timeout
 * would catch a hang; speed itself is measured in bench/, not asserted here).
 */
import { describe, expect, it } from "vitest";
import { compile, parseConfig } from "../src/index.js";
import { contract } from "./checks/helpers.js";

const codes = (text: string) => compile(text).diagnostics.map((d) => d.code);

describe("hostile input", () => {
  it("an alias bomb", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(", ")}]`,
      );
    expect(codes(`${levels.join("\n")}\n`)).toContain("C001");
  });

  it("an alias without its anchor is a C001, not an empty value", () => {
    expect(compile("a: &x 1\nb: *x\nc: *y\n").diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      "C001 alias '*y' refers to no anchor before it",
    ]);
  });

  it("a 5,000-character name is quoted clipped in every message that names it", () => {
    const name = "y".repeat(5000);
    const text = contract({
      tools: `  t1: { class: dedup, key: "k", lookup: ${name} }`,
      units: "  a: { produces: [out], uses: [t1], verify: [ok] }",
    });
    expect(compile(text).diagnostics.map((d) => d.message)).toEqual([`lookup '${"y".repeat(40)}…' of tool 't1' is not a declared tool`]);
  });

  it("thousands of lines inside an unclosed '[' (the YAML library's parser ran out of stack)", () => {
    expect(codes(`done: [a: 1\n${"  b: 1\n".repeat(3000)}`)).toEqual(["C001"]);
    expect(parseConfig(`rules: [a: 1\n${"  b: 1\n".repeat(3000)}`)).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining("ran out of stack") }],
    });
    expect(parseConfig("rules: *nope\n")).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining("Unresolved alias") }],
    });
  });

  it("flow nesting thousands deep", () => {
    expect(codes(`units: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`)).toEqual(["C001"]);
  });

  it("block nesting thousands deep", () => {
    const text = Array.from({ length: 5000 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n");
    expect(codes(text)).toContain("C001");
  });

  it("a 50 MB file", () => {
    const text = contract({ units: "  a:\n    produces: [out]\n    verify: [ok]" }) + `# ${"x".repeat(50 * 1024 * 1024)}\n`;
    expect(codes(text)).toEqual(["C001"]);
  });

  it("binary bytes", () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString("latin1");
    expect(codes(bytes)).toEqual(["C001"]);
  });

  it("an expression of 100k tokens", () => {
    const check = Array(50_000).fill("1").join(" + ");
    const text = contract({ units: `  a:\n    produces: [out]\n    verify: [{ check: "${check} > 0" }]` });
    expect(codes(text)).toEqual(["C060"]);
  });

  it("thousands of aliases to one anchor (no quadratic lookup)", () => {
    const units = Array.from({ length: 3000 }, (_, i) => `  u${i}: { produces: [a${i}], verify: *v }`).join("\n");
    const text = contract({ units: `  a:\n    produces: [out]\n    verify: &v [ok]\n${units}` });
    expect(codes(text).filter((c) => c !== "C080")).toEqual([]);
  });
});

describe("hostile keys", () => {
  it("flow maps nested as keys cost linear work (56 bytes used to throw 'Invalid string length')", () => {
    const started = Date.now();
    expect(codes(`${"{".repeat(51)}task:`)).toEqual(["C001"]);
    expect(codes(`${"[".repeat(40)}`)).toEqual(["C001"]);
    // every level a key of the next, closed properly: parses, and each key is named by a clipped rendering
    const keyed = `${"{".repeat(30)}a: 1${"}: 1".repeat(29)}}: 1\n`;
    const result = compile(keyed);
    expect(result.diagnostics.some((d) => /unknown key '\{\{\{.*…'/.test(d.message))).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("prototype names", () => {
  it("a lookup or compensator named like an Object.prototype member is undeclared, not Object's member", () => {
    const text = contract({
      tools:
        '  send: { class: dedup, key: "k:${run.id}", lookup: __proto__ }\n  other: { class: compensable, key: "k:${run.id}", compensate: { tool: constructor, with: {} } }',
      units: "  a: { produces: [out], uses: [send, other], verify: [ok] }",
    });
    const messages = compile(text)
      .diagnostics.filter((d) => d.code === "C031")
      .map((d) => d.message);
    expect(messages).toEqual([
      "lookup '__proto__' of tool 'send' is not a declared tool",
      "compensator 'constructor' of tool 'other' is not a declared tool",
    ]);
  });

  it("an input named `constructor` is an input in the plan, not a unit", () => {
    const text = contract({
      inputs: "  constructor: { kind: decision, value: x }",
      units: "  a: { produces: [out], needs: { constructor: content }, verify: [ok] }",
    });
    const { plan, diagnostics } = compile(text);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(plan!.units.find((u) => u.id === "a")!.needs).toEqual([expect.objectContaining({ node: "constructor", nodeType: "input" })]);
  });
});

describe("numbers the runtime cannot honour", () => {
  const unitWith = (extra: string) => contract({ units: `  a: { produces: [out], verify: [ok]${extra} }` });
  const errors = (text: string) =>
    compile(text)
      .diagnostics.filter((d) => d.severity === "error")
      .map((d) => `${d.code} ${d.message}`);

  it("a timeout past Node's timer range, or of zero, is refused", () => {
    expect(errors(unitWith(", timeout: 25d"))).toEqual([
      expect.stringMatching(/^C002 timeout of unit 'a' is 25d, longer than the runtime can time/),
    ]);
    expect(errors(unitWith(", timeout: 0s"))).toEqual([
      expect.stringMatching(/^C002 timeout of unit 'a' is 0s, which would mean no timeout/),
    ]);
    expect(errors(unitWith(", timeout: 24d"))).toEqual([]);
  });

  it("a loop bound of 1e308 is no bound; a plan never carries NaN or null figures", () => {
    expect(errors(unitWith(', loop: { max: 1e308, until: "result.ok" }'))).toEqual([
      expect.stringMatching(/^C021 loop max of unit 'a' is 1e\+308/),
    ]);
    const plan = compile(unitWith(', loop: { max: 1000000, until: "result.ok" }, cost: { tokens: 9007199254740991 }')).plan!;
    expect(JSON.stringify(plan)).not.toMatch(/null|NaN/);
  });

  it("a wall clock of 300 digits or of zero is refused (it used to become null in the plan)", () => {
    const text = (clock: string) =>
      contract({ budgets: `{ model_calls: 100, wall_clock: ${clock} }`, units: "  a: { produces: [out], verify: [ok] }" });
    expect(errors(text(`${"9".repeat(300)}d`))).toEqual([expect.stringMatching(/^C002 budgets.wall_clock is too large/)]);
    expect(errors(text("0m"))).toEqual([expect.stringMatching(/^C002 budgets.wall_clock is 0m/)]);
  });
});
