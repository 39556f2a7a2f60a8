/**
 * File-system side of the workspace scan: finds every *.task.yaml under a
 * folder (skipping dependency and build folders) and reads it.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SKIP = new Set(["node_modules", ".git", "dist", "out", ".taskspec", "coverage"]);
export const CONTRACT_SUFFIX = ".task.yaml";

export function uriToPath(uri: string): string {
  return fileURLToPath(uri);
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

export async function* scanWorkspace(root: string): AsyncGenerator<{ path: string; text: string }> {
  let entries;
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return; // an unreadable folder holds nothing we can check
  }
  for (const entry of entries) {
    const path = join(root, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) yield* scanWorkspace(path);
    else if (entry.isFile() && entry.name.endsWith(CONTRACT_SUFFIX)) {
      const text = await readContract(path);
      if (text !== undefined) yield { path, text };
    }
  }
}

/** The file's text, or undefined when it cannot be read (deleted, unreadable). */
export function readContract(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}
