import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "compiler/test/**/*.test.ts", "runtime/test/**/*.test.ts", "lsp/test/**/*.test.ts", "cli/test/**/*.test.ts", "examples/test/**/*.test.ts", "extension/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
