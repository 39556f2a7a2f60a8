/**
 * `secret` on inputs, tool arguments and result fields: carried into the
 * plan, and C037 where the contract itself would make the store keep a
 * secret in clear (a key, the plan) or need it back (a compensation).
 */
import { describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { contract, found } from "./helpers.js";

const user = (tool: string, extra = "") =>
  `  u:\n    needs: { pw: content }\n    uses: [${tool}]\n    produces: [out]\n    verify: [ok]${extra}`;
const inputs = "  pw: { kind: external, secret: true }\n  slug: { kind: decision, value: s }";

describe("secret values the store would keep (C037)", () => {
  it.each([
    // [tool definitions, expected [code, text under the span]]
    ['  t: { class: dedup, key: "mail:${inputs.pw}", lookup: find }\n  find: { class: read }', [["C037", "inputs.pw"]]],
    // an idempotent or read tool's key is stored too
    ['  t: { class: idempotent, key: "${run.id}/${inputs.pw}" }', [["C037", "inputs.pw"]]],
    ['  t: { class: idempotent, key: "${run.id}/${args.password}", args: { password: { secret: true } } }', [["C037", "args.password"]]],
    // not secret: no C037
    ['  t: { class: idempotent, key: "${run.id}/${args.name}/${inputs.slug}", args: { name: { safe: true } } }', []],
    [
      '  t:\n    class: compensable\n    lookup: find\n    result: { id: string, token: { type: string, secret: true } }\n    compensate: { tool: undo, with: { token: "${result.token}" } }\n  find: { class: read }\n  undo: { class: idempotent }',
      [["C037", "result.token"]],
    ],
    [
      '  t:\n    class: compensable\n    lookup: find\n    result: { id: string, token: { type: string, secret: true } }\n    compensate: { tool: undo, with: { id: "${result.id}" } }\n  find: { class: read }\n  undo: { class: idempotent }',
      [],
    ],
    [
      '  t:\n    class: compensable\n    lookup: find\n    result: { id: string }\n    compensate: { tool: undo, with: { id: "${result.id}", pw: "${inputs.pw}" } }\n  find: { class: read }\n  undo: { class: idempotent }',
      [["C037", "inputs.pw"]],
    ],
  ] as const)("%s", (tools, expected) => {
    const text = contract({ tools, inputs, units: user("t") });
    const diags = compile(text).diagnostics;
    expect(
      found(
        text,
        diags.filter((d) => d.code === "C037"),
      ),
    ).toEqual(expected);
    for (const d of diags.filter((x) => x.code === "C037")) expect(d.severity).toBe("error");
    expect(diags.filter((d) => !["C037", "C080"].includes(d.code))).toEqual([]);
  });

  it("a secret input with a value written in the contract", () => {
    const text = contract({
      inputs: "  pw: { kind: decision, secret: true, value: hunter2-PLANTED }",
      units: user("t"),
      tools: "  t: { class: read }",
    });
    const [d] = compile(text).diagnostics.filter((x) => x.code === "C037");
    expect(text.slice(d!.span.start, d!.span.end)).toBe("hunter2-PLANTED");
    expect(d!.message).toContain("input 'pw' is secret, but its value is written in the contract");
    expect(d!.related?.[0]?.message).toBe("input 'pw' is marked secret");
  });

  it("names the tool and what the key reads", () => {
    const text = contract({
      tools: '  t: { class: dedup, key: "mail:${inputs.pw}", lookup: find }\n  find: { class: read }',
      inputs,
      units: user("t"),
    });
    expect(compile(text).diagnostics.find((d) => d.code === "C037")!.message).toBe(
      "key of tool 't' reads secret input 'pw': the rendered key is stored in clear with the effect and shown in events, `status` and `handoff`; build the key from what names the intent (task, run, unit, an id)",
    );
  });
});

describe("secret and safe markings in the plan", () => {
  it("carries them, and result types in one form", () => {
    const tools =
      "  t:\n    class: idempotent\n    args: { api_key: { secret: true }, to: { safe: true }, both: { safe: true, secret: true }, body: {} }\n    result: { id: string, token: { type: string, secret: true }, n: { type: number } }";
    const { plan, diagnostics } = compile(contract({ tools, inputs, units: user("t") }));
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const t = plan!.tools.find((x) => x.name === "t")!;
    expect(t.result).toEqual({ id: "string", token: "string", n: "number" });
    expect(t.secretArgs).toEqual(["api_key", "both"]);
    // secret wins over safe
    expect(t.safeArgs).toEqual(["to"]);
    expect(t.secretResult).toEqual(["token"]);
    expect(plan!.inputs.find((i) => i.name === "pw")!.secret).toBe(true);
    expect(plan!.inputs.find((i) => i.name === "slug")!.secret).toBeUndefined();
  });

  it("marking a value secret or safe re-runs nothing (the hashes stay)", () => {
    const plain = compile(contract({ tools: "  t: { class: idempotent }", inputs: "  pw: { kind: external }", units: user("t") })).plan!;
    const marked = compile(
      contract({
        tools: "  t: { class: idempotent, args: { k: { secret: true } } }",
        inputs: "  pw: { kind: external, secret: true }",
        units: user("t"),
      }),
    ).plan!;
    expect(marked.units[0]!.definitionHash).toBe(plain.units[0]!.definitionHash);
    expect(marked.inputs[0]!.definitionHash).toBe(plain.inputs[0]!.definitionHash);
  });

  it("the compensation scope reads a declared field's type in either form", () => {
    const tools =
      '  t:\n    class: compensable\n    lookup: find\n    result: { id: { type: string } }\n    compensate: { tool: undo, with: { id: "${result.id}", x: "${result.nope}" } }\n  find: { class: read }\n  undo: { class: idempotent }';
    const text = contract({ tools, inputs, units: user("t") });
    expect(found(text).filter(([c]) => c === "C032")).toEqual([["C032", "result.nope"]]);
  });
});
