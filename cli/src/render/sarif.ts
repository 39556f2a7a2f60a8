/**
 * `check --format sarif`: a SARIF 2.1.0 log (GitHub code scanning and other
 * CI viewers read it). One run; the rules are the diagnostics catalog, each
 * with its docs link; results carry related locations and fixes, and a result
 * accepted by an inline suppression carries `suppressions` (kind inSource,
 * the comment's reason as justification). Lines and
 * columns are 1-based; columns count UTF-16 code units, like the LSP ranges.
 */
import { DiagnosticCodes, docsUrl, type Diagnostic, type DiagnosticCode, type Range } from "@taskspec/compiler";
import type { FileResult } from "./diagnostics.js";

const LEVEL = { error: "error", warning: "warning", info: "note" } as const;

/** `docsBase`: the page every rule's link points into, also the tool's informationUri. */
export function renderSarif(results: FileResult[], options: { version: string; docsBase: string }): string {
  const codes = Object.keys(DiagnosticCodes) as DiagnosticCode[];
  const rules = codes.map((code) => ({
    id: code,
    shortDescription: { text: DiagnosticCodes[code].title },
    helpUri: docsUrl(code, options.docsBase),
    defaultConfiguration: { level: LEVEL[DiagnosticCodes[code].severity] },
  }));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: { name: "taskspec", version: options.version, informationUri: options.docsBase, rules },
        },
        columnKind: "utf16CodeUnits",
        results: results.flatMap((r) => [
          ...r.diagnostics.map((d) => result(r.file, d, codes.indexOf(d.code))),
          // accepted by a `# taskspec-ignore` comment: still a result, marked suppressed in source with its reason
          ...(r.suppressed ?? []).map((s) => ({
            ...result(r.file, s.diagnostic, codes.indexOf(s.diagnostic.code)),
            suppressions: [{ kind: "inSource", justification: s.reason }],
          })),
        ]),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function result(file: string, d: Diagnostic, ruleIndex: number) {
  const uri = file.split("\\").join("/");
  const location = (range: Range) => ({ physicalLocation: { artifactLocation: { uri }, region: region(range) } });
  return {
    ruleId: d.code,
    ruleIndex,
    level: LEVEL[d.severity],
    message: { text: d.message },
    locations: [location(d.range)],
    ...(d.related?.length
      ? { relatedLocations: d.related.map((rel, id) => ({ id, ...location(rel.range), message: { text: rel.message } })) }
      : {}),
    ...(d.fixes?.length
      ? {
          fixes: d.fixes.map((fix) => ({
            description: { text: fix.title },
            artifactChanges: [
              {
                artifactLocation: { uri },
                replacements: fix.edits.map((e) => ({ deletedRegion: region(e.range), insertedContent: { text: e.newText } })),
              },
            ],
          })),
        }
      : {}),
  };
}

function region(range: Range) {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}
