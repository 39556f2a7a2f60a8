/**
 * `taskspec impact` and `taskspec graph` end to end, as real processes over
 * the built CLI, on the seed's market-entry pack: text and JSON shapes, the
 * seed's cases, contract diffs, exit codes 0/1/2, SVG through Graphviz.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const specs = fileURLToPath(new URL("../specs/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "taskspec-impact-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const v4 = readFileSync(join(specs, "market-entry-pack.task.yaml"), "utf8");
writeFileSync(join(dir, "v4.task.yaml"), v4);
// beside the pack's schema, as in specs/, so its `schema:` path exists (C013)
cpSync(join(specs, "schemas"), join(dir, "schemas"), { recursive: true });
writeFileSync(
  join(dir, "v5.task.yaml"),
  v4.replace("value: product-team", "value: investment-committee").replace("version: 4", "version: 5"),
);
writeFileSync(join(dir, "comment.task.yaml"), v4.replace("# ---- verify:", "# ---- verification:"));
writeFileSync(join(dir, "cycle.task.yaml"), readFileSync(join(specs, "invalid", "C020-cycle.task.yaml"), "utf8"));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("taskspec impact --change", () => {
  it("prints one line per invalidated unit with its path, grouped by phase, and a summary", () => {
    const r = run("impact", "v4.task.yaml", "--change", "audience");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "change audience (all kinds)",
        "",
        "frame",
        "  U27  audience --audience--> U27",
        "  U28  audience --audience--> U28",
        "  U29  audience --audience--> U29",
        "  U30  audience --audience--> U30",
        "",
        "assemble",
        "  A01  audience --audience--> U27 --content--> A01",
        "  A03  audience --audience--> U27 --content--> A03",
        "",
        "audit",
        "  F01  audience --audience--> U27 --content--> A01 --content--> F01",
        "",
        "7 of 36 units invalidated; 29 kept",
        "",
      ].join("\n"),
    );
  });

  it("prints the JSON shape of architecture.md", () => {
    const r = run("impact", "v4.task.yaml", "--change", "S04:structure", "--format", "json");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.changes).toEqual([{ origin: "S04", kinds: ["structure"] }]);
    expect(json.invalidated.map((i: { unit: string; path: string }) => [i.unit, i.path])).toEqual([
      ["A01", "S04 --structure--> A01"],
      ["F01", "S04 --structure--> A01 --content--> F01"],
    ]);
    expect(json.invalidated[1].cause.because.because).toEqual({ type: "change", change: 0, origin: "S04", kind: "structure" });
    expect(json.kept).toHaveLength(33);
    expect(json.origins).toEqual(["S04"]);
    expect(json.unmatched).toEqual([]);
  });

  it("combines several --change flags", () => {
    const r = run("impact", "v4.task.yaml", "--change", "group-c", "--change", "S04:content,structure", "--format", "json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).invalidated.map((i: { unit: string }) => i.unit)).toEqual([
      "E03",
      "V02",
      "S02",
      "S06",
      "U28",
      "U31",
      "A01",
      "A02",
      "A03",
      "A04",
      "F01",
    ]);
  });

  it("exits 1 with a did-you-mean for a typo'd node or kind", () => {
    const r = run("impact", "v4.task.yaml", "--change", "audiense", "--change", "S04:contnet");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("--change audiense: 'audiense' is neither a unit nor an input — did you mean 'audience'?");
    expect(r.stderr).toContain(
      "--change S04:contnet: 'contnet' is not an edge kind (content, structure, policy, audience or all) — did you mean 'content'?",
    );
  });

  it("keeps the typo'd change in the JSON answer, under unmatched, and still exits 1", () => {
    const r = run("impact", "v4.task.yaml", "--change", "audiense", "--format", "json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).unmatched).toEqual([
      {
        change: { origin: "audiense", kinds: "all" },
        code: "unknown-node",
        reason: "'audiense' is neither a unit nor an input — did you mean 'audience'?",
        didYouMean: "audience",
      },
    ]);
  });

  it("notes a change that reaches nothing, without failing", () => {
    const r = run("impact", "v4.task.yaml", "--change", "audience:structure");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("note: nothing depends on 'audience' in structure (its dependents need it as audience)");
    expect(r.stdout).toContain("0 of 36 units invalidated; 36 kept");
  });

  it.each([
    [["impact", "v4.task.yaml"], "say what changes"],
    [["impact", "v4.task.yaml", "--change", "S04:"], "has an empty kind"],
    [["impact", "v4.task.yaml", "--change", ":content"], "names no node"],
    [["impact", "v4.task.yaml", "v5.task.yaml", "--change", "S04"], "either --change or a second contract"],
    [["impact", "v4.task.yaml", "--change", "S04", "--format", "xml"], "Allowed choices are text, json"],
    [["impact", "missing.task.yaml", "--change", "S04"], "cannot read 'missing.task.yaml': no such file or directory"],
  ])("exits 2 on bad usage: %j", (args, message) => {
    const r = run(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it("prints compile errors like check and exits 1", () => {
    const r = run("impact", "cycle.task.yaml", "--change", "draft");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cycle\.task\.yaml:\d+:\d+: error C020: dependency cycle/m);
    expect(r.stderr).toContain("^");
    expect(r.stdout).toBe("");
  });
});

describe("taskspec impact --format json on a deep chain", () => {
  it("prints a chain 1,000 units deep (each cause tree on one line, long ones elided) instead of failing", () => {
    const lines = [
      "contract: 1",
      "task: { id: t, goal: chain, outputs: [o999], done: [ok] }",
      "budgets: { model_calls: 10000 }",
      "verifiers:",
      '  ok: { kind: rule, check: "result.ok" }',
      "units:",
    ];
    for (let i = 0; i < 1000; i++)
      lines.push(`  u${i}:`, `    produces: [o${i}]`, "    verify: [ok]", ...(i > 0 ? [`    needs: { u${i - 1}: content }`] : []));
    writeFileSync(join(dir, "chain.task.yaml"), `${lines.join("\n")}\n`);
    const r = spawnSync(process.execPath, [bin, "impact", "chain.task.yaml", "--change", "u0", "--format", "json"], {
      cwd: dir,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.invalidated).toHaveLength(999);
    // the 12 hops nearest the unit, then the change with the count of hops left out between
    let depth = 0;
    let link = json.invalidated[998].cause;
    for (; link.type !== "change"; link = link.because) depth++;
    expect([depth, link]).toEqual([12, { type: "change", change: 0, origin: "u0", kind: "content", elidedHops: 987 }]);
    expect(json.invalidated[998].path).toMatch(/^u0 --content--> u1 --\(987 more hops\)--> u988 --content--> /);
    expect(json.invalidated[10].cause.because.because).toMatchObject({ from: "u8", to: "u9" });
  }, 120_000);

  it("prints the edit report with the same shape, key order kept", () => {
    const r = run("impact", "v4.task.yaml", "v5.task.yaml", "--format", "json");
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual([
      "changes",
      "invalidated",
      "kept",
      "origins",
      "unmatched",
      "diff",
      "mustRerun",
      "staysValid",
    ]);
    expect(r.stdout).toMatch(/\n {2}"invalidated": \[\n {4}\{\n {6}"unit": "U27",/);
  });
});

describe("taskspec impact <old> <new>", () => {
  it("lists what must re-run and what stays valid after the audience decision changes (plan v5)", () => {
    const r = run("impact", "v4.task.yaml", "v5.task.yaml");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^changed inputs: audience\n/);
    expect(r.stdout).toContain("must re-run (7):");
    expect(r.stdout).toContain("  U30  audience --audience--> U30");
    expect(r.stdout).toContain("stays valid (29): E01 E02");
    expect(r.stdout).toMatch(/7 of 36 units must re-run; 29 stay valid\n$/);
  });

  it("finds nothing to re-run when only a comment changed", () => {
    const r = run("impact", "v4.task.yaml", "comment.task.yaml", "--format", "json");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.mustRerun).toEqual([]);
    expect(json.staysValid).toHaveLength(36);
    expect(json.diff).toEqual({
      units: { added: [], removed: [], changed: [] },
      inputs: { added: [], removed: [], changed: [] },
      keys: {},
    });
  });
});

describe("taskspec graph", () => {
  it("prints Mermaid by default, grouped by phase, highlighting the change", () => {
    const r = run("graph", "v4.task.yaml", "--change", "audience");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("flowchart TB");
    expect(r.stdout).toContain('subgraph g0["extract"]');
    expect(r.stdout).toContain('title: "market-entry-pack v4: change audience invalidates 7 of 36 units"');
  });

  it("prints DOT", () => {
    const r = run("graph", "v4.task.yaml", "--format", "dot");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^digraph taskspec \{/);
    expect(r.stdout).toContain('"S04" -> "A01" [color="#2ca02c", style="dashed"');
  });

  it("writes SVG laid out by Graphviz to a file", () => {
    const r = run("graph", "v4.task.yaml", "--format", "svg", "--change", "audience", "-o", "audience.svg");
    expect(r.code).toBe(0);
    const svg = readFileSync(join(dir, "audience.svg"), "utf8");
    expect(svg).toContain("<!-- Generated by graphviz");
    expect(svg).toMatch(/<title>U27<\/title>\s*<path fill="#fde0dc" stroke="#c62828"/);
  });

  it("refuses SVG above 1,000 edges with a message, and draws the same plan as Mermaid", () => {
    const units = Array.from({ length: 120 }, (_, u) => {
      const needs = Array.from({ length: Math.min(u, 10) }, (_, k) => `u${u - 1 - k}: content`).join(", ");
      return `  u${u}: { produces: [o${u}], ${needs ? `needs: { ${needs} }, ` : ""}verify: [ok] }`;
    });
    const text = `contract: 1\ntask: { id: t, goal: g, outputs: [o119], done: [ok] }\nbudgets: { model_calls: 100000 }\nverifiers:\n  ok: { kind: rule, check: "result.ok" }\nunits:\n${units.join("\n")}\n`;
    writeFileSync(join(dir, "dense.task.yaml"), text);
    const r = run("graph", "dense.task.yaml", "--format", "svg");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "graph --format svg: the plan has 120 units and 1145 edges; SVG is laid out for at most 2000 units and 1000 edges",
    );
    expect(run("graph", "dense.task.yaml", "--format", "mermaid").code).toBe(0);
  });

  it("writes a plan with a 999-term check compactly below the plan's own levels (it was indented whole: 16 MB)", () => {
    const check = `${Array<string>(999).fill("1").join(" + ")} > 0`;
    writeFileSync(
      join(dir, "long-check.task.yaml"),
      `contract: 1\ntask: { id: t, goal: g, outputs: [out], done: [ok] }\nbudgets: { model_calls: 10 }\nverifiers:\n  ok: { kind: rule, check: "${check}" }\nunits:\n  a: { produces: [out], verify: [ok] }\n`,
    );
    const r = run("compile", "long-check.task.yaml", "-o", "long-check.plan.json");
    expect(r.code).toBe(0);
    const written = readFileSync(join(dir, "long-check.plan.json"), "utf8");
    expect(written.length).toBeLessThan(400_000);
    expect(JSON.parse(written)).toMatchObject({ task: { id: "t" } });
  });

  it("exits 1 on a typo'd change and 2 on a bad format", () => {
    expect(run("graph", "v4.task.yaml", "--change", "audiense").code).toBe(1);
    expect(run("graph", "v4.task.yaml", "--format", "png").code).toBe(2);
  });
});
