/**
 * Which directory entries a search for contracts visits, shared by the CLI's
 * directory walk (`taskspec check specs/`) and the language server's
 * workspace scan, so both find the same files.
 *
 * Rule: `*.task.yaml` and `*.task.yml` entries that are files or symbolic links (the reader
 * then refuses anything that is not a regular file underneath); folders are
 * entered unless hidden or a dependency/build folder; symbolic links to
 * folders are not followed (a link back up would loop forever).
 */
import type { Dirent } from "node:fs";
import { readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { globBase, globMatcher } from "../config/glob.js";

/** A contract's file name: `*.task.yaml`, or `*.task.yml` for those who spell YAML that way. */
export function isContractPath(path: string): boolean {
  return path.endsWith(".task.yaml") || path.endsWith(".task.yml");
}

const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "out", "coverage"]);

/** What a search does with one directory entry. */
export function classifyEntry(entry: Dirent): "enter" | "contract" | "skip" {
  if (entry.name.startsWith(".")) return "skip";
  if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? "skip" : "enter";
  if ((entry.isFile() || entry.isSymbolicLink() || entry.isFIFO()) && isContractPath(entry.name)) return "contract";
  return "skip";
}

/** A folder that could not be listed, and why (the error's code and message). */
export interface WalkProblem {
  path: string;
  error: unknown;
}

/** Contract paths under `root`, sorted by name at each level; unlistable folders go to `problems`. */
export function findContractsSync(root: string, problems: WalkProblem[]): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch (error) {
    problems.push({ path: root, error });
    return [];
  }
  const out: string[] = [];
  for (const entry of sortByName(entries)) {
    const path = join(root, entry.name);
    const kind = classifyEntry(entry);
    if (kind === "enter") out.push(...findContractsSync(path, problems));
    else if (kind === "contract") out.push(path);
  }
  return out;
}

/**
 * The files a glob names (`specs/**\/*.task.yaml`, see config/glob.ts), sorted
 * as the folder walk sorts them: the walk starts at the folder before the
 * first glob character and skips the same hidden and dependency folders.
 * Any file name the pattern matches is taken, contract-named or not.
 */
export function expandGlobSync(pattern: string, problems: WalkProblem[]): string[] {
  const posix = pattern.split(sep).join("/");
  const base = globBase(posix);
  const matches = globMatcher(posix.replace(/^\.\//, ""), { folders: false });
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      problems.push({ path: dir, error });
      return;
    }
    for (const entry of sortByName(entries)) {
      const path = join(dir, entry.name);
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory()) {
        if (classifyEntry(entry) === "enter") walk(path);
      } else if (matches(relative(".", path).split(sep).join("/")) || matches(path.split(sep).join("/"))) out.push(path);
    }
  };
  walk(base);
  return out;
}

/** The same search without blocking the event loop; an unlistable folder holds nothing. */
export async function* findContracts(root: string): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of sortByName(entries)) {
    const path = join(root, entry.name);
    const kind = classifyEntry(entry);
    if (kind === "enter") yield* findContracts(path);
    else if (kind === "contract") yield path;
  }
}

function sortByName(entries: Dirent[]): Dirent[] {
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
