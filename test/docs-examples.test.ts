/**
 * docs/diagnostics.md promises, for every code, a contract that produces it
 * and a fixed one that does not. This test holds the page to that promise:
 * each `## Cxxx` section's `<!-- bad -->` block must yield that code and no
 * other (so the example teaches one thing), its `<!-- fixed -->` block must
 * compile with no error and no warning, and every code in the catalog must
 * have a section. Complete contracts shown in
 * docs/contract.md (yaml blocks starting with `contract: 1`) must compile
 * clean too; fragments are left alone. File references (C013) are resolved
 * as if each example lived in specs/, as the C013 section says.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile as compileText, DiagnosticCodes, parseMcpLock, type DiagnosticCode, type McpLock } from "@taskspec/compiler";
import { filesBeside } from "@taskspec/compiler/node";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), "utf8");
const page = read("../docs/diagnostics.md");
const guide = read("../docs/contract.md");
const besideSpecs = filesBeside(fileURLToPath(new URL("../specs/example.task.yaml", import.meta.url)));
const compile = (text: string, lock?: McpLock) =>
  compileText(text, { files: besideSpecs, ...(lock ? { mcp: { file: "example.mcp-lock.json", lock } } : {}) });

interface Section {
  code: string;
  bad: string[];
  fixed: string[];
  /** The MCP lock the examples are judged against: the section's `<!-- lock -->` block, else the latest one above it. */
  lock?: McpLock;
}

/** Splits the page at `## ` headings and collects the marked yaml blocks of each section. */
function sections(markdown: string): Section[] {
  const found: Section[] = [];
  let lock: McpLock | undefined;
  for (const chunk of markdown.split(/^## /m).slice(1)) {
    const block = /^<!-- lock -->\n```json\n([\s\S]*?)^```$/m.exec(chunk);
    if (block) {
      const read = parseMcpLock(block[1]!);
      if (!("lock" in read)) throw new Error(`the lock block of section ${chunk.slice(0, 4)} is not a lock: ${read.problem}`);
      lock = read.lock;
    }
    const heading = chunk.slice(0, chunk.indexOf("\n")).trim();
    const blocks = { bad: [] as string[], fixed: [] as string[] };
    for (const m of chunk.matchAll(/^<!-- (bad|fixed) -->\n```yaml\n([\s\S]*?)^```$/gm)) {
      blocks[m[1] as "bad" | "fixed"].push(m[2]!);
    }
    found.push({ code: heading, ...blocks, ...(lock ? { lock } : {}) });
  }
  return found;
}

const all = sections(page);
const codes = Object.keys(DiagnosticCodes) as DiagnosticCode[];

describe("docs/diagnostics.md", () => {
  it("has exactly one section per catalog code, in catalog order", () => {
    expect(all.map((s) => s.code)).toEqual(codes);
  });

  describe.each(all)("$code", ({ code, bad, fixed, lock }) => {
    it("shows one bad and one fixed example", () => {
      expect(bad).toHaveLength(1);
      expect(fixed).toHaveLength(1);
    });

    it("bad example yields the code and nothing else", () => {
      const found = compile(bad[0]!, lock).diagnostics.map((d) => d.code);
      expect(found).toContain(code);
      expect(found.filter((c) => c !== code)).toEqual([]);
    });

    it("fixed example compiles clean", () => {
      const { plan, diagnostics } = compile(fixed[0]!, lock);
      expect(diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
      expect(plan).toBeDefined();
    });
  });
});

describe("docs/contract.md", () => {
  const contracts = [...guide.matchAll(/^```yaml\n(contract: 1\n[\s\S]*?)^```$/gm)].map((m) => m[1]!);

  it("shows at least one complete contract", () => {
    expect(contracts.length).toBeGreaterThan(0);
  });

  it.each(contracts.map((text, i) => [i + 1, text] as const))("complete contract #%i compiles clean", (_, text) => {
    const { plan, diagnostics } = compile(text);
    expect(diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
    expect(plan).toBeDefined();
  });
});
