/// <reference lib="dom" />
/**
 * The console at the sizes a person meets, in light and dark: the demo's
 * ME-042 run (36 units, three interruptions) and a generated 300-unit run in
 * one store. Each page is checked for what made it read badly (a page wider
 * than the window, a graph or table that runs on below the fold) and
 * photographed for docs/images (console-*-36-*.png, console-*-300-*.png).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { runCli } from "../runtime-harness.js";
import { describeIfAvailable } from "../skip-loudly.js";
import { screenshotPath } from "../generated-docs.js";
import { generateLayeredContract, graphUnitId } from "../e2e-vscode/generate-graph.js";
import { marketEntryScenario } from "../../examples/src/demo/market-entry-scenario.js";
import { Report } from "../../examples/src/demo/report.js";
import { startUi, type Console } from "./console-server.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 900_000 });

const CHROMIUM = "/usr/bin/chromium";
const IMAGES = fileURLToPath(new URL("../../docs/images/", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "taskspec-console-scale-"));
const store = `sqlite:${join(work, "me-042", "store.db")}`;
const LAYERS = 30;
const WIDTH = 10;
const BIG = "L-300";
const RUNS = [
  { run: "ME-042", units: 36 },
  { run: BIG, units: LAYERS * WIDTH },
] as const;
const THEMES = ["light", "dark"] as const;
let ui: Console;
let browser: Browser;
let page: Page;

/** A 300-unit contract whose every unit writes its output and returns. */
function writeBigRun(): { contract: string; handlers: string } {
  const contract = join(work, "layered-300.task.yaml");
  writeFileSync(contract, generateLayeredContract(LAYERS, WIDTH));
  const ids: string[] = [];
  for (let l = 0; l < LAYERS; l++) for (let c = 0; c < WIDTH; c++) ids.push(graphUnitId(l, c));
  const handlers = join(work, "layered-300-handlers.mjs");
  writeFileSync(
    handlers,
    `const unit = (id) => async (ctx) => (await ctx.charge({ model_calls: 1 }), await ctx.write("out-" + id, { id }), { ok: true });
export default {
  units: { ${ids.map((id) => `${id}: unit(${JSON.stringify(id)})`).join(", ")} },
  tools: { fetch_page: { call: async () => ({ ok: true }) } },
};
`,
  );
  return { contract, handlers };
}

/** What reads badly, measured in the page: wider than the window, or a block taller than a screen. */
const layout = () =>
  page.evaluate(() => {
    const tall = (sel: string) => {
      const el = document.querySelector(sel);
      return el ? el.getBoundingClientRect().height : 0;
    };
    const plan = document.querySelector('[data-fig="planVersion"] .v');
    const page = document.querySelector("#graph svg g.graph > polygon");
    return {
      overflowX: document.documentElement.scrollWidth - window.innerWidth,
      graph: tall("#graph"),
      timeline: tall("#timeline"),
      units: tall("table#units"),
      viewport: window.innerHeight,
      // lines the plan version takes (an id broken over two lines reads as two)
      planLines: plan ? Math.round(plan.getBoundingClientRect().height / parseFloat(getComputedStyle(plan).lineHeight)) : 0,
      // Graphviz's white page behind the graph (a white block in the dark theme)
      graphPage: page ? getComputedStyle(page).fill : "",
    };
  });

describeIfAvailable(
  "the console at 36 and 300 units",
  existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM} (apt-get install chromium)`,
  () => {
    beforeAll(async () => {
      const report = new Report();
      await marketEntryScenario(work, report);
      expect(report.failures).toEqual([]);
      const big = writeBigRun();
      const ran = await runCli(["run", big.contract, "--handlers", big.handlers, "--run", BIG], {}, store);
      expect(ran.code, ran.stderr).toBe(0);
      ui = await startUi(store);
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
      page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    });
    afterAll(async () => {
      await browser?.close();
      await ui?.stop();
    });

    it.each(THEMES)("the runs list in %s", async (theme) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(ui.url);
      for (const { run } of RUNS) await page.locator(`#runs tr[data-run="${run}"]`).waitFor();
      expect((await layout()).overflowX).toBeLessThanOrEqual(0);
      await page.screenshot({ path: screenshotPath(join(IMAGES, `console-runs-${theme}.png`)) });
    });

    it.each(RUNS.flatMap((r) => THEMES.map((theme) => ({ ...r, theme }))))(
      "the run panel and takeover page of $run ($units units) in $theme",
      async ({ run, units, theme }) => {
        await page.emulateMedia({ colorScheme: theme });
        await page.goto(`${ui.url}#/run/${run}`);
        await page.waitForSelector("#graph svg g.node[data-state]");
        expect(await page.locator("#graph svg g.node[data-state]").count()).toBe(units);
        const panel = await layout();
        expect(panel.overflowX).toBeLessThanOrEqual(0);
        // the graph is a pane to pan and zoom in, not a picture that pushes the rest off screen
        expect(panel.graph).toBeLessThanOrEqual(panel.viewport * 0.7);
        expect(panel.timeline).toBeLessThanOrEqual(panel.viewport);
        expect(panel.planLines).toBe(1);
        expect(panel.graphPage).toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
        await page.screenshot({ path: screenshotPath(join(IMAGES, `console-run-panel-${units}-${theme}.png`)) });
        await page.goto(`${ui.url}#/run/${run}/takeover`);
        await page.waitForSelector("form[data-action]");
        const takeover = await layout();
        expect(takeover.overflowX).toBeLessThanOrEqual(0);
        // every unit is listed, in a box of its own rather than a page of 300 rows
        expect(await page.locator("table#units tr").count()).toBe(units + 1);
        expect(takeover.units).toBeLessThanOrEqual(takeover.viewport * 0.7);
        await page.screenshot({ path: screenshotPath(join(IMAGES, `console-takeover-${units}-${theme}.png`)) });
      },
    );
  },
);
