/**
 * Driving the VS Code workbench the way a person does: keyboard shortcuts,
 * the quick open and command palette, the Problems panel, hovers, webviews.
 * Every step waits on a selector or a DOM condition, never on a fixed delay.
 */
import type { Page } from "playwright-core";

/**
 * The bound of one wait for a workbench state. It only ends a broken run: on
 * a heavily loaded 2-core machine a process start takes ten times its CPU
 * time in wall time, and the first diagnostics wait includes the extension's
 * activation and the server's start.
 */
export const TIMEOUT = 60_000;
/** How long one try of a keyboard step waits before it is retried. */
const RETRY_WAIT = 15_000;

export interface ProblemRow {
  file: string;
  message: string;
  /** The diagnostic code as the row shows it, e.g. "C010". */
  code: string | undefined;
}

export class Workbench {
  constructor(readonly page: Page) {}

  async waitReady(): Promise<void> {
    await this.page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    await this.page.locator(".explorer-folders-view .monaco-list-row").first().waitFor({ timeout: 60_000 });
  }

  /** Ctrl+P, type the file name, Enter; resolves when its editor tab is active. */
  async openFile(name: string): Promise<void> {
    await this.page.keyboard.press("Control+P");
    await this.quickInput().waitFor();
    await this.page.keyboard.type(name);
    await this.page.locator(`.quick-input-list .monaco-list-row[aria-label^="${name}"]`).first().waitFor();
    await this.page.keyboard.press("Enter");
    await this.page.locator(`.tab.active[data-resource-name="${name}"]`).waitFor();
    await this.page.locator(".editor-instance .monaco-editor .view-lines").first().waitFor();
  }

