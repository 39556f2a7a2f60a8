/**
 * The pictures: golden DOT and Mermaid for the contract-v1 example, and the
 * DOT laid out by the real Graphviz (WebAssembly) build into SVG.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkContract, compile, impact, toDot, toMermaid } from "../../src/index.js";
import { renderSvg } from "../../src/graph/svg.js";
import { buildPlan } from "../impact/plan-builder.js";

const plan = buildPlan({
  inputs: { audience: {} },
  units: {
    S04: { phase: "synthesis" },
    A01: { phase: "assemble", needs: { S04: ["content", "structure"] } },
    A03: { phase: "assemble", needs: { S04: "content" } },
    F01: { phase: "final", needs: { A01: "content", A03: "content" } },
    U26: { phase: "risk", needs: { S04: "policy" } },
    U27: { phase: "risk", needs: { S04: "content", audience: "audience" } },
  },
  rules: [{ on: "audience", at: "U27", invalidate: ["U26"] }],
});
const structure = impact(plan, [{ origin: "S04", kinds: ["structure"] }]);
const audience = impact(plan, [{ origin: "audience", kinds: "all" }]);

describe("DOT export", () => {
  it("matches the golden files", async () => {
    await expect(toDot(plan)).toMatchFileSnapshot("golden/example.dot");
    await expect(toDot(plan, structure)).toMatchFileSnapshot("golden/example-s04-structure.dot");
    await expect(toDot(plan, audience)).toMatchFileSnapshot("golden/example-audience.dot");
  });

  it("draws one edge per declared kind, the explanation hops thick and the rest faded", () => {
    const dot = toDot(plan, structure);
    expect(dot).toMatch(
      /"S04" -> "A01" \[color="#2ca02c", style="dashed", arrowhead="empty", tooltip="S04 --structure--> A01", penwidth=3\]/,
    );
    expect(dot).toMatch(/"S04" -> "A01" \[color="#1f77b440", style="solid"/);
    expect(dot).toMatch(
      /"A01" -> "F01" \[color="#1f77b4", style="solid", arrowhead="normal", tooltip="A01 --content--> F01", penwidth=3\]/,
    );
    expect(dot).toMatch(/"F01" \[fillcolor="#fde0dc", color="#c62828", penwidth=2\]/);
    expect(dot).toMatch(/"S04" \[fillcolor="#fff1c1"/);
  });

  it("draws a fired rule as its own edge", () => {
    expect(toDot(plan, audience)).toMatch(/"U27" -> "U26" \[color="#c62828", style="dashed", penwidth=3, label="audience rule"/);
  });

  it("quotes names that DOT would misread", () => {
    const odd = buildPlan({ units: { 'a"b': {}, "c\\d": { needs: { 'a"b': "content" } } } });
    expect(toDot(odd)).toContain('"a\\"b" -> "c\\\\d"');
  });

  it("lays out through Graphviz into SVG with the clusters, nodes and highlights", async () => {
    const svg = await renderSvg(toDot(plan, structure));
    expect(svg).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\s*$/);
    for (const title of ["cluster_1", "S04", "F01", "S04&#45;&gt;A01"]) expect(svg).toContain(`<title>${title}</title>`);
    expect(svg).toMatch(/<title>F01<\/title>\s*<path fill="#fde0dc" stroke="#c62828"/);
  });
});

describe("Mermaid export", () => {
  it("matches the golden files", async () => {
    await expect(toMermaid(plan)).toMatchFileSnapshot("golden/example.mmd");
    await expect(toMermaid(plan, structure)).toMatchFileSnapshot("golden/example-s04-structure.mmd");
  });

  it("styles every link it draws, by index", () => {
    const text = toMermaid(plan, audience);
    const links = text.split("\n").filter((l) => / -->\|/.test(l)).length;
    const styles = text.split("\n").filter((l) => l.trimStart().startsWith("linkStyle "));
    expect(styles.map((l) => Number(l.trim().split(" ")[1]))).toEqual(Array.from({ length: links }, (_, i) => i));
  });

  it("marks invalidated units and origins by class", () => {
    const text = toMermaid(plan, structure);
    expect(text).toMatch(/class n\d+,n\d+ invalidated/);
    expect(text).toContain('"S04"');
  });
});

describe("dense graphs", () => {
  it("draws 150,000 edges as Mermaid (spreading one style per edge into push overflowed the stack)", () => {
    const inputs = Array.from({ length: 300 }, (_, i) => `  i${i}: { kind: decision, value: x }`).join("\n");
    const needs = Array.from({ length: 300 }, (_, i) => `i${i}: content`).join(", ");
    const units = Array.from({ length: 500 }, (_, u) => `  u${u}: { produces: [o${u}], needs: { ${needs} }, verify: [ok] }`).join("\n");
    const text = `contract: 1\ntask: { id: t, goal: g, outputs: [o0], done: [ok] }\nbudgets: { model_calls: 100000 }\ninputs:\n${inputs}\nverifiers:\n  ok: { kind: rule, check: "result.ok" }\nunits:\n${units}\n`;
    const plan = compile(text).plan!;
    const mermaid = toMermaid(plan);
    expect(mermaid.match(/^ {2}linkStyle /gm)?.length).toBeGreaterThanOrEqual(150_000);
  }, 120_000);
});

describe("a checked contract's graph view", () => {
  it("draws what the plan draws, without building the plan", () => {
    const text = readFileSync(new URL("../../../specs/market-entry-pack.task.yaml", import.meta.url), "utf8");
    const { plan } = compile(text);
    const view = checkContract(text).graphView!();
    expect(view).not.toHaveProperty("planHash");
    expect(view.task).toEqual({ id: plan!.task.id, version: plan!.task.version });
    const change = [{ origin: plan!.units[3]!.id, kinds: "all" as const }];
    expect(toDot(view)).toBe(toDot(plan!));
    expect(toDot(view, impact(view, change))).toBe(toDot(plan!, impact(plan!, change)));
    expect(toMermaid(view, impact(view, change))).toBe(toMermaid(plan!, impact(plan!, change)));
  });
});
