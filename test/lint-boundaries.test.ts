/**
 * The import boundaries of eslint.boundaries.js reject the imports that break
 * the layering (ARCHITECTURE.md, "Layers") and accept the declared ones. Runs
 * only that config block (no type information), so it is fast.
 */
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { boundariesConfig } from "../eslint.boundaries.js";

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
  ])("%s may say %s", async (file, text) => {
    expect(await boundaryErrors(file, text)).toEqual([]);
  });

  it("reports an import it cannot resolve, which no zone could check", async () => {
    expect((await boundaryErrors("runtime/src/engine/core.ts", 'export * from "../nowhere/at-all.js";')).join("\n")).toContain(
      "import-x/no-unresolved",
    );
  });
});
