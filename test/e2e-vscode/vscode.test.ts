/**
 * The extension in real VS Code (code-server 4.100.3 in headless Chromium):
 * the .vsix is built fresh, installed into a private code-server, and a
 * workspace with a broken contract is opened and edited through the UI.
 * Everything asserted is read from the workbench's DOM. Screenshots of each
 * state go to docs/images/ (shown in the README).
 *
 * code-server is installed once per machine by scripts/setup-code-server.sh;
 * only if that install is impossible here does this file skip, loudly.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installCodeServer, installExtension, startCodeServer, type RunningCodeServer } from "./code-server.js";
import { packageVsix } from "./package-vsix.js";
import {
  BROKEN_CONTRACT,
  GATE_RUN_ID,
  RUN_ID,
  RUN_STORE,
  YML_CONTRACT,
  prepareGateRun,
  prepareRunStore,
  prepareWorkspace,
} from "./workspace.js";
import { Workbench, TIMEOUT } from "./workbench.js";
import { screenshotPath } from "../generated-docs.js";
import { formatYaml } from "../../lsp/src/service/format-yaml.js";
import { generateLayeredContract, graphUnitId } from "./generate-graph.js";

const REPO = join(import.meta.dirname, "..", "..");
const IMAGES = join(REPO, "docs", "images");
const FAILURES = join(tmpdir(), "taskspec-e2e-vscode-failures");
const STATUS_ITEM = "taskspec.taskspec.taskspec.status";
const RUN_STATUS_ITEM = "taskspec.taskspec.taskspec.runStatus";
/**
 * How long a settings change may take to reach the lenses: the settings file
 * written and read again, the extension host told, then a code lens request
 * after VS Code's own debounce (the average time of the last few requests).
 * Tens of seconds on a loaded 2-core machine.
 */
const SETTING_TIMEOUT = 90_000;

const install = installCodeServer();
if ("unavailable" in install) {
  const bar = "!".repeat(78);
  console.error(
    `\n${bar}\n!! SKIPPING the VS Code end-to-end test: code-server cannot be installed here.\n${install.unavailable}\n${bar}\n`,
  );
}

/** 1-based line of the first line of the fixture equal to `text` (trimmed). */
function fixtureLine(text: string): number {
  const lines = readFileSync(join(import.meta.dirname, "fixtures", BROKEN_CONTRACT), "utf8").split("\n");
  const index = lines.findIndex((l) => l.trim() === text);
  if (index < 0) throw new Error(`fixture has no line "${text}"`);
  return index + 1;
}

/**
 * The impact view's legibility steps: generated contracts of 50 and 300 units
 * (ranks of `width`), each changed at `focus`. The 300-unit one is changed at a
 * unit of the first rank, on the graph's edge, which the pane must still centre.
 */
const GRAPH_SIZES = [
  { units: 50, layers: 10, width: 5, focus: graphUnitId(5, 2) },
  { units: 300, layers: 30, width: 10, focus: graphUnitId(0, 0) },
];
const graphFile = (units: number) => `layered-${units}.task.yaml`;
/** The smallest label, in screen px, that the initial view may draw (the editor's own text is 14 px). */
const MIN_LABEL_PX = 11;

/**
 * vitest's bound for one step. Each wait inside a step has its own, smaller
 * bound and says what it waited for; this one only has to stay above their sum
 * (under a heavy load one step outlasted vitest's default of a minute).
 */
const STEP_TIMEOUT = 5 * 60_000;

