/**
 * The console in Chromium on a PostgreSQL store while real `taskspec worker`
 * processes commit: the run panel's figures are `status --format json`'s,
 * the panel follows each commit over its live stream (no reload, no poll of
 * the page), and a flag made with the takeover page's buttons while a worker
 * is mid-run is in `status` and `events` as its preview said (a preview the
 * worker's commits made stale is shown afresh and confirmed again, as a
 * person would); the worker starts nothing while the run is flagged, a new
 * worker finishes it after the unflag. Needs TASKSPEC_PG_URL
 * (scripts/with-postgres.sh, as CI runs every suite) and Chromium; skips
 * loudly without them.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { runCli, spawnCli } from "../runtime-harness.js";
import { describeIfAvailable, postgresMissing } from "../skip-loudly.js";
import { startUi, type Console } from "./console-server.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const CHROMIUM = "/usr/bin/chromium";
const UNITS = 10;
const dir = mkdtempSync(join(tmpdir(), "taskspec-console-pg-"));
const store = `${process.env.TASKSPEC_PG_URL}?schema=console_${process.pid}_${Date.now()}`;
// each unit takes a while, so the page sees the run between commits and a decision lands mid-run
const env = { TASKSPEC_ISOLATION: "none", TASKSPEC_TEST_DELAY_MS: "1500" };
const cli = (args: string[]) => runCli(args, env, store);
const statusJson = async () => JSON.parse((await cli(["status", "P1", "--format", "json"])).stdout);
const worker = () => spawnCli(["worker", "--store", store, "--exit-when-idle", "--concurrency", "1"], env);
let ui: Console;
let browser: Browser;
let page: Page;
const figure = (name: string) => page.locator(`[data-fig="${name}"] .v`);

function contract(): string {
  const units = Array.from({ length: UNITS }, (_, i) => `  u${i}:\n    produces: [out-${i}]`);
  const outputs = Array.from({ length: UNITS }, (_, i) => `out-${i}`).join(", ");
  return `contract: 1\ntask:\n  id: live\n  version: 1\n  goal: units a worker commits one by one\n  outputs: [${outputs}]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\nbudgets:\n  model_calls: 100\n  tool_calls: 100\n  tokens: 1000\n  retries: 1\nunits:\n${units.join("\n")}\n`;
}
const HANDLERS = `const units = {};
for (let i = 0; i < ${UNITS}; i++) units["u" + i] = async (ctx) => {
  await new Promise((r) => setTimeout(r, Number(process.env.TASKSPEC_TEST_DELAY_MS)));
  await ctx.write("out-" + i, JSON.stringify({ i }));
  return { i };
};
export default { units, tools: {} };
`;

const missing = postgresMissing() ?? (existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM} (apt-get install chromium)`);

describeIfAvailable("the console in Chromium on PostgreSQL with live workers", missing, () => {
  beforeAll(async () => {
    writeFileSync(join(dir, "live.task.yaml"), contract());
    writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
    const submitted = await cli([
      "submit",
      join(dir, "live.task.yaml"),
      "--handlers",
      join(dir, "handlers.mjs"),
      "--run",
      "P1",
      "--artifacts",
      join(dir, "artifacts"),
    ]);
    expect(submitted.code, submitted.stderr).toBe(0);
    ui = await startUi(store);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
  });

  it("the run panel's figures are status's, and it follows a worker's commits over the live stream without a reload", async () => {
    await page.goto(`${ui.url}#/run/P1`);
    await page.waitForSelector("#graph svg g.node[data-state]");
    const s = await statusJson();
    expect(await figure("status").textContent()).toBe(s.status);
    expect(await figure("current").textContent()).toBe(`0 of ${UNITS}`);
    expect(await figure("checkpoint").textContent()).toBe(`v${s.checkpoint.version} (${s.checkpoint.kind})`);
    expect(await figure("rrb").textContent()).toBe(`${s.counts.ready} · ${s.counts.running} · ${s.counts.blocked}`);
    // a mark on this document: a reload or navigation would lose it
    await page.evaluate(() => ((window as unknown as { mark: number }).mark = 1));
    // when the page first showed each count, to report how long after its commit (a figure, not an assert)
    await page.evaluate(() => {
      const seen: Record<string, number> = ((window as unknown as { seen: Record<string, number> }).seen = {});
      new MutationObserver(() => {
        const t = document.querySelector('[data-fig="current"] .v')?.textContent;
        if (t && !(t in seen)) seen[t] = Date.now();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const streams: string[] = [];
    page.on("request", (r) => void (r.url().includes("/api/runs/P1/stream") && streams.push(r.url())));

    const w = worker();
    await page.locator('[data-fig="current"] .v', { hasText: new RegExp(`^2 of ${UNITS}$`) }).waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(1);
    expect(await page.locator("#live").textContent()).toContain("live");
    // the page's figure is a commit the store has: status says at least as much
    expect((await statusJson()).counts.current).toBeGreaterThanOrEqual(2);
    const seen = await page.evaluate(() => (window as unknown as { seen: Record<string, number> }).seen);
    const first = (await cli(["events", "P1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; at: string })
      .find((e) => e.type === "unit-succeeded");
    console.log(`console on PostgreSQL: the first commit showed on the page ${seen[`1 of ${UNITS}`]! - Date.parse(first!.at)} ms after it`);
    w.child.kill("SIGTERM");
    await w.done;
    expect(streams.length).toBeLessThanOrEqual(1); // the stream opened before the worker started stays the one
  });

  it("a flag made in the takeover page mid-run is in status and events as previewed; workers start nothing until the unflag", async () => {
    await page.goto(`${ui.url}#/run/P1/takeover`);
    const form = page.locator('form[data-action="flag"]');
    await form.waitFor();
    await form.locator('input[name="reason"]').fill("check the outputs so far");
    await form.locator('button[type="submit"]').click();
    const preview = form.locator(".preview");
    await page.waitForSelector('form[data-action="flag"] .preview, form[data-action="flag"] .error');
    expect(await form.textContent()).toContain("stops every worker from starting an attempt of run P1");
    // a worker commits after the preview was made: the confirm is refused, the page shows what changed and a fresh preview
    const before = (await statusJson()).counts.current as number;
    const w = worker();
    await expect.poll(async () => (await statusJson()).counts.current, { timeout: 120_000 }).toBeGreaterThan(before);
    await preview.locator("button.primary").click();
    await page.waitForSelector('form[data-action="flag"] .preview .error');
    expect(await preview.locator(".error").textContent()).toContain("refused: the run changed since its preview");
    // confirmed again, as a person would, until a preview is still current when it lands
    let confirmed = "";
    for (let round = 0; round < 20 && !confirmed; round++) {
      const shown = (await preview.textContent()) ?? "";
      await page.$$eval('form[data-action="flag"] .error', (els) => els.forEach((e) => e.setAttribute("data-seen", "")));
      await preview.locator("button.primary").click();
      await page.waitForSelector('form[data-action="flag"] .ok, form[data-action="flag"] .preview .error:not([data-seen])');
      if ((await page.locator('form[data-action="flag"] .ok').count()) === 1) confirmed = shown;
    }
    expect(confirmed).toContain("reason: check the outputs so far");
    const s = await statusJson();
    expect(s.blocked).toEqual([{ reason: "needs-expert", detail: expect.stringMatching(/: check the outputs so far$/) }]);
    // the worker finishes what it had in flight and starts nothing more: it leaves, no unit leased after the flag
    expect((await w.done).code).toBe(0);
    const events = (await cli(["events", "P1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { seq: number; type: string; data?: { action?: string; reason?: string } });
    const decisions = events.filter((e) => e.type === "decision");
    expect(decisions.map((e) => [e.data!.action, e.data!.reason])).toEqual([["flag", "check the outputs so far"]]);
    expect(confirmed).toContain("basis v");
    expect(events.filter((e) => e.type === "leased" && e.seq > decisions[0]!.seq)).toEqual([]);
    expect((await statusJson()).counts.running).toBe(0);

    expect((await cli(["unflag", "P1", "--reason", "outputs checked"])).code).toBe(0);
    const finisher = worker();
    expect((await finisher.done).code).toBe(0);
    await page.goto(`${ui.url}#/run/P1`);
    await page.locator('[data-fig="current"] .v', { hasText: new RegExp(`^${UNITS} of ${UNITS}$`) }).waitFor({ timeout: 60_000 });
    const done = await statusJson();
    expect(done.status).toBe("done");
    expect(await figure("status").textContent()).toBe(done.status);
    expect(await figure("checkpoint").textContent()).toBe(`v${done.checkpoint.version} (${done.checkpoint.kind})`);
  });
});
