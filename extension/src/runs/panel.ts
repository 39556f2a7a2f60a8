/**
 * "Open Run Panel": the console's own page for a run (its run panel, unit
 * pages and takeover page) in a webview. The page comes from the console
 * server the extension started; its requests and live streams come back here
 * through the bridge script and go to the server with the token, which the
 * webview never sees.
 */
import * as vscode from "vscode";
import type { ConsoleProcess } from "./console-process.js";
import { webviewHtml } from "./webview-html.js";
import { sseParser } from "./sse.js";

type FromPage =
  | { type: "fetch"; id: number; path: string; method: string; body?: string }
  | { type: "stream-open"; id: number; path: string; lastEventId?: string }
  | { type: "stream-close"; id: number };

export async function openRunPanel(server: ConsoleProcess, run: string): Promise<vscode.WebviewPanel> {
  const page = await server.request("GET", "/");
  if (page.status !== 200) throw new Error(`the console answered ${page.status}: ${page.body.slice(0, 200)}`);
  const panel = vscode.window.createWebviewPanel("taskspec.runPanel", `Run ${run}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    retainContextWhenHidden: true,
    localResourceRoots: [],
  });
  const streams = new Map<number, () => void>();
  const post = (m: unknown) => void panel.webview.postMessage(m);
  panel.webview.onDidReceiveMessage(async (m: FromPage) => {
    if (m.type === "fetch") {
      if (m.method !== "GET" && m.method !== "POST") return post({ type: "response", id: m.id, error: `method ${m.method}` });
      try {
        post({ type: "response", id: m.id, ...(await server.request(m.method, m.path, m.body)) });
      } catch (err) {
        post({ type: "response", id: m.id, error: (err as Error).message });
      }
    } else if (m.type === "stream-open") {
      streams.get(m.id)?.();
      const parse = sseParser();
      const send = (kind: string, extra: object = {}) => post({ type: "stream", id: m.id, kind, ...extra });
      try {
        const close = await server.stream(
          m.path,
          (chunk) => {
            for (const e of parse(chunk)) send("event", { event: e.event, data: e.data, lastEventId: e.id });
          },
          () => send("error"),
          m.lastEventId ? { "last-event-id": m.lastEventId } : {},
        );
        streams.set(m.id, close);
        send("open");
      } catch {
        send("error");
      }
    } else if (m.type === "stream-close") {
      streams.get(m.id)?.();
      streams.delete(m.id);
    }
  });
  panel.onDidDispose(() => {
    for (const close of streams.values()) close();
    streams.clear();
  });
  panel.webview.html = webviewHtml(page.body, `#/run/${encodeURIComponent(run)}`);
  return panel;
}