describe.skipIf("unavailable" in install)("the extension in VS Code (code-server + Chromium)", { timeout: STEP_TIMEOUT }, () => {
  let root: string;
  let workspace: string;
  let run: ReturnType<typeof prepareRunStore>;
  let gate: ReturnType<typeof prepareGateRun>;
  let server: RunningCodeServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let wb: Workbench;
  const extensionLog: string[] = [];
  /** The contract as saved in the workspace. */
  const contract = () => readFileSync(join(workspace, BROKEN_CONTRACT), "utf8");

  /** User settings: a quiet workbench (no welcome page over the editor) plus `extra`. */
  function writeSettings(extra: Record<string, unknown>): void {
    mkdirSync(join(root, "user-data", "User"), { recursive: true });
    writeFileSync(
      join(root, "user-data", "User", "settings.json"),
      JSON.stringify({
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.welcomePage.walkthroughs.openOnInstall": false,
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "update.mode": "none",
        // "Impact of Unsaved Changes" compares the buffer with the file on disk.
        "files.autoSave": "off",
        "remote.autoForwardPorts": false,
        "taskspec.runStatus.store": RUN_STORE,
        "taskspec.runStatus.run": RUN_ID,
        ...extra,
      }),
    );
  }

  beforeAll(async () => {
    if ("unavailable" in install) return;
    const vsix = packageVsix();
    root = mkdtempSync(join(tmpdir(), "taskspec-e2e-vscode-"));
    workspace = join(root, "workspace");
    prepareWorkspace(workspace);
    // Written before code-server starts: a file written later may stay missing from Quick Open's
    // file list for longer than a step waits (seen for the 300-unit one on a loaded machine).
    for (const { units, layers, width } of GRAPH_SIZES)
      writeFileSync(join(workspace, graphFile(units)), generateLayeredContract(layers, width));
    run = prepareRunStore(workspace);
    gate = prepareGateRun(workspace);
    writeSettings({});
    installExtension(install.bin, root, vsix);
    server = await startCodeServer(install.bin, root, workspace);
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    page.setDefaultTimeout(TIMEOUT);
    // The extension host's log reaches the page console; keep it for failure reports.
    page.on("console", (m) => extensionLog.push(m.text()));
    wb = new Workbench(page);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await wb.waitReady();
    mkdirSync(IMAGES, { recursive: true });
  }, 12 * 60_000);

  afterEach(async (context) => {
    // A failing step leaves a picture of the workbench for whoever reads the log.
    if (context.task.result?.state === "fail" && browser) {
      const file = join(FAILURES, `${context.task.name.replace(/[^a-z0-9]+/gi, "-")}.png`);
      mkdirSync(FAILURES, { recursive: true });
      await wb.screenshot(file).then(
        () => console.error(`screenshot of the failed step: ${file}`),
        () => undefined,
      );
      console.error(`workbench after the failed step: ${await wb.describeState().catch((e: Error) => e.message)}`);
      console.error(
        `extension host log:\n${extensionLog
          .filter((l) => /taskspec/i.test(l))
          .slice(-30)
          .join("\n")}`,
      );
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it("shows the broken contract's diagnostics with their codes in Problems", async () => {
    await wb.openFile(BROKEN_CONTRACT);
    const rows = await wb.problemsOf(BROKEN_CONTRACT, ["C010", "C070"]).catch((err: Error) => {
      throw new Error(`${err.message}\nextension host log:\n${extensionLog.filter((l) => /taskspec/i.test(l)).join("\n")}`);
    });
    expect(rows.find((r) => r.code === "C010")?.message).toContain("audiense");
    expect(rows.find((r) => r.code === "C070")?.message).toContain("contnet");
    // Selecting a problem reveals it in the editor, underlined.
    await page.locator(".markers-panel .monaco-list-row", { hasText: "C010" }).click();
    await page.locator(".squiggly-error").first().waitFor();
    await wb.statusText(STATUS_ITEM, /2\s.*0\s+no plan/);
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-problems.png")));
  });

  it("opens the code's section of the bundled docs from a problem's code link", async () => {
    // The link of the code column (VS Code draws codeDescription.href as a link there and in the hover).
    await page.locator(".markers-panel .monaco-list-row", { hasText: "C070" }).locator("a.monaco-link").click();
    const tab = page.locator(".tab.active", { hasText: "Taskspec: C070" });
    await tab.waitFor();
    // The section as the page bundled in the .vsix has it, rendered: heading, then its first words.
    await wb
      .webview("main.taskspec-docs h2")
      .filter({ hasText: /^C070$/ })
      .waitFor();
    expect(await wb.webview("main.taskspec-docs").textContent()).toContain("Unknown edge kind.");
    expect(await wb.webview("main.taskspec-docs h2").count()).toBe(1);
    await tab.locator(".tab-actions .action-label").click();
    await tab.waitFor({ state: "detached" });
  });

  it("shows the state of the configured run from its store", async () => {
    // Waits for the CLI's answer itself: on a loaded machine a read may fail
    // ("status unavailable") and the next poll, 15 s later, shows the state.
    const want = `${RUN_ID}: ${run.status} · ${run.counts.current}/${run.counts.units} current`;
    const text = await wb.statusText(RUN_STATUS_ITEM, new RegExp(want.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")), SETTING_TIMEOUT);
    expect(text).toContain(want);
  });

  it("repairs the unknown edge kind with the compiler's quick fix", async () => {
    await wb.hidePanel();
    await wb.selectText("draft: contnet");
    await wb.quickFix("Change to 'content'");
    const rows = await wb.problemsOf(BROKEN_CONTRACT, ["C010"]);
    expect(rows[0]?.message).toContain("audiense");
  });

  it("clears the rest once the fix is typed in the editor, and shows the plan hash", async () => {
    await wb.replaceByTyping("audiense: audience", "audience: audience");
    expect(await wb.problemsOf(BROKEN_CONTRACT, [])).toEqual([]);
    await wb.statusText(STATUS_ITEM, /0\s.*0\s+plan [0-9a-f]{8}/);
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-fixed.png")));
    await page.keyboard.press("Control+S");
    await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
  });

  it("writes the plan next to the contract with Compile Plan", async () => {
    const status = await wb.statusText(STATUS_ITEM, /plan [0-9a-f]{8}/);
    await wb.runCommand("Taskspec: Compile Plan");
    await wb.pick("Next to the contract");
    await wb.notification(/wrote plan [0-9a-f]{12} to newsletter\.plan\.json/);
    const plan = JSON.parse(readFileSync(join(workspace, "newsletter.plan.json"), "utf8")) as { planHash: string; units: { id: string }[] };
    expect(status).toContain(`plan ${plan.planHash.slice(0, 8)}`);
    expect(plan.units.map((u) => u.id).sort()).toEqual(["draft", "outline", "send", "subject"]);
  });

  it("highlights expressions and ${...} templates inside the YAML", async () => {
    await wb.selectText('key: "newsletter:');
    const key = 'key: "newsletter:${task.id}:v${task.version}"';
    // Without the injection grammar the whole quoted value is one string token.
    // Tokenizing runs in the background after edits: poll the rendered classes
    // until they differ (they never do without the grammar).
    const classesOf = (line: string, a: string, b: string) => async () => [await wb.tokenClass(line, a), await wb.tokenClass(line, b)];
    const differ = ([a, b]: string[]) => a !== b;
    await expect.poll(classesOf(key, "task", "newsletter"), { timeout: TIMEOUT }).toSatisfy(differ);
    const check = 'check: "count(result.sections) >= 3"';
    await expect.poll(classesOf(check, "count", "3"), { timeout: TIMEOUT }).toSatisfy(differ);
  });

  it("shows a unit's recovery summary on hover", async () => {
    await wb.selectText("send:");
    await page.keyboard.press("ArrowLeft"); // cursor on the unit name
    const text = await wb.hoverAtCursor("send_newsletter");
    expect(text).toContain("unit send");
    expect(text).toContain("send_newsletter (dedup)");
    expect(text).toContain("On UNKNOWN the effect is looked up by key with 'find_sent'; it is never called again blindly.");
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-hover.png")));
    await page.keyboard.press("Escape");
  });

  it("opens the impact view from a unit's code lens", async () => {
    await wb.hidePanel();
    await wb.selectText("outline:"); // the unit's key, first in the file
    // outline feeds draft and subject, and both feed send.
    await page.locator(".codelens-decoration a", { hasText: "impact: 3 units" }).waitFor();
    // The lens by keyboard: a mouse click can land in VS Code's window between
    // a new lens list and its resolve pass, where the old command is gone.
    await wb.runCommand("Show CodeLens Commands for Current Line");
    await wb.pick("impact: 3 units");
    await wb.webview(".summary").filter({ hasText: "outline (any kind): 3 units invalidated" }).waitFor();
    expect(await wb.webview("ol.invalidated .node-link").allTextContents()).toEqual(["draft", "subject", "send"]);
  });

  it("opens the impact view from Preview Invalidation Impact with the invalidated units", async () => {
    await wb.focusEditor(); // the command is offered while a contract's editor is active
    await wb.runCommand("Taskspec: Preview Invalidation Impact");
    await wb.pick("outline");
    await wb.pickMany("Which kinds of change at outline?", ["structure"]);
    await wb.webview(".summary").filter({ hasText: "outline (structure): 2 units invalidated" }).waitFor();
    // outline --structure--> draft --content--> send; subject needs outline only for content.
    expect(await wb.webview("ol.invalidated .node-link").allTextContents()).toEqual(["draft", "send"]);
    expect(await wb.webview("ol.invalidated .path").allTextContents()).toEqual([
      "outline --structure--> draft",
      "outline --structure--> draft --content--> send",
    ]);
    await wb.webview(".graph-canvas svg").waitFor();
    // The graph follows the theme (its pane is the editor's background, where it was a white block) and
    // draws labels at their own size; the zoom buttons scale it.
    const look = await wb.webview(".graph-canvas").evaluate((el) => ({
      pane: getComputedStyle(el).backgroundColor,
      page: getComputedStyle(document.body).backgroundColor,
      label: el.querySelector("g.node text")?.getBoundingClientRect().height ?? 0,
    }));
    expect(look.pane).toBe(look.page);
    expect(look.label).toBeGreaterThanOrEqual(11);
    await wb.webview('.graph-canvas[data-zoom="1"]').waitFor();
    await wb.webview('button[data-zoom="in"]').click();
    await wb.webview('.graph-canvas[data-zoom="1.25"]').waitFor();
    await wb.webview('button[data-zoom="reset"]').click();
    await wb.webview('.graph-canvas[data-zoom="1"]').waitFor();
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-impact.png")));

    // A unit in the list, or a node of the graph, reveals its definition in the contract.
    await wb.webview("ol.invalidated .node-link").first().click();
    await wb.statusText("status.editor.selection", new RegExp(`^Ln ${fixtureLine("draft:")}, Col `));
    await wb
      .webview(".graph-canvas g.node")
      .filter({ has: wb.webview("title").filter({ hasText: /^send$/ }) })
      .click();
    await wb.statusText("status.editor.selection", new RegExp(`^Ln ${fixtureLine("send:")}, Col `));
  });

  it("opens Problems from the status bar entry", async () => {
    await wb.focusEditor();
    await wb.hidePanel();
    await page.locator(`.statusbar-item[id="${STATUS_ITEM}"] a, .statusbar-item[id="${STATUS_ITEM}"]`).first().click();
    await page.locator(".markers-panel").waitFor();
  });

  it("hides the lenses with Taskspec: Toggle Code Lenses, and shows them again", async () => {
    // The contract's editor stays in front while the setting changes, so each
    // change of its lenses in the DOM is VS Code rendering a new list from the
    // extension. (Changed in the Settings editor, the contract's editor is
    // hidden meanwhile, which empties its lenses whatever the extension does,
    // and the Settings editor writes the value later, debounced: an "off"
    // check then passes before anything was written, and "on" races that write.)
    await wb.focusEditor();
    // Lenses scrolled out of view stay in the DOM, hidden: count them, visible or not.
    const lenses = page.locator(".editor-instance .codelens-decoration a", { hasText: "impact:" });
    const lensesAre = async (state: "attached" | "detached", when: string) =>
      lenses
        .first()
        .waitFor({ state, timeout: SETTING_TIMEOUT })
        .catch(async () => {
          const log = extensionLog
            .filter((l) => /taskspec/i.test(l))
            .slice(-10)
            .join("\n");
          throw new Error(`the lenses were not ${state} ${when}; ${await wb.describeState()}\nextension host log:\n${log}`);
        });
    await lensesAre("attached", "before the setting changed");
    await wb.runCommand("Taskspec: Toggle Code Lenses");
    await lensesAre("detached", "after the setting was turned off");
    await wb.runCommand("Taskspec: Toggle Code Lenses");
    await lensesAre("attached", "after the setting was turned on again");
  });

  it("shows what an unsaved edit would invalidate", async () => {
    await wb.focusEditor();
    await wb.replaceByTyping("needs: { outline: content }", "needs: { outline: structure }");
    await page.locator(".tab.active.dirty").waitFor();
    await wb.runCommand("Taskspec: Impact of Unsaved Changes");
    await wb.webview(".changes .node-link").filter({ hasText: "subject" }).waitFor();
    // subject's definition changed; send reads subject; outline and draft are upstream of it.
    expect(await wb.webview("ol.invalidated .node-link").allTextContents()).toContain("send");
    expect(await wb.webview(".kept .node-link").allTextContents()).toEqual(expect.arrayContaining(["outline", "draft"]));
  });

  it("completes a verifier's name from the server's suggestions", async () => {
    await wb.hidePanel();
    await wb.selectText("verify: [short_subject]");
    // the cursor after "short_s": the suggestions are filtered by what is typed
    await page.keyboard.press("ArrowRight");
    for (let i = 0; i < "ubject]".length; i++) await page.keyboard.press("ArrowLeft");
    for (let i = 0; i < "ubject".length; i++) await page.keyboard.press("Delete");
    await page.locator(".tab.active.dirty").waitFor();
    const offered = await wb.complete("short_subject", screenshotPath(join(IMAGES, "vscode-complete.png")));
    expect(offered).toContain("short_subject");
    await wb.save();
    expect(contract()).toContain("    verify: [short_subject]\n");
  });

  it("renames a unit everywhere it is named", async () => {
    await wb.selectText("  subject:");
    await page.keyboard.press("ArrowLeft");
    for (let i = 0; i < "  su".length; i++) await page.keyboard.press("ArrowRight");
    await wb.renameAtCursor("headline");
    // the rename's edit reaches the buffer after its box has closed: save once the editor shows it
    // (saved at once, the file could miss it: "\n  headline:\n" not found at load 10). The line's
    // text includes the unit's inlay hint (worst-case cost), so match the key alone.
    await page
      .locator(".editor-instance .view-lines .view-line")
      .filter({ hasText: /^\s*headline\b/ })
      .first()
      .waitFor();
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-rename.png")));
    await wb.save();
    const text = contract();
    expect(text).toContain("\n  headline:\n");
    expect(text).toContain("needs: { draft: content, headline: content }");
    expect(text).not.toMatch(/\bsubject:/);
    expect(await wb.problemsOf(BROKEN_CONTRACT, [])).toEqual([]);
  });

  it("formats the document with Format Document, as the server's formatting lays it out", async () => {
    await wb.hidePanel();
    // what the buffer holds is on disk (the steps before leave it saved; a late edit would not be)
    await wb.save();
    const saved = contract();
    const tidy = "fetch_notes: { class: read }";
    const messy = "fetch_notes:   {class: read}";
    expect(saved).toContain(`  ${tidy}\n`);
    await wb.replaceByTyping(tidy, messy);
    const line = (text: string) => page.locator(".editor-instance .view-lines .view-line").filter({ hasText: text }).first();
    await line(messy).waitFor();
    await page.locator(".tab.active.dirty").waitFor();
    // what the server's formatting makes of the buffer (lsp/src/service/format-yaml.ts, the client's 2-space indentation)
    const expected = formatYaml(saved.replace(tidy, messy), { indent: 2 });
    expect(expected).toBe(saved);
    await wb.runCommand("Format Document");
    // the editor shows the server's layout: the messy line is gone, the tidy one back
    await line(messy).waitFor({ state: "detached" });
    await line(tidy).waitFor();
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-format.png")));
    await wb.save();
    expect(contract()).toBe(expected);
  });

  it("counts every contract in the workspace with Check Workspace, .task.yml too", async () => {
    await wb.focusEditor();
    await wb.runCommand("Taskspec: Check Workspace");
    await wb.notification(/Taskspec: checked 6 contracts, \d+ errors?, \d+ warnings?/);
    // A .task.yml opens as a contract: the server checks it and the status bar shows its plan.
    await wb.openFile(YML_CONTRACT);
    await wb.statusText(STATUS_ITEM, /0\s.*0\s+plan [0-9a-f]{8}/);
  });

  it.each(GRAPH_SIZES)(
    "draws the impact graph of $units units legibly, centred on the change, and pans, zooms and fits it",
    async ({ units, focus }) => {
      const name = graphFile(units);
      await wb.hidePanel();
      await wb.openFile(name);
      await wb.statusText(STATUS_ITEM, /0\s.*0\s+plan [0-9a-f]{8}/);
      await wb.runCommand("Taskspec: Preview Invalidation Impact");
      await wb.pick(focus);
      await wb.pickMany(`Which kinds of change at ${focus}?`, ["content"]);
      await wb
        .webview(".summary")
        .filter({ hasText: `${focus} (content):` })
        .waitFor();
      const canvas = wb.webview(".graph-canvas");
      // The first view is drawn once the pane has a size; the focused node is marked then.
      await wb.webview(".graph-canvas g.node.focused").waitFor();
      const drawn = await wb.webview(".graph-canvas g.node > title").allTextContents();
      expect(drawn.filter((t) => /^L\d\dU\d\d$/.test(t.trim()))).toHaveLength(units);

      /** What the view shows, from the webview's DOM: all in the webview's CSS px. */
      const view = () =>
        canvas.evaluate((pane, id) => {
          const node = [...pane.querySelectorAll("g.node")].find((g) => g.querySelector("title")?.textContent?.trim() === id);
          const text = node?.querySelector("text");
          if (!node || !text) throw new Error(`no node ${id} in the graph`);
          const p = pane.getBoundingClientRect();
          const n = node.getBoundingClientRect();
          const svg = pane.querySelector("svg")!.getBoundingClientRect();
          return {
            zoom: pane.getAttribute("data-zoom"),
            // the label's font size times the scale from its user units to the screen
            labelPx: parseFloat(getComputedStyle(text).fontSize) * (text.getScreenCTM()?.a ?? 0),
            paneCentre: { x: p.left + pane.clientLeft + pane.clientWidth / 2, y: p.top + pane.clientTop + pane.clientHeight / 2 },
            nodeCentre: { x: n.left + n.width / 2, y: n.top + n.height / 2 },
            paneSize: { width: pane.clientWidth, height: pane.clientHeight },
            graphSize: { width: svg.width, height: svg.height },
            graphCentre: { x: svg.left + svg.width / 2, y: svg.top + svg.height / 2 },
            // the pane is on screen in the webview, not below lists the user must scroll past
            paneOnScreen: p.top >= 0 && p.top + pane.clientHeight / 2 <= window.innerHeight,
          };
        }, focus);
      const offCentre = (v: Awaited<ReturnType<typeof view>>) => ({
        x: Math.abs(v.nodeCentre.x - v.paneCentre.x),
        y: Math.abs(v.nodeCentre.y - v.paneCentre.y),
      });

      // Opens at actual size, labels as large as the editor's text, the changed node in the middle.
      const first = await view();
      expect(first.zoom).toBe("1");
      expect(first.labelPx).toBeGreaterThanOrEqual(MIN_LABEL_PX);
      expect(first.paneOnScreen).toBe(true);
      expect(offCentre(first).x).toBeLessThanOrEqual(1);
      expect(offCentre(first).y).toBeLessThanOrEqual(1);
      await wb.screenshot(screenshotPath(join(IMAGES, `vscode-impact-${units}.png`)));

      // Dragging pans: the node moves with the pointer (in page px; the webview is not scaled).
      const box = (await canvas.boundingBox())!;
      const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x - 120, from.y - 80, { steps: 6 });
      await page.mouse.up();
      const panned = await view();
      expect(Math.abs(panned.nodeCentre.x - first.nodeCentre.x + 120)).toBeLessThanOrEqual(1);
      expect(Math.abs(panned.nodeCentre.y - first.nodeCentre.y + 80)).toBeLessThanOrEqual(1);

      // "=" (or "+") zooms in about the middle of the pane: labels grow by the zoom step.
      await canvas.press("=");
      await wb.webview('.graph-canvas[data-zoom="1.25"]').waitFor();
      const zoomed = await view();
      expect(zoomed.labelPx / first.labelPx).toBeCloseTo(1.25, 2);

      // Fit shows the whole graph in the pane, centred.
      await wb.webview('button[data-zoom="fit"]').click();
      await expect.poll(async () => (await view()).zoom).not.toBe("1.25");
      const fitted = await view();
      expect(fitted.graphSize.width).toBeLessThanOrEqual(fitted.paneSize.width);
      expect(fitted.graphSize.height).toBeLessThanOrEqual(fitted.paneSize.height);
      expect(Math.abs(fitted.graphCentre.x - fitted.paneCentre.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(fitted.graphCentre.y - fitted.paneCentre.y)).toBeLessThanOrEqual(1);
    },
  );

  /** The CLI in the workspace, on the store the Runs view lists. */
  const taskspec = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(REPO, "cli", "bin", "taskspec.js"), ...args, "--store", RUN_STORE], {
      cwd: workspace,
      encoding: "utf8",
      timeout: 60_000,
    });
    if (r.status !== 0) throw new Error(`taskspec ${args.join(" ")} failed (exit ${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  /** A row of the Runs view by its label. */
  const runsRow = (label: string) =>
    page
      .locator(".part.sidebar .monaco-list-row")
      .filter({ has: page.locator(".label-name", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }) });
  const descriptionOf = async (label: string) => (await runsRow(label).locator(".label-description").textContent())?.trim();

  it("lists the store's runs in the Runs view, and a run's pending approval and units, as the CLI reports them", async () => {
    await wb.hidePanel();
    // the view's own icon in the activity bar (the palette's command list can lag the extension's on a loaded machine)
    await page.locator('.activitybar .action-item a[aria-label^="Taskspec"]').click();
    const runs = JSON.parse(taskspec("runs", "--format", "json")) as { run: string; status: string; task: string }[];
    expect(runs.map((r) => r.run).sort()).toEqual([GATE_RUN_ID, RUN_ID]);
    for (const r of runs) {
      await runsRow(r.run).waitFor({ timeout: SETTING_TIMEOUT });
      expect(await descriptionOf(r.run)).toMatch(new RegExp(`^${r.status} · .* · ${r.task}$`));
    }
    expect(await descriptionOf(GATE_RUN_ID)).toBe("blocked · 2/3 done · 1 blocked · gate");
    await runsRow(GATE_RUN_ID).click();
    await runsRow("Approve gate…").waitFor();
    const status = JSON.parse(taskspec("status", GATE_RUN_ID, "--format", "json")) as { units: { unit: string; state: string }[] };
    for (const u of status.units) expect(await descriptionOf(u.unit)).toBe(u.state);
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-runs.png")));
  });

  it("opens a unit's definition in the run's contract from the Runs view", async () => {
    await runsRow("b").click();
    await page.locator('.tab.active[data-resource-name="gate.task.yaml"]').waitFor();
    const line = readFileSync(gate.contract, "utf8").split("\n").indexOf("  b:") + 1;
    await wb.statusText("status.editor.selection", new RegExp(`^Ln ${line}, Col 3`));
  });

  it("shows the console's run panel in a webview with status's figures, no token in the page", async () => {
    await runsRow(GATE_RUN_ID).hover();
    await runsRow(GATE_RUN_ID).locator('.action-label[aria-label^="Open Run Panel"]').click();
    await page.locator(".tab.active", { hasText: `Run ${GATE_RUN_ID}` }).waitFor();
    await wb.webview("#graph svg g.node[data-state]").first().waitFor();
    const s = JSON.parse(taskspec("status", GATE_RUN_ID, "--format", "json"));
    const figure = (name: string) => wb.webview(`[data-fig="${name}"] .v`).textContent();
    expect(await figure("status")).toBe(s.status);
    expect(await figure("current")).toBe(`${s.counts.current} of ${s.counts.units}`);
    expect(await figure("checkpoint")).toBe(`v${s.checkpoint.version} (${s.checkpoint.kind})`);
    expect(await wb.webview("#next").textContent()).toContain(s.nextSafeAction);
    // The live stream reached the page through the extension host.
    await wb.webview("#live.on").waitFor();
    // The token stays in the extension host: not in the page's URL nor in any link it drew.
    const shown = await wb.webview("html").evaluate(() => ({
      token: new URLSearchParams(location.search).get("token"),
      links: [...document.querySelectorAll("[href], [src]")]
        .map((el) => el.getAttribute("href") ?? el.getAttribute("src") ?? "")
        .filter((u) => /[?&]token=[^&]/.test(u)),
    }));
    expect(shown).toEqual({ token: null, links: [] });
    await page.mouse.move(700, 800); // no tooltip over the picture
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-run-panel.png")));
  });

  it("approves the gate from the Runs view after the CLI's preview of what it sends; the panel shows it live", async () => {
    const preview = taskspec("approve", GATE_RUN_ID, "gate", "--dry-run");
    await runsRow("Approve gate…").click();
    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor();
    const lines = (text: string) =>
      text
        .replace(/expires \S+/g, "expires <t>")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
    // innerText: the dialog draws each line of the detail as its own block
    expect(lines(await dialog.locator(".dialog-message-detail").innerText())).toEqual(lines(preview));
    expect(preview).toContain('to: "team@example.org"');
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-approve.png")));
    await dialog.locator(".dialog-buttons .monaco-button", { hasText: /^Approve$/ }).click();
    await page.locator(".quick-input-widget .quick-input-box input").waitFor();
    await page.keyboard.type(gate.token);
    await page.keyboard.press("Enter");
    await wb.notification(new RegExp(`approved gate of ${GATE_RUN_ID}: `));
    const s = JSON.parse(taskspec("status", GATE_RUN_ID, "--format", "json"));
    expect(s.approvals.pending).toEqual([]);
    expect(s.approvals.granted).toHaveLength(1);
    await runsRow("Approve gate…").waitFor({ state: "detached" });
    // The run panel, still open, got the approval from its live stream.
    await page.locator(".tab", { hasText: `Run ${GATE_RUN_ID}` }).click();
    await wb.webview("#timeline .t-approval-granted").waitFor();
  });

  it("draws the Runs view and the run panel in the dark theme", async () => {
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+T");
    await page.locator(".quick-input-widget .quick-input-box input").waitFor();
    await page.keyboard.type("Dark Modern");
    await page.locator('.quick-input-list .monaco-list-row[aria-label*="Dark Modern"]').first().waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".monaco-workbench.vs-dark").waitFor({ timeout: SETTING_TIMEOUT });
    // the console's page follows VS Code's theme (the bridge sets its data-theme from the webview's body)
    await wb.webview('html[data-theme="dark"]').waitFor();
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-run-panel-dark.png")));
    await runsRow(GATE_RUN_ID).waitFor();
    await page.mouse.move(700, 800);
    await wb.screenshot(screenshotPath(join(IMAGES, "vscode-runs-dark.png")));
    await page.keyboard.press("Control+K");
    await page.keyboard.press("Control+T");
    await page.locator(".quick-input-widget .quick-input-box input").waitFor();
    await page.keyboard.type("Light Modern");
    await page.locator('.quick-input-list .monaco-list-row[aria-label*="Light Modern"]').first().waitFor();
    await page.keyboard.press("Enter");
    await page.locator(".monaco-workbench.vs-dark").waitFor({ state: "detached", timeout: SETTING_TIMEOUT });
    await wb.webview('html[data-theme="light"]').waitFor();
  });

  it("leaves no process behind when code-server is stopped", async () => {
    await browser?.close();
    browser = undefined;
    const running = server!;
    server = undefined;
    await running.stop();
    expect(running.survivors()).toEqual([]);
  });
});