  /** Runs a command from the palette by its full title, e.g. "Taskspec: Compile Plan". */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press("Control+Shift+P");
    await this.quickInput().waitFor();
    await this.page.keyboard.type(title);
    await this.page.locator(`.quick-input-list .monaco-list-row[aria-label^="${title}"]`).first().waitFor();
    await this.page.keyboard.press("Enter");
  }

  /** Types into an open quick pick and accepts the row whose label is `label`. */
  async pick(label: string): Promise<void> {
    await this.quickInput().waitFor();
    await this.page.keyboard.type(label);
    await this.page.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}"]`).first().waitFor();
    await this.page.keyboard.press("Enter");
  }

  /**
   * In an open multi-select quick pick titled `title`: ticks the rows labelled
   * `labels`, waits until the widget's own count says so, then presses its OK
   * button. VS Code can re-render the list once more after it first shows it
   * (the items arrive from the extension host), which drops a tick made in
   * between: on a loaded machine the pick then stayed open with "0 Selected".
   * So the widget's state is read back, and a pick still open after OK is
   * ticked again from what it shows now; nothing was accepted while it is open.
   */
  async pickMany(title: string, labels: string[]): Promise<void> {
    const widget = this.page.locator(".quick-input-widget", { hasText: title });
    await widget.waitFor();
    for (let attempt = 1; ; attempt++) {
      for (const label of labels) {
        const row = widget.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}"]`).first();
        if ((await row.getAttribute("aria-checked")) !== "true")
          await row.locator("input[type=checkbox], .monaco-custom-toggle, .quick-input-list-checkbox").first().click();
      }
      const counted = await widget
        .locator(".quick-input-count", { hasText: `${labels.length} Selected` })
        .waitFor({ timeout: RETRY_WAIT })
        .then(
          () => true,
          () => false,
        );
      if (counted) {
        await widget.locator(".quick-input-action .monaco-button", { hasText: "OK" }).click();
        const closed = await widget.waitFor({ state: "hidden", timeout: RETRY_WAIT }).then(
          () => true,
          () => false,
        );
        if (closed) return;
      }
      if (attempt === 3) throw new Error(`the pick "${title}" never accepted ${JSON.stringify(labels)}; ${await this.describeState()}`);
    }
  }

  /**
   * Opens Problems (Ctrl+Shift+M) and waits until the rows of `file` show
   * exactly the codes `codes` (in any order; [] = no problems), then returns
   * the rows of that file.
   */
  async problemsOf(file: string, codes: string[]): Promise<ProblemRow[]> {
    await this.page.keyboard.press("Control+Shift+M");
    await this.page.locator(".markers-panel").waitFor();
    const want = [...codes].sort().join(",");
    await this.page
      .waitForFunction(
        ({ file, want, source }) => {
          const rows = (new Function(`return (${source})`)() as () => ProblemRow[])();
          return (
            rows
              .filter((r) => r.file === file)
              .map((r) => r.code ?? "?")
              .sort()
              .join(",") === want
          );
        },
        { file, want, source: readProblemRows.toString() },
        { timeout: TIMEOUT },
      )
      .catch(async () => {
        throw new Error(`Problems never showed [${want}] for ${file}; it shows ${JSON.stringify(await this.problemRows())}`);
      });
    return (await this.problemRows()).filter((r) => r.file === file);
  }

  /** The Problems rows in tree order, each marker row tagged with the file row above it. */
  async problemRows(): Promise<ProblemRow[]> {
    return this.page.evaluate(readProblemRows);
  }

  /** Ctrl+F for `text`, Escape (the match stays selected), then types `replacement` over it. */
  async replaceByTyping(text: string, replacement: string): Promise<void> {
    await this.selectText(text);
    await this.page.keyboard.type(replacement);
  }

  /** Selects the first match of `text` in the active editor, with focus back in the editor. */
  async selectText(text: string): Promise<void> {
    const find = this.page.locator(".editor-widget.find-widget.visible textarea, .editor-widget.find-widget.visible input").first();
    // A keystroke sent while the workbench is busy (a loaded CI machine) can be
    // dropped or land before focus settles: retry the shortcut, then report
    // where the focus was instead of a bare timeout.
    await this.retryKeys("Ctrl+F to open the find widget", async () => {
      // the cursor is about to move to the top anyway, so a click may take the focus if focusing did not
      await this.focusEditor().catch(() => this.clickIntoEditor());
      await this.page.keyboard.press("Control+Home");
      await this.page.keyboard.press("Control+F");
      await find.waitFor({ timeout: RETRY_WAIT });
    });
    await find.fill(text);
    await this.page.locator(".find-widget.visible .matchesCount", { hasNotText: "No results" }).waitFor();
    await this.page.keyboard.press("Escape");
    await this.page.locator(".editor-widget.find-widget.visible").waitFor({ state: "hidden" });
  }

  /**
   * Shows the hover at the cursor (Ctrl+K Ctrl+I) and waits for one containing
   * `text`; returns its text. Only the keystroke is retried, when no hover
   * opened at all: a hover that opened is waiting for the server, and pressing
   * again would replace it. The text is read in the same evaluation that finds
   * it, since VS Code may re-render or close the hover right after.
   */
  async hoverAtCursor(text: string): Promise<string> {
    const opened = this.page.locator(".monaco-hover:not(.hidden)").first();
    await this.retryKeys("Ctrl+K Ctrl+I to show a hover", async () => {
      await this.focusEditor();
      await this.page.keyboard.press("Control+K");
      await this.page.keyboard.press("Control+I");
      await opened.waitFor({ timeout: RETRY_WAIT });
    });
    const found = await this.page
      .waitForFunction(
        (text) =>
          [...document.querySelectorAll(".monaco-hover:not(.hidden) .hover-contents")]
            .map((e) => e.textContent ?? "")
            .find((t) => t.includes(text)),
        text,
        { timeout: TIMEOUT },
      )
      .catch(async () => {
        throw new Error(`no hover showed "${text}"; ${await this.describeState()}`);
      });
    return (await found.jsonValue()) ?? "";
  }

  /**
   * Opens the quick fix menu at the cursor (Ctrl+.) and applies the action
   * titled `title`. Only the keystroke is retried, when no menu opened.
   */
  async quickFix(title: string): Promise<void> {
    const menu = this.page.locator(".action-widget").first();
    await this.retryKeys("Ctrl+. to open the quick fix menu", async () => {
      await this.focusEditor();
      await this.page.keyboard.press("Control+.");
      await menu.waitFor({ timeout: RETRY_WAIT });
    });
    await this.focusRow(".action-widget .monaco-list-row", title);
    await this.page.keyboard.press("Enter");
    await menu.waitFor({ state: "hidden" });
  }

  /**
   * Asks for completions at the cursor (Ctrl+Space), waits for the item
   * labelled `label` and accepts it with Enter. Only the keystroke is
   * retried, when no suggest widget opened.
   */
  /** `shot`: a screenshot is taken there while the suggestions are open, `label` focused. */
  async complete(label: string, shot?: string): Promise<string> {
    const widget = this.page.locator(".suggest-widget.visible").first();
    await this.retryKeys("Ctrl+Space to open the suggestions", async () => {
      await this.focusEditor();
      await this.page.keyboard.press("Control+Space");
      await widget.waitFor({ timeout: RETRY_WAIT });
    });
    const row = this.page.locator(".suggest-widget.visible .monaco-list-row", {
      has: this.page.locator(".label-name", { hasText: new RegExp(`^${label}$`) }),
    });
    await row.first().waitFor();
    const labels = await this.page.locator(".suggest-widget.visible .monaco-list-row .label-name").allTextContents();
    await this.focusRow(".suggest-widget.visible .monaco-list-row", label);
    if (shot) await this.screenshot(shot);
    await this.page.keyboard.press("Enter");
    await widget.waitFor({ state: "hidden" });
    return labels.join(",");
  }

  /**
   * In a list that has the keyboard focus (a quick fix menu, the suggestions),
   * moves the focus down to the row containing `text`: each ArrowDown waits
   * until the focused row changed. A click could land while the list re-renders.
   */
  private async focusRow(rows: string, text: string): Promise<void> {
    await this.page.locator(rows, { hasText: text }).first().waitFor();
    const focusedText = () => this.page.evaluate((rows) => document.querySelector(`${rows}.focused`)?.textContent ?? "", rows);
    for (let moves = 0; !(await focusedText()).includes(text); moves++) {
      if (moves === 20) throw new Error(`the list never focused "${text}"; ${await this.describeState()}`);
      const before = await focusedText();
      await this.page.keyboard.press("ArrowDown");
      await this.page.waitForFunction(({ rows, before }) => (document.querySelector(`${rows}.focused`)?.textContent ?? "") !== before, {
        rows,
        before,
      });
    }
  }

  /** Renames the symbol at the cursor (F2) to `name` and waits for the rename box to close. */
  async renameAtCursor(name: string): Promise<void> {
    const box = this.page.locator(".rename-box input, .rename-box textarea").first();
    await this.retryKeys("F2 to rename", async () => {
      await this.focusEditor();
      await this.page.keyboard.press("F2");
      await box.waitFor({ timeout: RETRY_WAIT });
    });
    await box.fill(name);
    await this.page.keyboard.press("Enter");
    await this.page.locator(".rename-box").first().waitFor({ state: "hidden" });
  }

  /** Saves the active editor (Ctrl+S) and waits until its tab is no longer dirty. */
  async save(): Promise<void> {
    await this.focusEditor();
    await this.page.keyboard.press("Control+S");
    await this.page.locator(".tab.active.dirty").waitFor({ state: "detached" });
  }

  /** Focuses the active editor's input and waits until the editor says it has focus. */
  async focusEditor(): Promise<void> {
    await this.page
      .locator(".editor-instance .monaco-editor textarea.inputarea, .editor-instance .monaco-editor .native-edit-context")
      .first()
      .focus();
    await this.page.locator(".editor-instance .monaco-editor.focused").first().waitFor({ timeout: RETRY_WAIT });
  }

  /** Clicks the active editor's first line (moving its cursor there) and waits until the editor has focus. */
  private async clickIntoEditor(): Promise<void> {
    await this.page.locator(".editor-instance .monaco-editor .view-lines .view-line").first().click();
    await this.page.locator(".editor-instance .monaco-editor.focused").first().waitFor({ timeout: RETRY_WAIT });
  }

  /** Runs `step` up to three times; the last failure names what had focus and which toasts were up. */
  private async retryKeys(what: string, step: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await step();
        return;
      } catch (err) {
        if (attempt === 3)
          throw new Error(`${what} failed three times (${(err as Error).message.split("\n")[0]}); ${await this.describeState()}`);
        await this.page.keyboard.press("Escape");
      }
    }
  }

  /** Where the keyboard focus is and which notifications are showing, for failure messages. */
  async describeState(): Promise<string> {
    return this.page.evaluate(() => {
      const el = document.activeElement;
      const path: string[] = [];
      for (let n: Element | null = el; n && path.length < 6; n = n.parentElement) {
        path.push(
          `${n.tagName.toLowerCase()}${n.className && typeof n.className === "string" ? "." + n.className.trim().split(/\s+/).slice(0, 3).join(".") : ""}`,
        );
      }
      const toasts = [...document.querySelectorAll(".notifications-toasts .notification-list-item-message")].map((t) => t.textContent);
      return `focus on ${path.join(" < ") || "nothing"}; notifications: ${JSON.stringify(toasts)}`;
    });
  }

  /** The text of a status bar entry, once it matches `pattern` (within `timeout` ms). */
  async statusText(id: string, pattern: RegExp, timeout = TIMEOUT): Promise<string> {
    const item = this.page.locator(`.statusbar-item[id="${id}"]`);
    await item.waitFor();
    await this.page
      .waitForFunction(
        ({ id, source, flags }) => new RegExp(source, flags).test(document.getElementById(id)?.textContent ?? ""),
        { id, source: pattern.source, flags: pattern.flags },
        { timeout },
      )
      .catch(async () => {
        throw new Error(`status bar ${id} never matched ${pattern}; it shows "${await item.textContent()}"`);
      });
    return (await item.textContent()) ?? "";
  }

  /** Waits for a notification whose message matches `pattern`; returns its text. */
  async notification(pattern: RegExp): Promise<string> {
    const toast = this.page.locator(".notifications-toasts .notification-list-item-message").filter({ hasText: pattern }).first();
    await toast.waitFor();
    const text = (await toast.textContent()) ?? "";
    // Toasts take the next Escape; dismiss them so later keystrokes reach the editor.
    await this.page.keyboard.press("Escape");
    await this.page.locator(".notifications-toasts .notification-toast").first().waitFor({ state: "detached" });
    return text;
  }

  /**
   * The class list of the first rendered token containing `fragment` on the
   * editor line containing `line` (Monaco gives every distinct colour its own
   * `mtkN` class, so two fragments in one token, or in two tokens of the same
   * colour, get the same answer). The line must be on screen.
   */
  async tokenClass(line: string, fragment: string): Promise<string> {
    const row = this.page.locator(".editor-instance .view-lines .view-line").filter({ hasText: line }).first();
    await row.waitFor();
    const token = row.locator("span > span").filter({ hasText: fragment }).first();
    return (await token.getAttribute("class")) ?? "";
  }

  /** Hides the bottom panel (Problems) to give the editor and webviews the height. */
  async hidePanel(): Promise<void> {
    const panel = this.page.locator(".part.panel.bottom");
    if (await panel.isVisible()) {
      await this.focusEditor();
      await this.page.keyboard.press("Control+J");
      await panel.waitFor({ state: "hidden" });
    }
  }

  /** A locator inside the active webview panel's content frame. */
  webview(selector: string) {
    return this.page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame").locator(selector);
  }

  async screenshot(path: string): Promise<void> {
    // Finished animations: a hover or notification is captured fully faded in.
    await this.page.screenshot({ path, animations: "disabled" });
  }

  private quickInput() {
    return this.page.locator(".quick-input-widget .quick-input-box input");
  }
}

/**
 * Runs in the page: the Problems rows in tree order, each marker row tagged
 * with the file row above it (file rows say "N problems in file X of folder").
 */
function readProblemRows(): ProblemRow[] {
  const out: ProblemRow[] = [];
  let file = "";
  for (const el of document.querySelectorAll(".markers-panel .monaco-list-row")) {
    const label = el.getAttribute("aria-label") ?? "";
    const fileMatch = /problems? in file (\S+)/.exec(label);
    if (fileMatch) {
      file = fileMatch[1]!;
      continue;
    }
    const message = el.querySelector(".marker-message")?.textContent ?? label;
    const code = el.querySelector(".marker-code")?.textContent?.trim() || undefined;
    out.push({ file, message, code });
  }
  return out;
}
