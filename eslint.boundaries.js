// The import boundaries `npm run lint` enforces (import-x/no-restricted-paths
// zones), written as data: which package may import which, and inside the
// compiler, the runtime and the language server, the order of their layers.
// ARCHITECTURE.md ("Packages", "Layers inside a package") is the prose of this
// file; test/lint-boundaries.test.ts fails when the two disagree.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";

const here = import.meta.dirname;

/** Between packages: the folders a package's files (sources and tests) never import from. */
export const PACKAGE_RULES = [
  { target: "compiler", forbidden: ["runtime", "lsp", "cli", "examples", "extension"], why: "the compiler imports none of our packages" },
  { target: "runtime", forbidden: ["lsp", "cli", "examples", "extension"], why: "the runtime imports only the compiler" },
  { target: "lsp", forbidden: ["runtime", "cli", "examples", "extension"], why: "the language server imports only the compiler" },
  {
    target: "examples",
    forbidden: ["lsp", "cli", "extension"],
    why: "the examples use the compiler and the runtime, as a handler author would",
  },
  { target: "test", forbidden: ["cli", "extension"], why: "the end-to-end tests drive the CLI and the extension as processes" },
  { target: "bench", forbidden: ["cli"], why: "benches time the packages' code, the CLI is a process" },
];

/**
 * Inside a package's src/: layers from the bottom up. A unit (a folder or a
 * top-level file of src/) may import units of lower layers only; units that
 * share a layer are siblings and never import each other.
 */
export const LAYERS = {
  compiler: [
    ["diagnostics", "memo.ts"],
    ["source"],
    ["parse"],
    ["schema", "policy"],
    ["plan", "config"],
    ["expr"],
    ["check", "impact"],
    ["graph"],
    ["build-plan.ts", "plan-check.ts"],
    ["compile.ts"],
    ["index.ts"],
    // Reading contract files (`@taskspec/compiler/node`), the compiler's one Node-only module.
    ["node"],
  ],
  runtime: [
    ["errors.ts"],
    ["model", "faults"],
    ["handler-api.ts"],
    ["store", "artifacts", "scheduler", "handlers", "models", "mcp"],
    ["ledger"],
    ["engine"],
    ["isolation", "operator"],
    ["drill"],
    ["index.ts"],
  ],
  lsp: [["protocol.ts"], ["service"], ["adapters"], ["server.ts"], ["main.ts", "index.ts"]],
};

function packageZones() {
  const zones = PACKAGE_RULES.map(({ target, forbidden, why }) => ({
    target: `./${target}`,
    from: forbidden.map((f) => `./${f}`),
    message: `${why} (ARCHITECTURE.md, "Layers").`,
  }));
  // Nothing imports the CLI (it is the top; its own tests live in cli/test).
  zones.push({
    target: ["./compiler", "./runtime", "./lsp", "./examples", "./extension", "./test", "./bench"],
    from: "./cli",
    message: 'nothing imports the CLI (ARCHITECTURE.md, "Layers").',
  });
  // The extension bundles no package code: from the language server it takes
  // only the protocol's declared export, `@taskspec/lsp/protocol`.
  zones.push({
    target: "./extension",
    from: ["./compiler", "./runtime", "./cli", "./examples"],
    message: 'the extension bundles no package code (ARCHITECTURE.md, "Layers").',
  });
  zones.push({
    target: "./extension",
    from: "./lsp",
    except: ["./dist/protocol.js", "./dist/protocol.d.ts"],
    message: 'the extension imports only `@taskspec/lsp/protocol` from the language server (ARCHITECTURE.md, "Layers").',
  });
  return zones;
}

function layerZones(pkg, layers) {
  const src = join(here, pkg, "src");
  const assigned = layers.flat();
  const unassigned = readdirSync(src).filter((entry) => !assigned.includes(entry));
  if (unassigned.length > 0) {
    // A new folder or top-level file must be given a layer, or no rule would cover it.
    throw new Error(`eslint.boundaries.js: ${pkg}/src/${unassigned.join(", ")} has no layer in LAYERS.${pkg}`);
  }
  return layers
    .flatMap((layer, level) => {
      const allowed = new Set(layers.slice(0, level).flat());
      return layer.map((unit) => ({
        target: `./${pkg}/src/${unit}`,
        from: assigned.filter((other) => other !== unit && !allowed.has(other)).map((other) => `./${pkg}/src/${other}`),
        message: `${pkg}/src/${unit} is in layer ${level} and may import only lower layers: ${[...allowed].join(", ") || "none"} (ARCHITECTURE.md, "Layers").`,
      }));
    })
    .filter((zone) => zone.from.length > 0);
}

const boundaryZones = [...packageZones(), ...Object.entries(LAYERS).flatMap(([pkg, layers]) => layerZones(pkg, layers))];

/**
 * The config blocks (test/lint-boundaries.test.ts runs them alone, without type information).
 * @type {import("eslint").Linter.Config[]}
 */
export const boundariesConfig = [
  {
    // Resolved paths, not import strings, so a relative path cannot slip past a package rule.
    files: ["**/*.ts", "**/*.js", "**/*.mjs"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: [join(here, "tsconfig.check.json"), join(here, "extension/tsconfig.json"), join(here, "test/e2e-vscode/tsconfig.json")],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: boundaryZones, basePath: here }],
      // An import the resolver cannot place would pass every zone unchecked. The MCP SDK's
      // subpaths come from a wildcard export (`./*` with types at `*.d.ts`) the resolver cannot
      // follow; tsc resolves them, and an outside package crosses no zone of ours.
      "import-x/no-unresolved": ["error", { ignore: ["^vscode$", "^@modelcontextprotocol/sdk/"] }],
    },
  },
  {
    // The compiler is pure: outside compiler/src/node/ it uses no Node API but
    // hashing (plan/canonical.ts), so compiling reads no file and starts nothing.
    files: ["compiler/src/**/*.ts"],
    ignores: ["compiler/src/node/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "chevrotain",
              allowTypeImports: true,
              message:
                "import chevrotain's values from compiler/src/expr/chevrotain.ts: one copy in a process, loaded from its single-file build.",
            },
          ],
          patterns: [
            {
              regex: "^node:(?!crypto$)",
              message: 'the compiler is pure: file and process access lives in compiler/src/node (ARCHITECTURE.md, "Invariants").',
            },
          ],
        },
      ],
    },
  },
];
