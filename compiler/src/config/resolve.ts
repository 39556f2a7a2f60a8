/**
 * What a configuration says about one contract: whether it is ignored, and
 * the rules that apply to it (the top-level `rules`, then every override whose
 * `files` match, in order, later ones winning). Paths are relative to the
 * configuration file's folder, with `/` separators.
 */
import type { Rules } from "../policy/apply.js";
import { globMatcher } from "./glob.js";
import type { Config } from "./parse-config.js";

export interface FilePolicy {
  ignored: boolean;
  rules: Rules;
}

export function policyFor(config: Config, relativePath: string): FilePolicy {
  const matches = (globs: string[]) => globs.some((g) => globMatcher(g)(relativePath));
  const rules: Rules = { ...config.rules };
  for (const o of config.overrides ?? []) if (matches(o.files)) Object.assign(rules, o.rules);
  return { ignored: matches(config.ignore ?? []), rules };
}
