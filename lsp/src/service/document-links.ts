/**
 * Document links for file references: a verifier's `schema:` path opens the
 * file, resolved against the contract's folder, as the runtime's schema
 * verifier resolves it (runtime/src/engine/verify.ts, relative to baseDir).
 */
import type { DocumentLink } from "vscode-languageserver";
import { isMap, isScalar } from "yaml";
import type { Analysis } from "./analysis.js";
import { rangeOf } from "./lsp-ranges.js";

export function documentLinks(analysis: Analysis): DocumentLink[] {
  if (!analysis.uri.startsWith("file:")) return [];
  const links: DocumentLink[] = [];
  for (const decl of analysis.parsed.model.verifiers.values()) {
    const map = decl.map;
    if (!isMap(map)) continue;
    for (const pair of map.items) {
      if (!isScalar(pair.key) || pair.key.value !== "schema" || !isScalar(pair.value) || typeof pair.value.value !== "string") continue;
      const range = pair.value.range;
      if (!range || pair.value.value.trim() === "") continue;
      // the scalar's range includes quotes when quoted: link the text inside them
      const quoted = pair.value.type === "QUOTE_DOUBLE" || pair.value.type === "QUOTE_SINGLE";
      const start = range[0] + (quoted ? 1 : 0);
      const end = range[1] - (quoted ? 1 : 0);
      links.push({
        range: rangeOf(analysis, { start, end }),
        target: new URL(pair.value.value, analysis.uri).href,
        tooltip: "Open the schema file",
      });
    }
  }
  return links;
}
