/**
 * The diagnostics' docs links in VS Code: links into the bundled page open its
 * webview (a command link), or go to `taskspec.docs.baseUrl` when it is set;
 * the webview shows the code's section of the bundled page.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { docsLinkTarget, docsSection, renderDocsHtml, SHOW_DOCS_COMMAND } from "../src/docs/links.js";

const PAGE = "file:///home/u/.vscode/extensions/taskspec.taskspec-0.1.0/out/diagnostics.md";
const docs = readFileSync(new URL("../../docs/diagnostics.md", import.meta.url), "utf8");
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  contributes: { configuration: { properties: Record<string, { type: string; default: unknown }> }; commands: { command: string }[] };
};

describe("docs links", () => {
  it("open the bundled page's section through the extension's command when no base URL is set", () => {
    const target = docsLinkTarget(`${PAGE}#c020`, PAGE, "");
    expect(target).toBe(`command:${SHOW_DOCS_COMMAND}?${encodeURIComponent('["C020"]')}`);
    // What VS Code's command opener passes to the command: the query, decoded and parsed.
    const query = new URL(target).search.slice(1);
    expect(JSON.parse(decodeURIComponent(query))).toEqual(["C020"]);
    expect(docsLinkTarget(`${PAGE}#c020`, PAGE, "   ")).toBe(target);
  });

  it("go to the taskspec.docs.baseUrl setting plus the code's anchor when it is set", () => {
    expect(docsLinkTarget(`${PAGE}#c020`, PAGE, "https://docs.example/taskspec/diagnostics.html")).toBe(
      "https://docs.example/taskspec/diagnostics.html#c020",
    );
    // A base copied with an anchor of its own keeps only the code's.
    expect(docsLinkTarget(`${PAGE}#c080`, PAGE, " https://docs.example/d.md#c020 ")).toBe("https://docs.example/d.md#c080");
    const setting = manifest.contributes.configuration.properties["taskspec.docs.baseUrl"];
    expect(setting).toMatchObject({ type: "string", default: "" });
    expect(manifest.contributes.commands.map((c) => c.command)).toContain(SHOW_DOCS_COMMAND);
  });

  it("leave links into other pages as the server sent them", () => {
    expect(docsLinkTarget("https://mirror.example/diagnostics.md#c020", PAGE, "")).toBe("https://mirror.example/diagnostics.md#c020");
    expect(docsLinkTarget(`${PAGE}.bak#c020`, PAGE, "https://docs.example/d.md")).toBe(`${PAGE}.bak#c020`);
  });
});

describe("the docs webview", () => {
  it("shows a code's section of the page, from its heading to the next", () => {
    const section = docsSection(docs, "C020")!;
    expect(section.split("\n")[0]).toBe("## C020");
    expect(section).toContain("<!-- bad -->");
    expect(section).toContain("<!-- fixed -->");
    expect(section).not.toMatch(/\n## /);
    expect(docsSection(docs, "C999")).toBeUndefined();
  });

  it("runs no script and loads nothing remote", () => {
    const html = renderDocsHtml("C020", "<h2>C020</h2>", "vscode-webview://x");
    expect(html).toContain(`content="default-src 'none'; img-src vscode-webview://x data:; style-src vscode-webview://x 'unsafe-inline'"`);
    expect(html).not.toMatch(/<script|https?:/);
  });
});
