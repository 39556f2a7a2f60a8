/**
 * Reads the text an edit is compared with: the file as saved on disk, or the
 * version at git HEAD (`git show HEAD:<path>` from the file's repository).
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { promisify } from "node:util";

import type { Baseline } from "../service/impact-edit.js";

const run = promisify(execFile);

export async function readBaseline(path: string, against: "saved" | "head"): Promise<Baseline> {
  if (against === "saved") return { text: await readFile(path, "utf8") };
  const cwd = dirname(path);
  const top = (await run("git", ["rev-parse", "--show-toplevel"], { cwd })).stdout.trim();
  const inRepo = relative(top, path).split("\\").join("/");
  try {
    const shown = await run("git", ["show", `HEAD:${inRepo}`], { cwd: top, maxBuffer: 256 * 1024 * 1024 });
    return { text: shown.stdout };
  } catch {
    return { unavailable: `${inRepo} is not in git HEAD` };
  }
}
