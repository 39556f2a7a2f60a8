/**
 * The impact view's HTML: a pure function of the view model, so what a user
 * sees (and what the CSP allows) is testable without VS Code.
 *
 * Keyboard users get an ordered list of buttons, one per invalidated unit, with
 * its explanation path as text; Enter reveals the unit's definition. The SVG is
 * the server's (the CLI `graph` renderer) inlined so its nodes are clickable.
 * The CSP allows only the extension's own stylesheet and the one nonce'd
 * script: no remote resources, no inline handlers.
 */
import { summary, describeChange, type ImpactViewModel } from "./view-model.js";

export interface HtmlResources {
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

export function renderImpactHtml(model: ImpactViewModel, res: HtmlResources): string {
  const csp = [
    "default-src 'none'",
    `img-src ${res.cspSource} data:`,
    `style-src ${res.cspSource}`,
    `script-src 'nonce-${res.nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escapeAttr(res.styleUri)}">
<title>Taskspec impact</title>
</head>
<body>
<main>
<h1>Impact in ${escapeText(model.contractName)}</h1>
<p class="summary" role="status">${escapeText(summary(model))}</p>
${model.note ? `<p class="note">${escapeText(model.note)}</p>` : ""}
${changesSection(model)}
${invalidatedSection(model)}
${nameListSection("added", "Added units", model.added)}
${nameListSection("removed", "Removed units", model.removed)}
${nameListSection("kept", "Kept units", model.kept)}
${model.svg ? `<section class="graph" aria-labelledby="graph-heading"><h2 id="graph-heading">Graph</h2><div class="graph-canvas">${svgElement(model.svg)}</div></section>` : ""}
</main>
<script nonce="${res.nonce}" src="${escapeAttr(res.scriptUri)}"></script>
</body>
</html>`;
}

/** The <svg> element of a standalone SVG file: its XML prolog and DOCTYPE mean nothing inside HTML. */
function svgElement(svg: string): string {
  const start = svg.indexOf("<svg");
  return start < 0 ? "" : svg.slice(start);
}

function changesSection(model: ImpactViewModel): string {
  if (model.changes.length === 0) return "";
  const items = model.changes.map((c) => `<li>${unitButton(c.node, describeChange(c))}</li>`).join("");
  return `<section aria-labelledby="changes-heading"><h2 id="changes-heading">Changes</h2><ul class="changes">${items}</ul></section>`;
}

function invalidatedSection(model: ImpactViewModel): string {
  const items = model.invalidated
    .map((u) => `<li>${unitButton(u.unit, u.unit)}${u.path ? ` <code class="path">${escapeText(u.path)}</code>` : ""}</li>`)
    .join("");
  const body = items ? `<ol class="invalidated">${items}</ol>` : `<p>Nothing is invalidated.</p>`;
  return `<section aria-labelledby="invalidated-heading"><h2 id="invalidated-heading">Invalidated units</h2>${body}</section>`;
}

function nameListSection(id: string, title: string, names: string[] | undefined): string {
  if (!names || names.length === 0) return "";
  const items = names.map((n) => `<li>${unitButton(n, n)}</li>`).join("");
  return `<section aria-labelledby="${id}-heading"><h2 id="${id}-heading">${title}</h2><ul class="${id}">${items}</ul></section>`;
}

function unitButton(node: string, label: string): string {
  return `<button type="button" class="node-link" data-node="${escapeAttr(node)}" title="Go to the definition of ${escapeAttr(node)}">${escapeText(label)}</button>`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
