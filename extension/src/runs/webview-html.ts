/**
 * The run panel's webview page: the console's own page, given the webview's
 * CSP and, before the page's script, a bridge script that gives the page a
 * `fetch` and an `EventSource` going through the extension host (which holds
 * the token and talks to the console), so the console's page runs unchanged
 * inside VS Code, in VS Code's theme.
 */
import { randomBytes } from "node:crypto";

const BRIDGE_SCRIPT = `"use strict";
(() => {
  const vscode = acquireVsCodeApi();
  let next = 0;
  const waiting = new Map();
  const sources = new Map();
  window.addEventListener("message", (e) => {
    const m = e.data || {};
    if (m.type === "response") {
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if (m.error) w.reject(new TypeError(m.error));
      else w.resolve(new Response(m.body, { status: m.status, headers: { "content-type": m.contentType } }));
    } else if (m.type === "stream") {
      const s = sources.get(m.id);
      if (s) s._receive(m);
    }
  });
  window.fetch = (path, init) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      vscode.postMessage({ type: "fetch", id, path: String(path), method: (init && init.method) || "GET", body: init && init.body });
    });
  class BridgedEventSource extends EventTarget {
    constructor(path) {
      super();
      this.id = ++next;
      this.path = String(path);
      this.lastEventId = "";
      this.readyState = 0;
      this.onopen = null;
      this.onerror = null;
      sources.set(this.id, this);
      this._open();
    }
    _open() {
      if (this.readyState === 2) return;
      vscode.postMessage({ type: "stream-open", id: this.id, path: this.path, lastEventId: this.lastEventId });
    }
    _receive(m) {
      if (this.readyState === 2) return;
      if (m.kind === "open") {
        this.readyState = 1;
        if (this.onopen) this.onopen(new Event("open"));
      } else if (m.kind === "event") {
        if (m.lastEventId) this.lastEventId = m.lastEventId;
        this.dispatchEvent(new MessageEvent(m.event, { data: m.data, lastEventId: this.lastEventId }));
      } else {
        this.readyState = 0;
        if (this.onerror) this.onerror(new Event("error"));
        setTimeout(() => this._open(), 2000);
      }
    }
    close() {
      this.readyState = 2;
      sources.delete(this.id);
      vscode.postMessage({ type: "stream-close", id: this.id });
    }
  }
  window.EventSource = BridgedEventSource;
  const start = document.body.getAttribute("data-start");
  if (start) history.replaceState(null, "", start);
  const theme = () => {
    const c = document.body.classList;
    document.documentElement.dataset.theme = c.contains("vscode-dark") || c.contains("vscode-high-contrast") ? "dark" : "light";
  };
  theme();
  new MutationObserver(theme).observe(document.body, { attributes: true, attributeFilter: ["class"] });
})();
`;

/** The console's page with the webview's own CSP and the bridge script in front of the page's script. */
export function webviewHtml(consolePage: string, start: string): string {
  const nonce = randomBytes(16).toString("base64");
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src data:;`;
  return (
    consolePage
      // the handoff downloads are the browser console's: a webview does not save files
      .replace(
        "<head>",
        `<head>\n<meta http-equiv="Content-Security-Policy" content="${csp}" />\n<style>a[download], .download { display: none; }</style>`,
      )
      .replace("<body>", `<body data-start="${start.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}">`)
      .replace(/<script nonce="[^"]*">/, `<script nonce="${nonce}">${BRIDGE_SCRIPT}</script>\n<script nonce="${nonce}">`)
  );
}
