// `npm run lint`: typescript-eslint with type information over every source,
// test and bench file, and the import boundaries that encode the layering
// written down in ARCHITECTURE.md. Zero warnings allowed (--max-warnings 0).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { boundariesConfig } from "./eslint.boundaries.js";

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/out/**",
      "**/node_modules/**",
      "**/*.tsbuildinfo",
      "extension/media/**",
      ".vscode-test/**",
      "compiler/src/schema/validators.generated.ts",
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  {
    // Every control-character class in this code is deliberate: binary
    // detection in the parser, the CLI's escaping of hostile text, its tests.
    rules: { "no-control-regex": "off" },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // the console's page script runs in the browser, not in Node
    files: ["cli/console/**/*.js"],
    languageOptions: { globals: { ...globals.browser }, sourceType: "script" },
  },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // One program for the Node side, one each for the two bundler/DOM
        // configurations: the same tsconfigs `npm run typecheck` uses.
        project: ["./tsconfig.check.json", "./extension/tsconfig.json", "./test/e2e-vscode/tsconfig.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // `catch (err)` values and JSON.parse results are `any` on purpose in
      // the adapters and tests that validate them right after; the compiler's
      // strict mode already forbids implicit any. These five rules report
      // every use of such a value, hundreds of hits that are pure style here.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // 412 hits, nearly all `!` after a Map.get or an index the author knew
      // was there: removing them changes no behaviour and only churns files.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      // `async` on a function without await is how the Store and handler
      // interfaces keep "throws" and "rejects" the same; dropping it changes that.
      "@typescript-eslint/require-await": "off",
      // The stringified values are database columns and YAML scalars typed
      // `unknown` that are strings, numbers or booleans at run time.
      "@typescript-eslint/no-base-to-string": "off",
      // `unknown | Promise<unknown>` and `unknown | undefined` document intent
      // in the handler and store signatures.
      "@typescript-eslint/no-redundant-type-constituents": "off",
      // Passing a caught `unknown` on unchanged is fine (the rules' own options).
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // tsc's noUnusedLocals/noUnusedParameters already report these (with `_` prefix as the escape).
      "@typescript-eslint/no-unused-vars": "off",
    },
  },
  {
    // The workbench tests ship functions into the VS Code page as source text.
    files: ["test/e2e-vscode/**/*.ts"],
    rules: { "@typescript-eslint/no-implied-eval": "off", "preserve-caught-error": "off" },
  },
  ...boundariesConfig,
  {
    // bench/peers has its own package.json (`cd bench/peers && npm install`); the workspace does
    // not install it, so its imports resolve only where someone ran that install.
    files: ["bench/peers/**/*.js"],
    rules: { "import-x/no-unresolved": "off" },
  },
);
