/**
 * Finds and reads contract files for `check`/`compile`: files as given,
 * directories searched recursively for `*.task.yaml` (skipping node_modules
 * and hidden folders). Unreadable paths become messages, not exceptions.
 * Overlapping arguments (`specs/ specs/invalid/`) read each file once, under
 * the name it was first reached by.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../user-error.js";

export interface ContractFile {
  file: string;
  text: string;
}

export interface ReadResult {
  files: ContractFile[];
  /** One message per path that could not be read. */
  problems: string[];
}

export function readContracts(paths: string[]): ReadResult {
  const result: ReadResult = { files: [], problems: [] };
  const seen = new Set<string>();
  const readOnce = (file: string) => {
    const real = realpathOf(file);
    if (seen.has(real)) return;
    seen.add(real);
    readOne(file, result);
  };
  for (const path of paths) {
    const stat = statOrProblem(path, result.problems);
    if (!stat) continue;
    if (stat.isDirectory()) {
      const found = findContracts(path, result.problems);
      if (found.length === 0) result.problems.push(`no *.task.yaml files under '${path}'`);
      for (const file of found) readOnce(file);
    } else readOnce(path);
  }
  return result;
}

/** The file's canonical path; one that cannot be resolved keeps its own name, so reading it reports why. */
function realpathOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** One contract file's text, for the commands that take a single file; unreadable is a UserError (exit 2). */
export function readContractFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(describeIoError(file, err), 2);
  }
}

function statOrProblem(path: string, problems: string[]): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch (err) {
    problems.push(describeIoError(path, err));
    return undefined;
  }
}

function findContracts(dir: string, problems: string[]): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    problems.push(describeIoError(dir, err));
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findContracts(path, problems));
    else if (entry.name.endsWith(".task.yaml")) out.push(path);
  }
  return out;
}

function readOne(file: string, result: ReadResult): void {
  try {
    result.files.push({ file, text: readFileSync(file, "utf8") });
  } catch (err) {
    result.problems.push(describeIoError(file, err));
  }
}

export function describeIoError(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return `cannot read '${path}': no such file or directory`;
    case "EACCES":
    case "EPERM":
      return `cannot read '${path}': permission denied`;
    case "EISDIR":
      return `cannot read '${path}': it is a directory`;
    default:
      return `cannot read '${path}': ${(err as Error).message}`;
  }
}
