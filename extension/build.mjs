// Builds out/ for the .vsix: the client and the language server bundled as
// CommonJS (VS Code loads extensions with require; `vscode` is provided by the
// host), plus a copy of docs/diagnostics.md that the diagnostics' docs links
// open. (No `yamlValidation` contribution: contracts have the taskspec
// language id, so the YAML extension never validated them with it.)
//
// The server is lsp's own entry point, already compiled by `tsc -b lsp`, and svg-worker.js its Graphviz worker.
import { build } from "esbuild";
import { chevrotainReexport } from "../scripts/esbuild-chevrotain.mjs";
import { copyFile, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "out");

const serverEntry = join(here, "..", "lsp", "dist", "main.js");
// Graphviz lays out graphs in a worker thread (lsp/src/adapters/svg.ts): its module sits beside server.js.
const svgWorkerEntry = join(here, "..", "lsp", "dist", "adapters", "svg-worker.js");

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
// The diagnostics docs the server's links open (client.ts passes their URL as TASKSPEC_DOCS_URL).
await copyFile(join(here, "..", "docs", "diagnostics.md"), join(out, "diagnostics.md"));

const result = await build({
  entryPoints: { extension: join(here, "src", "extension.ts"), server: serverEntry, "svg-worker": svgWorkerEntry },
  plugins: [chevrotainReexport],
  outdir: out,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  // ESM sources read their own location with import.meta.url; in a CJS bundle
  // that is this file's URL.
  define: { "import.meta.url": "__taskspec_import_meta_url" },
  banner: { js: 'const __taskspec_import_meta_url = require("url").pathToFileURL(__filename).href;' },
  minify: true,
  sourcemap: false,
  metafile: true,
  logLevel: "warning",
});

for (const [file, info] of Object.entries(result.metafile.outputs)) {
  console.log(`${file.replace(`${here}/`, "")}: ${(info.bytes / 1024).toFixed(0)} KiB`);
}
