/**
 * Where a diagnostic's docs link goes in VS Code. The server links every code
 * to the diagnostics page bundled in out/ (a file: URL, which VS Code would
 * open as raw Markdown in a text editor, at the top). The client rewrites those
 * links: with `taskspec.docs.baseUrl` empty, to the command that opens the
 * code's section of the bundled page in a webview; with it set, to that base
 * plus the code's anchor, e.g. a team's own mirror. Pure, so testable without
 * VS Code.
 */

/** Opens the bundled docs of one code; its one argument is the code (e.g. "C020"). */
export const SHOW_DOCS_COMMAND = "taskspec.showDocs";

/**
 * The link VS Code should follow for `href`, a diagnostic's codeDescription.
 * Links that do not point into the bundled page (`bundledPage`, without
 * fragment) are left as the server sent them.
 */
export function docsLinkTarget(href: string, bundledPage: string, baseUrl: string): string {
  if (!href.startsWith(`${bundledPage}#`)) return href;
  const anchor = href.slice(bundledPage.length + 1);
  const base = baseUrl.trim();
  if (base !== "") return `${base.replace(/#.*$/, "")}#${anchor}`;
  return `command:${SHOW_DOCS_COMMAND}?${encodeURIComponent(JSON.stringify([anchor.toUpperCase()]))}`;
}

/**
 * A code's section of the diagnostics page: from its `## C020` heading to the
 * next heading of the same level, the same rule as `taskspec explain`
 * (cli/src/commands/explain.ts; the extension does not bundle the CLI).
 */
export function docsSection(page: string, code: string): string | undefined {
  const lines = page.split("\n");
  const start = lines.findIndex((l) => l.trim() === `## ${code}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines
    .slice(start, end < 0 ? undefined : end)
    .join("\n")
    .trimEnd();
}

/**
 * The docs webview's HTML: `body` is the section rendered by VS Code's own
 * Markdown renderer, or escaped source text when that is unavailable. No
 * scripts; styles only inline (the webview's theme variables apply).
 */
export function renderDocsHtml(code: string, body: string, cspSource: string): string {
  const csp = ["default-src 'none'", `img-src ${cspSource} data:`, `style-src ${cspSource} 'unsafe-inline'`].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { max-width: 52rem; line-height: 1.5; } pre { overflow-x: auto; padding: 0.5em; background: var(--vscode-textCodeBlock-background); }</style>
<title>Taskspec ${escapeText(code)}</title>
</head>
<body>
<main class="taskspec-docs" data-code="${escapeText(code)}">
${body}
</main>
</body>
</html>`;
}

export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
