/** References (C010, C011), artifacts (C012), cycles (C020), edge kinds (C070), dead work (C080). */
import { describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { applyFix, contract, found, only } from "./helpers.js";

const unit = (name: string, body: string) =>
  `  ${name}:\n${body
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}`;

describe("references (C010, C011)", () => {
  it.each([
    ["an unknown need", unit("a", "needs: { plna: content }\nproduces: [out]\nverify: [ok]"), "plna", "did you mean"],
    ["an unknown tool", unit("a", "uses: [fetch]\nproduces: [out]\nverify: [ok]"), "fetch", "unknown tool 'fetch'"],
    ["an unknown verifier", unit("a", "produces: [out]\nverify: [okk]"), "okk", "did you mean 'ok'?"],
  ])("reports %s at the name", (_name, units, at, message) => {
    const text = contract({ units: `${unit("plan", "produces: [p]\nverify: [ok]")}\n${units}` });
    const [d] = only(text, "C010");
    expect(text.slice(d!.span.start, d!.span.end)).toBe(at);
    expect(d!.message).toContain(message);
  });

  it("offers the did-you-mean as a fix that compiles clean", () => {
    const text = contract({
      units: `${unit("plan", "produces: [p]\nverify: [ok]")}\n${unit("a", "needs: { plna: content }\nproduces: [out]\nverify: [ok]")}`,
    });
    const [d] = only(text, "C010");
    expect(compile(applyFix(text, d!.fixes![0]!)).diagnostics).toEqual([]);
  });

  it("reports impact rules naming unknown units", () => {
    const text = contract({ units: unit("a", "produces: [out]\nverify: [ok]"), extra: "impact:\n  - { on: audience, invalidate: [b] }" });
    expect(found(text)).toEqual([["C010", "b"]]);
  });

  it("reports a name declared both as unit and input (C011) with the input as related", () => {
    const text = contract({ inputs: "  a: { kind: decision, value: x }", units: unit("a", "produces: [out]\nverify: [ok]") });
    const [d] = only(text, "C011");
    expect(text.slice(d!.span.start, d!.span.end)).toBe("a");
    expect(d!.related).toHaveLength(1);
  });
});

describe("artifacts (C012)", () => {
  it("reports the second producer, with the first as a related location", () => {
    const text = contract({ units: `${unit("a", "produces: [out]\nverify: [ok]")}\n${unit("b", "produces: [out]\nverify: [ok]")}` });
    const [d] = only(text, "C012");
    expect(d!.message).toContain("produced by both 'a' and 'b'");
    expect(d!.range.start.line).toBe(text.split("\n").findIndex((l) => l.startsWith("  b:")) + 1);
    expect(d!.related![0]!.range.start.line).toBe(text.split("\n").findIndex((l) => l.startsWith("  a:")) + 1);
  });

  it("reports a task output that no unit produces", () => {
    const text = contract({ units: unit("a", "produces: [ou]\nverify: [ok]") });
    expect(found(text)).toEqual([["C012", "out"]]);
  });
});

describe("cycles (C020)", () => {
  it("prints the cycle path and relates its other edges", () => {
    const text = contract({
      units: [
        unit("a", "needs: { c: content }\nverify: [ok]"),
        unit("b", "needs: { a: content }\nverify: [ok]"),
        unit("c", "needs: { b: content }\nproduces: [out]\nverify: [ok]"),
      ].join("\n"),
    });
    const cycles = only(text, "C020");
    expect(cycles).toHaveLength(1);
    expect(cycles[0]!.message).toContain("a -> b -> c -> a");
    expect(text.slice(cycles[0]!.span.start, cycles[0]!.span.end)).toBe("c");
    expect(cycles[0]!.related!.map((r) => r.message)).toEqual(["b needs a", "c needs b"]);
  });

  it("reports a self-loop and each separate cycle once, not the units behind them", () => {
    const text = contract({
      units: [
        unit("s", "needs: { s: content }\nverify: [ok]"),
        unit("x", "needs: { y: content }\nverify: [ok]"),
        unit("y", "needs: { x: content }\nverify: [ok]"),
        unit("after", "needs: { y: content, s: content }\nproduces: [out]\nverify: [ok]"),
      ].join("\n"),
    });
    expect(only(text, "C020").map((d) => d.message.split(";")[0])).toEqual(["dependency cycle: s -> s", "dependency cycle: x -> y -> x"]);
  });
});

describe("edge kinds (C070)", () => {
  it("reports each unknown kind in a list, with a did-you-mean fix", () => {
    const text = contract({
      units: `${unit("p", "produces: [p]\nverify: [ok]")}\n${unit("a", "needs: { p: [content, polcy, wat] }\nproduces: [out]\nverify: [ok]")}`,
    });
    const diags = only(text, "C070");
    expect(found(text, diags)).toEqual([
      ["C070", "polcy"],
      ["C070", "wat"],
    ]);
    expect(diags[0]!.fixes![0]!.edits[0]!.newText).toBe("policy");
  });

  it("reports an unknown 'on' kind of an impact rule", () => {
    const text = contract({ units: unit("a", "produces: [out]\nverify: [ok]"), extra: "impact:\n  - { on: tone, invalidate: [a] }" });
    expect(found(text)).toEqual([["C070", "tone"]]);
  });
});

describe("dead work (C080)", () => {
  it("warns about a unit nothing in task.outputs depends on", () => {
    const text = contract({ units: `${unit("a", "produces: [out]\nverify: [ok]")}\n${unit("stray", "produces: [x]\nverify: [ok]")}` });
    const [d] = compile(text).diagnostics;
    expect([d!.code, d!.severity, text.slice(d!.span.start, d!.span.end)]).toEqual(["C080", "warning", "stray"]);
  });

  it("counts units upstream of an output producer as live", () => {
    const text = contract({
      units: `${unit("up", "produces: [x]\nverify: [ok]")}\n${unit("a", "needs: { up: content }\nproduces: [out]\nverify: [ok]")}`,
    });
    expect(compile(text).diagnostics).toEqual([]);
  });

  it("stays quiet when an error already broke the graph", () => {
    const text = contract({
      units: `${unit("up", "produces: [x]\nverify: [ok]")}\n${unit("a", "needs: { uq: content }\nproduces: [out]\nverify: [ok]")}`,
    });
    expect(found(text).map(([c]) => c)).toEqual(["C010"]);
  });
});
