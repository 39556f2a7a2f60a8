import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "compiler/test/**/*.test.ts", "runtime/test/**/*.test.ts", "lsp/test/**/*.test.ts", "cli/test/**/*.test.ts", "examples/test/**/*.test.ts", "extension/test/**/*.test.ts"],
    testTimeout: 60_000,
    // the compiler deep-freezes the contract values and plans it hands out (compiler/src/memo.ts), so a mutation fails a test
    env: { TASKSPEC_FREEZE_PLAIN: "1" },
    hookTimeout: 60_000,
  },
});
