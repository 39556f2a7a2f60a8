/**
 * The run panel's timeline on a long log: `taskspec ui` answers it with a
 * window the store reads (the newest events, then older ones before a given
 * sequence number) and the log's size, never the whole log; the page pages
 * back through it with its "older events" button.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { request } from "node:http";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeIfAvailable } from "./skip-loudly.js";
import { SqliteStore } from "@taskspec/runtime";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";
import { startUi, type Console } from "./console/console-server.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const { dir, store } = tempRunDir("taskspec-console-timeline-");
const EXTRA = 3000;
let ui: Console;

function get(path: string): Promise<{ status: number; json: () => { events: { seq: number; type: string }[]; total: number } }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, ui.base), { headers: { "x-taskspec-token": ui.token } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, json: () => JSON.parse(body) }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  const ran = await runCli(
    ["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "T1"],
    LEGACY_FIXTURE_ENV,
    store,
  );
  expect(ran.code).toBe(0);
  // a long log: notes appended as a worker's progress events would be
  const s = new SqliteStore({ path: join(dir, "store.db") });
  await s.init();
  for (let i = 0; i < EXTRA; i += 500)
    await s.appendEvents(
      "T1",
      Array.from({ length: 500 }, (_, k) => ({ at: new Date().toISOString(), type: "note", data: { i: i + k } })),
    );
  await s.close();
  ui = await startUi(store);
});
afterAll(async () => ui?.stop());

it("answers the newest window and the log's size, then the window before it", async () => {
  const all = (await runCli(["events", "T1", "--format", "json"], {}, store)).stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { seq: number });
  const newest = (await get("/api/runs/T1/events?tail=200")).json();
  expect(newest.total).toBe(all.length);
  expect(newest.events.map((e) => e.seq)).toEqual(all.slice(-200).map((e) => e.seq));
  const older = (await get(`/api/runs/T1/events?tail=200&before=${newest.events[0]!.seq}`)).json();
  expect(older.events.map((e) => e.seq)).toEqual(all.slice(-400, -200).map((e) => e.seq));
  expect((await get("/api/runs/T1/events?tail=200&before=x")).status).toBe(400);
});

describeIfAvailable(
  "the timeline in Chromium",
  existsSync("/usr/bin/chromium") ? undefined : "no /usr/bin/chromium (apt-get install chromium)",
  () => {
    it("the page shows the newest 200 and pages back with older events", async () => {
      const browser = await chromium.launch({
        executablePath: "/usr/bin/chromium",
        headless: true,
        args: ["--no-sandbox", "--disable-gpu"],
      });
      try {
        const page = await browser.newPage();
        await page.goto(`${ui.url}#/run/T1`);
        const rows = page.locator("#timeline > div");
        await expect.poll(async () => (await rows.count()) || (await page.locator("main").textContent()), { timeout: 60_000 }).toBe(200);
        const total = (await get("/api/runs/T1/events?tail=1")).json().total;
        expect(await page.locator("#timeline").locator("xpath=..").locator("p.muted").textContent()).toBe(
          `newest first; ${total} events in the log, 200 shown`,
        );
        await page.locator("#older-events").click();
        await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(400);
        // newest first all the way down: the older window follows the first without a gap
        const seqs = await rows.evaluateAll((els) => els.map((el) => Number(el.getAttribute("data-seq"))));
        expect(seqs.every((s, i) => i === 0 || seqs[i - 1]! - s === 1)).toBe(true);
      } finally {
        await browser.close();
      }
    });
  },
);
