// Bundles the CLI for its package (run by `npm pack` through prepack): one ESM
// entry plus a chunk per lazily imported command, so `taskspec check` parses
// only the compiler's code and not the runtime, pg or the language server.
// The compiler, runtime and language server are inlined (the installed CLI
// does not depend on the @taskspec packages); better-sqlite3 (native) and pg
// (optional native peer) stay real dependencies. The drill's child script is
// its own entry because the drill spawns it by path (runtime/src/drill/process.ts
// finds it as ./child.js next to the chunk that holds the drill code), and so is
// the handler process's script (handler-child.js, runtime/src/isolation/launch.ts),
// and so is the language server's Graphviz worker (svg-worker.js, lsp/src/adapters/svg.ts
// finds it beside the chunk that holds the server), as in the extension's bundle.
//
// Usage: node build.mjs [outdir]   (default dist/bundle)
import { build } from "esbuild";
import { chevrotainReexport } from "../scripts/esbuild-chevrotain.mjs";
import { rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "dist", "bundle"));

const drillChild = join(here, "..", "runtime", "dist", "drill", "child.js");
/** The drill child's entry: bundled, child.js's own "am I the script" test sees a chunk's URL, so call it directly. */
const drillChildEntry = {
  name: "drill-child-entry",
  setup(b) {
    b.onResolve({ filter: /^taskspec:drill-child$/ }, () => ({ path: "drill-child", namespace: "taskspec" }));
    b.onLoad({ filter: /.*/, namespace: "taskspec" }, () => ({
      contents: `import { runChild } from ${JSON.stringify(drillChild)}; runChild(process.argv);`,
      resolveDir: here,
      loader: "js",
    }));
  },
};

await rm(out, { recursive: true, force: true });
const result = await build({
  entryPoints: {
    main: join(here, "dist", "main.js"),
    child: "taskspec:drill-child",
    // the handler process's script: spawned by path (runtime/src/isolation/launch.ts finds it as
    // ./handler-child.js beside the chunk that holds the launch code); it runs itself when loaded
    "handler-child": join(here, "..", "runtime", "dist", "isolation", "child-entry.js"),
    // the LSP's SVG layout runs in a worker thread started by path (./svg-worker.js beside the server's chunk)
    "svg-worker": join(here, "..", "lsp", "dist", "adapters", "svg-worker.js"),
  },
  plugins: [drillChildEntry, chevrotainReexport],
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["better-sqlite3", "pg"],
  // Bundled CommonJS dependencies (commander, ajv...) call require() for Node
  // built-ins; an ESM bundle has no require of its own.
  banner: {
    js: 'import { createRequire as __taskspecCreateRequire } from "node:module"; const require = __taskspecCreateRequire(import.meta.url);',
  },
  minify: true,
  legalComments: "linked",
  metafile: true,
  logLevel: "warning",
});

let total = 0;
for (const info of Object.values(result.metafile.outputs)) total += info.bytes;
console.error(`${out}: ${Object.keys(result.metafile.outputs).length} files, ${(total / 1024).toFixed(0)} KiB`);
