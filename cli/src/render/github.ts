/**
 * `check --format github`: one GitHub Actions workflow command per diagnostic
 * (`::error file=…,line=…,col=…,endLine=…,endColumn=…,title=C020::message`),
 * which the runner turns into annotations on the lines. Positions 1-based.
 * Escaping follows the runner's rules (actions/toolkit command.ts).
 */
import { docsUrl } from "@taskspec/compiler";
import type { FileResult } from "./diagnostics.js";

const COMMAND = { error: "error", warning: "warning", info: "notice" } as const;

export function renderGithub(results: FileResult[]): string {
  let out = "";
  for (const r of results) {
    for (const d of r.diagnostics) {
      const { start, end } = d.range;
      const props = [
        `file=${escapeProperty(r.file)}`,
        `line=${start.line + 1}`,
        `col=${start.character + 1}`,
        `endLine=${end.line + 1}`,
        `endColumn=${end.character + 1}`,
        `title=${escapeProperty(`${d.code} ${d.severity}`)}`,
      ].join(",");
      out += `::${COMMAND[d.severity]} ${props}::${escapeData(`${d.message} (${docsUrl(d.code)})`)}\n`;
    }
  }
  return out;
}

function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
