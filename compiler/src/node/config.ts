/**
 * Finds the taskspec.config.yaml that governs a contract (the nearest one in
 * its folder or above, no merging across files) and reads it. Shared by the
 * CLI and the language server so both apply the same configuration. A lookup
 * remembers each folder's answer for its own lifetime: one CLI command, or
 * one language-server check until a configuration file changes.
 */
import { statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseConfig, type ConfigProblem } from "../config/parse-config.js";
import { policyFor, type FilePolicy } from "../config/resolve.js";
import { readContractTextSync } from "./read-contract.js";

export const CONFIG_FILE = "taskspec.config.yaml";

/** The policy for a contract: with the configuration file it came from, or the file's problems. */
export type PolicyLookup =
  ({ ok: true; configPath: string | undefined } & FilePolicy) | { ok: false; configPath: string; problems: ConfigProblem[] };

const NO_CONFIG: PolicyLookup = { ok: true, configPath: undefined, ignored: false, rules: {} };

export interface ConfigLookup {
  /** `file` is a contract path, or "-" (standard input: looked up from the working folder). */
  policyFor(file: string): PolicyLookup;
}

export function createConfigLookup(): ConfigLookup {
  const byFolder = new Map<string, string | undefined>();
  const byConfig = new Map<string, ReturnType<typeof parseConfig> | { ok: false; problems: ConfigProblem[] }>();

  const configIn = (folder: string): string | undefined => {
    if (byFolder.has(folder)) return byFolder.get(folder);
    const here = join(folder, CONFIG_FILE);
    const parent = dirname(folder);
    const found = statSync(here, { throwIfNoEntry: false })?.isFile() ? here : parent === folder ? undefined : configIn(parent);
    byFolder.set(folder, found);
    return found;
  };

  const load = (path: string) => {
    let loaded = byConfig.get(path);
    if (!loaded) {
      const read = readContractTextSync(path, 1024 * 1024);
      const nowhere = { start: 0, end: 0 };
      const zero = { line: 0, character: 0 };
      loaded = read.ok
        ? parseConfig(read.text)
        : { ok: false, problems: [{ message: `cannot read: ${read.reason}`, span: nowhere, range: { start: zero, end: zero } }] };
      byConfig.set(path, loaded);
    }
    return loaded;
  };

  return {
    policyFor(file) {
      const absolute = resolve(file === "-" ? "stdin.task.yaml" : file);
      const configPath = configIn(dirname(absolute));
      if (!configPath) return NO_CONFIG;
      const loaded = load(configPath);
      if (!loaded.ok) return { ok: false, configPath, problems: loaded.problems };
      const rel = relative(dirname(configPath), absolute).split(sep).join("/");
      return { ok: true, configPath, ...policyFor(loaded.config, file === "-" ? "-" : rel) };
    },
  };
}
