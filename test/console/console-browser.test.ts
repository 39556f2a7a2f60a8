/**
 * The console in a real browser (headless Chromium via playwright-core),
 * one page session for the whole file, waiting on the page, never sleeping:
 * the runs list and the run panel show `status --format json`'s figures;
 * a flag made with the takeover page's buttons (preview, then confirm) is in
 * `status` and `events`; the panel updates by itself while a worker commits.
 * It takes the console's screenshots in docs/images.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, spawnCli, tempRunDir } from "../runtime-harness.js";
import { describeIfAvailable } from "../skip-loudly.js";
import { screenshotPath } from "../generated-docs.js";
import { startUi, type Console } from "./console-server.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const CHROMIUM = "/usr/bin/chromium";
const IMAGES = fileURLToPath(new URL("../../docs/images/", import.meta.url));
const { store } = tempRunDir("taskspec-console-browser-");
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { ...LEGACY_FIXTURE_ENV, ...env }, store);
const statusJson = async () => JSON.parse((await cli(["status", "B1", "--format", "json"])).stdout);
let ui: Console;
let browser: Browser;
let page: Page;

const figure = (name: string) => page.locator(`[data-fig="${name}"] .v`);

describeIfAvailable("the console in Chromium", existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM} (apt-get install chromium)`, () => {
  beforeAll(async () => {
    const crashed = await cli(
      ["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "B1"],
      { TASKSPEC_CRASH_AT: "after-commit-before-ack@a" },
    );
    expect(crashed.code).not.toBe(0);
    ui = await startUi(store);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
  });

  it("the runs list shows the run as status does; without the token the page is refused", async () => {
    const refused = await page.goto(`${ui.base}/`);
    expect(refused?.status()).toBe(401);
    await page.goto(ui.url);
    const row = page.locator('#runs tr[data-run="B1"]');
    await expect.poll(() => row.count()).toBe(1);
    const s = await statusJson();
    expect(await row.locator("[data-state]").textContent()).toBe(s.status);
    expect(await row.locator("td").nth(5).textContent()).toBe(`${s.counts.current}/${s.counts.units}`);
    await page.screenshot({ path: screenshotPath(join(IMAGES, "console-runs.png")) });
  });

  it("the run panel's figures are status --format json's; the graph colours each unit by its state", async () => {
    await page.goto(`${ui.url}#/run/B1`);
    await page.waitForSelector("#graph svg g.node[data-state]");
    const s = await statusJson();
    expect(await figure("status").textContent()).toBe(s.status);
    expect(await figure("current").textContent()).toBe(`${s.counts.current} of ${s.counts.units}`);
    expect(await figure("checkpoint").textContent()).toBe(`v${s.checkpoint.version} (${s.checkpoint.kind})`);
    expect(await figure("superseded").textContent()).toBe(String(s.counts.superseded));
    expect(await figure("orphan").textContent()).toBe(String(s.artifacts.orphan));
    expect(await figure("baselineCommits").textContent()).toBe(String(s.baselineCommits));
    expect(await page.locator("#next").textContent()).toContain(s.nextSafeAction);
    const painted = await page.$$eval("#graph g.node[data-state]", (gs) =>
      gs.map((g) => [g.querySelector("title")?.textContent, g.getAttribute("data-state")]),
    );
    expect(Object.fromEntries(painted)).toEqual(Object.fromEntries(s.units.map((u: { unit: string; state: string }) => [u.unit, u.state])));
    expect(await page.locator('[data-budget="model_calls"] td').nth(2).textContent()).toBe(
      `${s.budget.used.model_calls} / ${s.budget.caps.model_calls}`,
    );
    await page.screenshot({ path: screenshotPath(join(IMAGES, "console-run-panel.png")) });
  });

  it("a flag made with the takeover page's buttons shows its preview first, then is in status and events", async () => {
    await page.goto(`${ui.url}#/run/B1/takeover`);
    const form = page.locator('form[data-action="flag"]');
    await form.locator('input[name="reason"]').fill("the seed must be checked");
    await form.locator('button[type="submit"]').click();
    const preview = form.locator(".preview");
    await expect.poll(() => preview.textContent()).toContain("stops every worker from starting an attempt of run B1");
    expect((await statusJson()).blocked).toEqual([]); // a preview records nothing
    await page.screenshot({ path: screenshotPath(join(IMAGES, "console-takeover.png")), fullPage: true });
    await preview.locator("button.primary").click();
    await page.waitForSelector('form[data-action="unflag"]');
    const s = await statusJson();
    expect(s.blocked).toEqual([{ reason: "needs-expert", detail: expect.stringMatching(/: the seed must be checked$/) }]);
    const events = (await cli(["events", "B1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === "decision").map((e) => [e.data.action, e.data.reason])).toEqual([
      ["flag", "the seed must be checked"],
    ]);

    const unflag = page.locator('form[data-action="unflag"]');
    await unflag.locator('button[type="submit"]').click();
    await unflag.locator(".preview button.primary").click();
    await page.waitForSelector('form[data-action="flag"]');
    expect((await statusJson()).blocked).toEqual([]);
  });

  it("the run panel updates by itself while a worker commits", async () => {
    await page.goto(`${ui.url}#/run/B1`);
    await page.waitForSelector("#graph svg g.node[data-state]");
    expect(await figure("current").textContent()).toBe("1 of 3");
    const worker = spawnCli(["resume", "B1", "--store", store], { ...LEGACY_FIXTURE_ENV, TASKSPEC_TEST_DELAY_MS: "300" });
    // the timeline shows the run's end, and the figures and the graph follow, without a reload
    await page.waitForSelector('#timeline [class="t-run-done"]', { timeout: 120_000 });
    await page.locator('[data-fig="current"] .v', { hasText: /^3 of 3$/ }).waitFor({ timeout: 30_000 });
    expect((await worker.done).code).toBe(0);
    await expect.poll(() => page.locator('#graph g.node[data-state="succeeded"]').count(), { timeout: 30_000 }).toBe(3);
    const s = await statusJson();
    expect(await figure("status").textContent()).toBe(s.status);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: screenshotPath(join(IMAGES, "console-run-panel-dark.png")) });
  });

  it("'Why superseded' is shown only with causes; a branch made with its button previews first and opens the branch", async () => {
    await page.goto(`${ui.url}#/run/B1/takeover`);
    await page.waitForSelector('form[data-action="branch"]');
    expect(await page.locator("h2", { hasText: "Why superseded" }).count()).toBe(0); // nothing was superseded yet
    expect((await cli(["rerun", "B1", "a"])).code).toBe(0);
    await page.reload();
    await page.waitForSelector("#superseded li");
    const causes = await page.locator("#superseded li").allTextContents();
    expect(causes.length).toBe((await statusJson()).supersededUnits.length);
    for (const c of causes) expect(c).toMatch(/^[a-c] a\d+ \(plan \S+\): \S/);
    expect(causes.join("\n")).not.toContain("no cause was recorded");

    const form = page.locator('form[data-action="branch"]');
    await form.locator('input[name="reason"]').fill("try again from scratch");
    await form.locator('button[type="submit"]').click();
    const preview = form.locator(".preview");
    await expect.poll(() => preview.textContent()).toContain("preview: branch B1 as B1.b1");
    expect((await cli(["status", "B1.b1"])).stderr).toContain("no run B1.b1"); // a preview records nothing
    await preview.locator("button.primary").click();
    await page.waitForURL(/#\/run\/B1\.b1\/takeover$/);
    await page.waitForSelector('form[data-action="branch"]');
    const b = JSON.parse((await cli(["status", "B1.b1", "--format", "json"])).stdout);
    expect(b.status).toBe("resumable");
    const events = (await cli(["events", "B1.b1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === "decision").map((e) => [e.data.action, e.data.from, e.data.reason])).toEqual([
      ["branch", "B1", "try again from scratch"],
    ]);
  });
});
