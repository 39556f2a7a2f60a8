/**
 * The impact view's graph in every theme and at size: each fixed colour the
 * graph renderer writes (compiler/src/graph/styles.ts) is mapped to a VS Code
 * theme variable by extension/media/impact.css (so no white block in a dark
 * theme), high contrast outlines the nodes, and the SVG of a 50-unit contract
 * keeps 11 pt labels, which the view shows at 100% (it never shrinks the graph
 * to the pane; the user zooms).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile, toDot } from "../compiler/src/index.js";
import { NODE_STYLES } from "../compiler/src/graph/styles.js";
import { renderSvg } from "../compiler/src/graph/svg.js";
import { generateContract } from "../bench/lsp/generate-contract.mjs";

const REPO = join(import.meta.dirname, "..");
const css = readFileSync(join(REPO, "extension", "media", "impact.css"), "utf8");

/** The declarations of every rule whose selector list contains `selector`. */
function rulesFor(selector: string): string[] {
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)]
    .filter((m) => m[1]!.split(",").some((s) => s.trim().endsWith(selector)))
    .map((m) => m[2]!);
}

describe("impact view theme", () => {
  const colours: [attribute: "fill" | "stroke", value: string][] = [
    ["fill", NODE_STYLES.unit.fill],
    ["stroke", NODE_STYLES.unit.stroke],
    ["fill", NODE_STYLES.input.fill],
    ["stroke", NODE_STYLES.input.stroke],
    ["fill", NODE_STYLES.origin.fill],
    ["stroke", NODE_STYLES.origin.stroke],
    ["fill", NODE_STYLES.invalidated.fill],
    ["stroke", NODE_STYLES.invalidated.stroke],
    ["fill", NODE_STYLES.rule.color],
    ["stroke", NODE_STYLES.rule.color],
  ];

  it.each(colours)("maps %s %s to a theme variable", (attribute, value) => {
    const rules = rulesFor(`.graph-canvas [${attribute}="${value}"]`);
    expect(rules.length, `no rule for [${attribute}="${value}"]`).toBeGreaterThan(0);
    expect(rules.join(";")).toMatch(new RegExp(`${attribute}:\\s*var\\(--vscode-`));
  });

  it("draws the pane, the page and the labels in theme colours, and outlines nodes in high contrast", () => {
    expect(rulesFor(".graph-canvas").join(";")).toMatch(/background:\s*var\(--vscode-editor-background\)/);
    expect(css).not.toMatch(/background:\s*#/);
    expect(rulesFor(".graph-canvas text").join(";")).toMatch(/fill:\s*var\(--vscode-editor-foreground\)/);
    expect(rulesFor(".graph-canvas g.graph > polygon:first-of-type").join(";")).toMatch(/fill:\s*transparent/);
    expect(rulesFor("body.vscode-high-contrast .graph-canvas g.node > path").join(";")).toMatch(/stroke:\s*var\(--vscode-contrastBorder\)/);
  });

  it("never shrinks the graph to the pane", () => {
    expect(rulesFor(".graph-canvas svg").join(";")).not.toMatch(/max-width|width:\s*100%/);
  });
});

describe("impact view at 50 units", () => {
  it("the graph's labels are 11 pt and every colour in it is one the theme maps", async () => {
    const { plan, diagnostics } = compile(generateContract(50));
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const svg = await renderSvg(toDot(plan!));
    const sizes = [...svg.matchAll(/<text[^>]*font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(sizes.length).toBeGreaterThan(50);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
    const mapped = new Set(colours().map(([a, v]) => `${a}=${v}`));
    const used = [...svg.matchAll(/<(?:path|ellipse|polygon)[^>]*?\b(fill|stroke)="(#[0-9a-f]{6}|white)"/g)].map((m) => `${m[1]}=${m[2]}`);
    const kindColours = /#1f77b4|#2ca02c|#9467bd|#e6550d/;
    expect([...new Set(used)].filter((c) => !mapped.has(c) && !kindColours.test(c))).toEqual([]);
  }, 60_000);
});

/** Every `[attr="#hex"]` the stylesheet maps to a theme variable. */
function colours(): [string, string][] {
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)]
    .filter((m) => m[2]!.includes("var(--vscode-"))
    .flatMap((m) => [...m[1]!.matchAll(/\[(fill|stroke)="([^"]+)"\]/g)].map((a) => [a[1]!, a[2]!] as [string, string]));
}
