/**
 * File-system side of the workspace scan: finds every *.task.yaml under a
 * folder and reads it, by the same rules as the CLI's directory walk
 * (@taskspec/compiler/node): only regular files, at most the size limit
 * plus one byte, never a FIFO or device that would block or flood the
 * server's only thread.
 */
import { CONFIG_FILE, createConfigLookup, findContracts, isContractPath, readContractText } from "@taskspec/compiler/node";
import { fileURLToPath, pathToFileURL } from "node:url";

export { CONFIG_FILE, createConfigLookup, isContractPath };

export function uriToPath(uri: string): string {
  return fileURLToPath(uri);
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

export async function* scanWorkspace(root: string): AsyncGenerator<{ path: string; text: string }> {
  for await (const path of findContracts(root)) {
    const text = await readContract(path);
    if (text !== undefined) yield { path, text };
  }
}

/** The file's text, or undefined when it cannot or must not be read (deleted, unreadable, not a regular file, too large). */
export async function readContract(path: string): Promise<string | undefined> {
  const read = await readContractText(path);
  return read.ok ? read.text : undefined;
}
