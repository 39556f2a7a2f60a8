/**
 * The configuration (taskspec.config.yaml, found upward from each contract)
 * for the commands that check contracts. A broken configuration is a usage
 * error (exit 2) printed like a diagnostic, `file:line:col: error: message`,
 * because guessing what a team meant to turn off would be worse.
 */
import { createConfigLookup, type ConfigLookup } from "@taskspec/compiler/node";
import type { Rules } from "@taskspec/compiler";
import { relative } from "node:path";
import { UserError } from "../user-error.js";
import { visible } from "../render/visible.js";

export interface ContractPolicy {
  rules: Rules;
  ignored: boolean;
  /** The configuration file that decided, if any (for messages). */
  configPath: string | undefined;
}

export function configLookup(): (file: string) => ContractPolicy {
  const lookup: ConfigLookup = createConfigLookup();
  return (file) => {
    const found = lookup.policyFor(file);
    if (found.ok) return { rules: found.rules, ignored: found.ignored, configPath: found.configPath };
    const name = visible(relative(process.cwd(), found.configPath) || found.configPath);
    const lines = found.problems.map(
      (p) => `${name}:${p.range.start.line + 1}:${p.range.start.character + 1}: error: ${visible(p.message)}`,
    );
    throw new UserError(`invalid configuration\n${lines.join("\n")}`, 2);
  };
}
