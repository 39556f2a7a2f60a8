/**
 * The impact view's HTML: a pure function of the view model, so what a user
 * sees (and what the CSP allows) is testable without VS Code.
 *
 * Keyboard users get an ordered list of buttons, one per invalidated unit, with
 * its explanation path as text; Enter reveals the unit's definition. The SVG is
 * the server's (the CLI `graph` renderer) inlined so its nodes are clickable,
 * placed above the lists: a change at a unit in the middle of a 300-unit graph
 * lists ~150 units, and below them the graph opened out of sight.
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
${model.svg ? graphSection(model, model.svg) : ""}
${invalidatedSection(model)}
${nameListSection("added", "Added units", model.added)}
${nameListSection("removed", "Removed units", model.removed)}
${nameListSection("kept", "Kept units", model.kept)}
</main>
<script nonce="${res.nonce}" src="${escapeAttr(res.scriptUri)}"></script>
</body>
</html>`;
}

/**
 * The graph at its own size (labels as Graphviz set them, 11 pt, however many
 * units), in a pane that pans by dragging or scrolling and zooms with the
 * buttons, Ctrl+wheel or + / - / 0; it opens centred on the first changed node
 * (media/impact.js), "Fit" shows the whole graph.
 */
function graphSection(model: ImpactViewModel, svg: string): string {
  const focus = model.changes[0]?.node;
  const toolbar = [
    `<button type="button" data-zoom="out" aria-label="Zoom out" title="Zoom out (-)">−</button>`,
    `<button type="button" data-zoom="in" aria-label="Zoom in" title="Zoom in (+)">+</button>`,
    `<button type="button" data-zoom="reset" aria-label="Actual size" title="Actual size (0)">100%</button>`,
    `<button type="button" data-zoom="fit" aria-label="Fit the graph to the pane" title="Fit">Fit</button>`,
    `<span class="graph-zoom" aria-live="polite">100%</span>`,
  ].join("");
  const focusAttr = focus ? ` data-focus="${escapeAttr(focus)}"` : "";
  return `<section class="graph" aria-labelledby="graph-heading"><h2 id="graph-heading">Graph</h2><div class="graph-toolbar" role="toolbar" aria-label="Graph zoom">${toolbar}</div><div class="graph-canvas" tabindex="0" aria-label="Unit graph: drag or scroll to pan, + and - to zoom"${focusAttr}>${svgElement(svg)}</div></section>`;
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
  const more = (model.total ?? 0) - model.invalidated.length;
  const body = items
    ? `<ol class="invalidated">${items}</ol>${more > 0 ? `<p class="more">and ${more} more, not listed</p>` : ""}`
    : `<p>Nothing is invalidated.</p>`;
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
