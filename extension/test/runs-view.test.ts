/**
 * The Runs view's pure parts: its rows from the CLI's JSON, where a unit is
 * defined in a contract, the console's live stream parsed into events, and
 * the run panel's page (the console's page with the webview's CSP and the
 * bridge in front of the page's script, no token anywhere).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runChildren, runRow } from "../src/runs/model.js";
import { unitLocation } from "../src/runs/unit-location.js";
import { sseParser } from "../src/runs/sse.js";
import { webviewHtml } from "../src/runs/webview-html.js";
import { approveCall } from "../src/runs/approve-call.js";

const REPO = join(import.meta.dirname, "..", "..");

describe("runs view rows", () => {
  it("a run reads as its state, units done, blocked and failed, and task", () => {
    const row = runRow({
      run: "ME-042",
      task: "market-entry",
      status: "blocked",
      planVersion: "abc@v1",
      units: { total: 36, succeeded: 30, failed: 1, blocked: 2 },
      lastProgressAt: "2026-12-07T10:00:00.000Z",
    });
    expect(row).toMatchObject({
      label: "ME-042",
      description: "blocked · 30/36 done · 2 blocked · 1 failed · market-entry",
      icon: "debug-pause",
      kind: "run",
    });
    expect(row.tooltip.split("\n")).toEqual([
      "Run ME-042 of market-entry: blocked",
      "Plan abc@v1",
      "Last progress 2026-12-07T10:00:00.000Z",
    ]);
  });

  it("a run's children: pending approvals first, then every unit in plan order", () => {
    const rows = runChildren({
      run: "G1",
      status: "blocked",
      units: [
        { unit: "a", state: "succeeded", attempts: 1 },
        { unit: "b", state: "failed", attempts: 3, reason: "verifier ok failed" },
        { unit: "gate", state: "blocked", attempts: 1, reason: "approval" },
      ],
      approvals: { pending: [{ unit: "gate", tokenExpiresAt: "2026-12-08T00:00:00.000Z" }] },
      nextSafeAction: "approve",
    });
    expect(rows.map((r) => [r.kind, r.label, r.description, r.icon])).toEqual([
      ["approval", "Approve gate…", "", "unlock"],
      ["unit", "a", "succeeded", "pass"],
      ["unit", "b", "failed · 3 attempts", "error"],
      ["unit", "gate", "blocked", "debug-pause"],
    ]);
    expect(rows[2]!.tooltip).toContain("verifier ok failed");
  });
});

describe("unit location", () => {
  const contract = [
    "contract: 1",
    "task: { id: t, version: 1 }",
    "units:",
    "  # the first step",
    "  outline:",
    "    produces: [o]",
    "    needs: { draft: content }",
    '  "quoted":',
    "    produces: [q]",
    "  draft: { produces: [d] }",
    "verifiers:",
    '  draft: { kind: rule, check: "true" }',
  ].join("\n");
  it.each([
    ["outline", { line: 4, column: 2 }],
    ["quoted", { line: 7, column: 3 }],
    ["draft", { line: 9, column: 2 }],
    ["produces", undefined],
    ["missing", undefined],
  ])("%s is at %j", (unit, where) => {
    expect(unitLocation(contract, unit)).toEqual(where);
  });

  it("finds a unit of an example contract", () => {
    const text = readFileSync(join(REPO, "runtime", "test", "fixtures", "gate.task.yaml"), "utf8");
    const where = unitLocation(text, "gate")!;
    expect(text.split("\n")[where.line]).toBe("  gate:");
  });
});

describe("server-sent events", () => {
  it("splits chunks into whole events, across chunk boundaries, skipping comments", () => {
    const parse = sseParser();
    expect(parse(': taskspec console stream\n\nid: 4\nevent: run-event\ndata: {"seq"')).toEqual([]);
    expect(parse(":4}\n\n: keep-alive\n\nevent: runs-changed\r\ndata: a\r\ndata: b\r\n\r\n")).toEqual([
      { event: "run-event", data: '{"seq":4}', id: "4" },
      { event: "runs-changed", data: "a\nb" },
    ]);
  });
});

describe("run panel page", () => {
  const consolePage = readFileSync(join(REPO, "cli", "console", "index.html"), "utf8").replace(
    "<!--SCRIPT-->",
    '<script nonce="server-nonce">/* app */</script>',
  );
  const html = webviewHtml(consolePage, '#/run/a"b');
  const nonce = /script-src 'nonce-([^']+)'/.exec(html)?.[1];

  it("runs the bridge, then the console's script, under the webview's own nonce", () => {
    expect(nonce).toBeTruthy();
    expect(html).not.toContain("server-nonce");
    const scripts = [...html.matchAll(/<script nonce="([^"]+)">/g)].map((m) => m[1]);
    expect(scripts).toEqual([nonce, nonce]);
    expect(html.indexOf("acquireVsCodeApi")).toBeLessThan(html.indexOf("/* app */"));
    expect(html).toContain("default-src 'none'");
  });

  it("hides the handoff downloads with their separators: a webview does not save files", () => {
    expect(html).toMatch(/<style>[^<]*\.download[^<]*\{ display: none; \}<\/style>/);
  });

  it("starts at the run, its id escaped", () => {
    expect(html).toContain('<body data-start="#/run/a&#34;b">');
  });
});

describe("approving from the editor", () => {
  it("passes the resume token in the environment, never among the arguments ps shows", () => {
    const call = approveCall("sqlite:/s.db", "R1", "gate", { token: "rt_secret" });
    expect(call.args).toEqual(["approve", "R1", "gate", "--store", "sqlite:/s.db"]);
    expect(call.args.join(" ")).not.toContain("rt_secret");
    expect(call.env).toEqual({ TASKSPEC_RESUME_TOKEN: "rt_secret" });
    expect(approveCall("sqlite:/s.db", "R1", "gate", { keyFile: "/k" })).toEqual({
      args: ["approve", "R1", "gate", "--store", "sqlite:/s.db", "--operator-key-file", "/k"],
      env: {},
    });
  });
});
