/**
 * Finds and reads contract files for `check`/`compile`: files as given,
 * directories searched recursively for `*.task.yaml` and `*.task.yml` by the
 * same rule as the language server's workspace scan, and glob patterns
 * (`'specs/**\/*.task.yaml'`, quoted so the shell leaves them to us; a name
 * that exists as a file is read as that file) expanded by the same walk
 * (@taskspec/compiler/node). Only regular
 * files are read, at most the size limit plus one byte (a FIFO or /dev/zero
 * is refused, not waited on or read forever). Unreadable paths become
 * messages, not exceptions.
 * `-` is standard input.
 * Overlapping arguments (`specs/ specs/invalid/`) read each file once, under
 * the name it was first reached by.
 */
import { isGlob } from "@taskspec/compiler";
import { expandGlobSync, findContractsSync, readContractTextSync, type ReadOutcome, type WalkProblem } from "@taskspec/compiler/node";
import { existsSync } from "node:fs";
import { readFileSync, realpathSync, statSync } from "node:fs";
import { UserError } from "../user-error.js";

export interface ContractFile {
  file: string;
  text: string;
  /** Named on the command line, or found in a folder: an ignored file found in a folder is skipped quietly. */
  named: boolean;
}

export interface ReadResult {
  files: ContractFile[];
  /** One message per path that could not be read. */
  problems: string[];
}

export function readContracts(paths: string[]): ReadResult {
  const result: ReadResult = { files: [], problems: [] };
  const seen = new Set<string>();
  const readOnce = (file: string, named: boolean) => {
    const real = realpathOf(file);
    if (seen.has(real)) return;
    seen.add(real);
    readOne(file, named, result);
  };
  for (const path of paths) {
    if (path === "-") {
      // standard input, read once, reported under the name "-" (`generate | taskspec check -`)
      if (!seen.has("-")) result.files.push({ file: "-", text: readFileSync(0, "utf8"), named: true });
      seen.add("-");
      continue;
    }
    if (isGlob(path) && !existsSync(path)) {
      const unlisted: WalkProblem[] = [];
      const found = expandGlobSync(path, unlisted);
      for (const { path: dir, error } of unlisted) result.problems.push(describeIoError(dir, error));
      if (found.length === 0) result.problems.push(`no files match '${path}'`);
      for (const file of found) readOnce(file, false);
      continue;
    }
    const stat = statOrProblem(path, result.problems);
    if (!stat) continue;
    if (stat.isDirectory()) {
      const unlisted: { path: string; error: unknown }[] = [];
      const found = findContractsSync(path, unlisted);
      for (const { path: dir, error } of unlisted) result.problems.push(describeIoError(dir, error));
      if (found.length === 0) result.problems.push(`no *.task.yaml or *.task.yml files under '${path}'`);
      for (const file of found) readOnce(file, false);
    } else readOnce(path, true);
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
  const read = readContractTextSync(file);
  if (!read.ok) throw new UserError(describeRefusal(file, read), 2);
  return read.text;
}

function statOrProblem(path: string, problems: string[]): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch (err) {
    problems.push(describeIoError(path, err));
    return undefined;
  }
}

function readOne(file: string, named: boolean, result: ReadResult): void {
  const read = readContractTextSync(file);
  if (read.ok) result.files.push({ file, text: read.text, named });
  else result.problems.push(describeRefusal(file, read));
}

function describeRefusal(file: string, refusal: Extract<ReadOutcome, { ok: false }>): string {
  return `cannot read '${file}': ${refusal.reason}`;
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
