/**
 * Tests that produce documentation (docs/reliability.md, the VS Code
 * screenshots) update the tracked files only when what they show changed, so
 * running the suite does not leave the working tree dirty with a new timing
 * line or re-rendered pixels. TASKSPEC_UPDATE_DOCS=1 rewrites them anyway.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

const forced = process.env["TASKSPEC_UPDATE_DOCS"] === "1";

/** Writes `text` to `path` unless the file already says the same, lines matching `volatile` aside. */
export function writeDocIfChanged(path: string, text: string, volatile: RegExp): void {
  const strip = (s: string) =>
    s
      .split("\n")
      .filter((line) => !volatile.test(line))
      .join("\n");
  if (!forced && existsSync(path) && strip(readFileSync(path, "utf8")) === strip(text)) return;
  writeFileSync(path, text);
}

/** Where to save a screenshot: the tracked picture when it is missing (or forced), else a scratch file. */
export function screenshotPath(path: string): string {
  return forced || !existsSync(path) ? path : join(tmpdir(), `taskspec-${basename(path)}`);
}
