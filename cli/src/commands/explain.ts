/**
 * `taskspec explain C020`: prints the code's section of the diagnostics docs
 * shipped with the CLI (what it means, a bad and a fixed example), offline.
 */
import { readFileSync } from "node:fs";
import { DiagnosticCodes } from "@taskspec/compiler";
import type { Command } from "commander";
import { docsFile } from "../docs.js";
import { UserError } from "../user-error.js";

export function register(program: Command): void {
  program
    .command("explain")
    .description("Print the docs of a diagnostic code (e.g. C020): what it means, a bad and a fixed example.")
    .argument("<code>", "diagnostic code, e.g. C020")
    .action((code: string) => {
      process.stdout.write(explain(code.toUpperCase()));
    });
}

export function explain(code: string): string {
  if (!(code in DiagnosticCodes))
    throw new UserError(`unknown diagnostic code ${JSON.stringify(code)}: codes are ${Object.keys(DiagnosticCodes).join(", ")}`, 2);
  const section = sectionOf(readFileSync(docsFile(), "utf8"), code);
  if (section === undefined) throw new UserError(`${docsFile()} has no section for ${code}`, 70);
  return `${section.trimEnd()}\n`;
}

/** From the `## C020` heading to the next heading of the same level. */
export function sectionOf(page: string, code: string): string | undefined {
  const lines = page.split("\n");
  const start = lines.findIndex((l) => l.trim() === `## ${code}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}
