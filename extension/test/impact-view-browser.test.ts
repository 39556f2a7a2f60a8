/**
 * The impact view's script (media/impact.js) in headless Chromium, without
 * VS Code: the page renderImpactHtml writes, a Graphviz-shaped SVG of a grid
 * of nodes, and the facts measured from the DOM. What the real workbench
 * shows at 50 and 300 units is test/e2e-vscode's; this covers what that run
 * cannot cheaply vary: the size of the pane.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { renderImpactHtml } from "../src/impact/html.js";

const CHROMIUM = "/usr/bin/chromium";
const MEDIA = join(import.meta.dirname, "..", "media");

/** A `cols` x `rows` grid of boxes 100 x 40 pt, 40 pt apart, as Graphviz writes them (pt units, y up). */
function gridSvg(cols: number, rows: number): string {
  const width = cols * 140 + 40;
  const height = rows * 80 + 40;
  const nodes: string[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = 20 + c * 140;
      const y = -(height - 20 - r * 80);
      nodes.push(
        `<g class="node"><title>N${r}_${c}</title><polygon fill="white" stroke="#555555" points="${x},${y} ${x + 100},${y} ${x + 100},${y + 40} ${x},${y + 40} ${x},${y}"/><text text-anchor="middle" x="${x + 50}" y="${y + 24}" font-family="Helvetica" font-size="11.00">N${r}_${c}</text></g>`,
      );
    }
  }
  return `<svg width="${width}pt" height="${height}pt" viewBox="0.00 0.00 ${width}.00 ${height}.00" xmlns="http://www.w3.org/2000/svg"><g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(0 ${height})"><polygon fill="white" stroke="none" points="0,0 0,-${height} ${width},-${height} ${width},0 0,0"/>${nodes.join("")}</g></svg>`;
}

describe.skipIf(!existsSync(CHROMIUM))("the impact view's graph in a browser", () => {
  let dir: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "taskspec-impact-view-"));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the view of a 12 x 30 grid changed at `focus`, in a window of the given size. */
  async function open(focus: string, size: { width: number; height: number }): Promise<void> {
    const html = renderImpactHtml(
      {
        contractName: "grid.task.yaml",
        changes: [{ node: focus, kinds: "all" }],
        invalidated: [{ unit: "N1_0", path: `${focus} --content--> N1_0` }],
        svg: gridSvg(12, 30),
      },
      {
        cspSource: "file:",
        nonce: "n0nce",
        scriptUri: pathToFileURL(join(MEDIA, "impact.js")).href,
        styleUri: pathToFileURL(join(MEDIA, "impact.css")).href,
      },
    );
    const file = join(dir, `${focus}.html`);
    writeFileSync(file, html);
    page = await browser.newPage({ viewport: size });
    await page.addInitScript(() => {
      (globalThis as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({ postMessage: () => undefined });
    });
    await page.goto(pathToFileURL(file).href);
    await page.locator(".graph-canvas g.node.focused").waitFor();
  }

  /** How far the centre of `node`'s box is from the centre of the pane, in CSS px. */
  function offCentre(node: string) {
    return page.locator(".graph-canvas").evaluate((pane, id) => {
      const group = [...pane.querySelectorAll("g.node")].find((g) => g.querySelector("title")?.textContent === id)!;
      const p = pane.getBoundingClientRect();
      const n = group.getBoundingClientRect();
      return {
        x: Math.abs(n.left + n.width / 2 - (p.left + pane.clientLeft + pane.clientWidth / 2)),
        y: Math.abs(n.top + n.height / 2 - (p.top + pane.clientTop + pane.clientHeight / 2)),
      };
    }, node);
  }

  it("centres a changed node in the graph's corner, at actual size", async () => {
    await open("N0_0", { width: 700, height: 800 });
    expect(await page.locator(".graph-canvas").getAttribute("data-zoom")).toBe("1");
    const off = await offCentre("N0_0");
    expect(off.x).toBeLessThanOrEqual(1);
    expect(off.y).toBeLessThanOrEqual(1);
    await page.close();
  });

  it("keeps what is in the middle of the pane there when the pane is resized", async () => {
    await open("N15_6", { width: 700, height: 800 });
    expect((await offCentre("N15_6")).x).toBeLessThanOrEqual(1);
    // the pane is 70vh high and as wide as the page: both change
    await page.setViewportSize({ width: 1100, height: 600 });
    await expect.poll(async () => (await page.locator(".graph-canvas").evaluate((p) => p.clientWidth)) > 900).toBe(true);
    await expect.poll(async () => offCentre("N15_6")).toSatisfy((o: { x: number; y: number }) => o.x <= 1 && o.y <= 1);
    await page.close();
  });
});
