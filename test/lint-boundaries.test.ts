/**
 * The import boundaries of eslint.boundaries.js reject the imports that break
 * the layering (ARCHITECTURE.md, "Layers") and accept the declared ones. Runs
 * only that config block (no type information), so it is fast. ARCHITECTURE.md
 * says the same as that file: its packages table and its layer lists are read
 * and compared with the rules, so the prose cannot drift from what lint enforces.
 */
import { readFileSync } from "node:fs";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { LAYERS, PACKAGE_RULES, boundariesConfig } from "../eslint.boundaries.js";

const eslint = new ESLint({
  cwd: new URL("..", import.meta.url).pathname,
  overrideConfigFile: true,
  overrideConfig: [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser } }, ...boundariesConfig],
});

/** The boundary messages ESLint reports for `text` as if it were `file`. */
async function boundaryErrors(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: file });
  return result!.messages.map((m) => `${m.ruleId ?? "parse"}: ${m.message}`);
}

describe("import boundaries", () => {
  it.each([
    ["runtime/src/ledger/ledger.ts", 'export { checkPasses } from "../engine/expressions.js";', "ledger is in layer"],
    ["compiler/src/plan/schema.ts", 'export type { UnitGraph } from "../check/graph.js";', "plan is in layer"],
    ["compiler/src/parse/model.ts", 'export { Requests } from "@taskspec/lsp";', "the compiler imports none of our packages"],
    ["runtime/src/store/types.ts", 'export { Requests } from "../../../lsp/src/protocol.js";', "the runtime imports only the compiler"],
    ["lsp/src/server.ts", 'export { openStore } from "@taskspec/runtime";', "the language server imports only the compiler"],
    ["runtime/src/engine/core.ts", 'export * from "../../../cli/src/user-error.js";', "nothing imports the CLI"],
    ["extension/src/protocol.ts", 'export { Requests } from "../../lsp/src/protocol.js";', "imports only `@taskspec/lsp/protocol`"],
    ["extension/src/protocol.ts", 'export { compile } from "@taskspec/compiler";', "the extension bundles no package code"],
    ["lsp/src/service/hover.ts", 'export { createServer } from "../server.js";', "service is in layer"],
    ["compiler/src/parse/model.ts", 'export { readFileSync } from "node:fs";', "the compiler is pure"],
    ["compiler/src/expr/lexer.ts", 'export { Lexer } from "chevrotain";', "one copy in a process"],
  ])("%s may not say %s", async (file, text, why) => {
    const errors = (await boundaryErrors(file, text)).join("\n");
    expect(errors).toMatch(/import-x\/no-restricted-paths|no-restricted-imports/);
    expect(errors).toContain(why);
  });

  it.each([
    ["extension/src/protocol.ts", 'export { Requests } from "@taskspec/lsp/protocol";'],
    [
      "runtime/src/engine/core.ts",
      'export { checkPasses } from "./expressions.js";\nexport type { CrashHook } from "../faults/crash-points.js";',
    ],
    ["runtime/src/ledger/ledger.ts", 'export { compile } from "@taskspec/compiler";'],
    ["compiler/src/compile.ts", 'export { buildPlan } from "./build-plan.js";'],
    ["compiler/src/node/read-contract.ts", 'export { readFileSync } from "node:fs";'],
    ["compiler/src/expr/lexer.ts", 'export type { IToken } from "chevrotain";\nexport { Lexer } from "./chevrotain.js";'],
  ])("%s may say %s", async (file, text) => {
    expect(await boundaryErrors(file, text)).toEqual([]);
  });

  it("reports an import it cannot resolve, which no zone could check", async () => {
    expect((await boundaryErrors("runtime/src/engine/core.ts", 'export * from "../nowhere/at-all.js";')).join("\n")).toContain(
      "import-x/no-unresolved",
    );
  });
});

const ARCHITECTURE = readFileSync(new URL("../ARCHITECTURE.md", import.meta.url), "utf8");

/** The text of the `## title` section of ARCHITECTURE.md. */
function section(title: string): string {
  const start = ARCHITECTURE.indexOf(`\n## ${title}\n`);
  expect(start, `ARCHITECTURE.md has no "## ${title}" section`).toBeGreaterThan(-1);
  const end = ARCHITECTURE.indexOf("\n## ", start + 1);
  return ARCHITECTURE.slice(start, end === -1 ? undefined : end);
}

/**
 * The layers the page lists for `<pkg>/src`, bottom up: each numbered item
 * names its units in backquotes before its first colon (`x/` for a folder).
 */
function documentedLayers(pkg: string): string[][] {
  const text = section("Layers inside a package");
  const start = text.indexOf(`**${pkg}/src**, bottom up:`);
  expect(start, `ARCHITECTURE.md lists no layers for ${pkg}/src`).toBeGreaterThan(-1);
  const layers: string[][] = [];
  for (const line of text.slice(start).split("\n").slice(1)) {
    const item = /^(\d+)\. ((?:`[^`]+`(?:, | and )?)+): /.exec(line);
    if (!item) {
      if (layers.length > 0) break;
      continue;
    }
    expect(Number(item[1]), `${pkg}/src: item "${line.slice(0, 40)}" is out of order`).toBe(layers.length + 1);
    layers.push([...item[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, "")));
  }
  return layers;
}

/** What the packages table says a package may import, as the package rules' terms. */
function documentedImports(): Map<string, { allowed: string[] } | { forbidden: string[] }> {
  const rows = new Map<string, { allowed: string[] } | { forbidden: string[] }>();
  for (const line of section("Packages").split("\n")) {
    const row = /^\| `([a-z-]+)\/`[^|]*\|[^|]*\| ([^|]+) \|$/.exec(line);
    if (!row) continue;
    const said = row[2]!.trim();
    const names = (text: string) => [...text.matchAll(/\b(compiler|runtime|lsp|cli|examples|extension)\b/g)].map((m) => m[1]!).sort();
    if (said === "nothing") rows.set(row[1]!, { allowed: [] });
    else if (said.startsWith("anything but ")) rows.set(row[1]!, { forbidden: names(said.replace(/\(.*\)/, "")) });
    else if (!said.startsWith("only ")) rows.set(row[1]!, { allowed: names(said) });
  }
  return rows;
}

const PACKAGES = ["compiler", "runtime", "lsp", "cli", "examples", "extension"];

describe("ARCHITECTURE.md and eslint.boundaries.js say the same", () => {
  it.each(Object.keys(LAYERS))("the layers of %s/src, bottom up", (pkg) => {
    expect(documentedLayers(pkg)).toEqual(LAYERS[pkg as keyof typeof LAYERS].map((layer) => [...layer]));
  });

  it.each(PACKAGE_RULES.map((rule) => [rule.target, rule] as const))("what %s may import", (target, rule) => {
    const said = documentedImports().get(target);
    if (said === undefined) throw new Error(`ARCHITECTURE.md's packages table has no row for ${target}/`);
    if ("forbidden" in said) expect(said.forbidden).toEqual([...rule.forbidden].sort());
    else expect(said.allowed).toEqual(PACKAGES.filter((p) => p !== target && !rule.forbidden.includes(p)).sort());
  });
});
