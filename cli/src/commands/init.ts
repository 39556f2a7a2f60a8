/**
 * `taskspec init [dir] [--mcp]`: writes a starter project that checks clean and runs
 * to `done`: a contract (with `--mcp`, its tools bound to a local MCP server
 * beside it, with the server's lock and no adapters), TypeScript handlers in the split layout (a units
 * module and a tools module, so the worker never imports the units) with
 * their tsconfig, a verifier module, a GitHub Actions workflow (annotations)
 * and the VS Code extension recommendation. The files are
 * cli/templates/init/, shipped in the package.
 * Never overwrites: if any file exists, nothing is written (exit 2).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { UserError } from "../user-error.js";

/** cli/templates/init, two levels above this module both in dist/commands (tsc) and in dist/bundle. */
const TEMPLATES = fileURLToPath(new URL("../../templates/init/", import.meta.url));
/** What `--mcp` writes over the starter: the contract bound to an MCP server, the server, its lock, an empty tools module. */
const MCP_TEMPLATES = fileURLToPath(new URL("../../templates/init-mcp/", import.meta.url));

export function register(program: Command): void {
  program
    .command("init")
    .description(
      "Write a starter contract, TypeScript units and tools modules, a verifier module, a CI workflow and the editor recommendation.",
    )
    .argument("[dir]", "where to write it", ".")
    .option("--mcp", "bind the contract's tools to a local MCP server (servers/notes-server.mjs) with its lock, instead of adapters")
    .action((dir: string, o: { mcp?: boolean }) => {
      process.exitCode = runInit(dir, o.mcp === true);
    });
}

/** The files to write: template path -> contents; package.json only where none exists. */
export function scaffoldFiles(target: string, mcp = false): Map<string, string> {
  const files = new Map<string, string>();
  for (const root of mcp ? [TEMPLATES, MCP_TEMPLATES] : [TEMPLATES])
    for (const rel of listFiles(root)) files.set(rel, readFileSync(join(root, rel), "utf8"));
  if (!existsSync(join(target, "package.json"))) files.set("package.json", packageJson(basename(resolve(target))));
  return files;
}

function runInit(dir: string, mcp: boolean): number {
  const target = resolve(dir);
  const files = scaffoldFiles(target, mcp);
  const taken = [...files.keys()].filter((rel) => existsSync(join(target, rel)));
  if (taken.length > 0)
    throw new UserError(`init: not overwriting ${taken.map((f) => join(dir, f)).join(", ")}; remove them or pick another directory`, 2);
  for (const [rel, text] of files) {
    mkdirSync(dirname(join(target, rel)), { recursive: true });
    writeFileSync(join(target, rel), text);
  }
  const at = dir;
  const cd = at === "." ? "" : `  cd ${at}\n`;
  process.stdout.write(
    `wrote ${[...files.keys()].sort().join(", ")} in ${at}\n\nnext:\n${cd}` +
      "  npm i -D typescript @types/node      # to build the handlers, if not installed yet\n" +
      (mcp ? "  npm i @modelcontextprotocol/sdk      # for servers/notes-server.mjs, if not installed yet\n" : "") +
      "  npx tsc -p .                         # handlers/*.mts -> dist/handlers/\n" +
      "  npx taskspec check hello.task.yaml\n" +
      "  npx taskspec run hello.task.yaml --handlers dist/handlers/units.mjs --tools dist/handlers/tools.mjs --verifiers dist/handlers/verifiers.mjs\n",
  );
  return 0;
}

function listFiles(root: string, sub = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, rel));
    else out.push(rel);
  }
  return out.sort();
}

function packageJson(name: string): string {
  const pkg = {
    name: name.toLowerCase().replace(/[^a-z0-9-]+/g, "-") || "taskspec-project",
    private: true,
    scripts: {
      build: "tsc -p .",
      check: "taskspec check --strict .",
      start:
        "taskspec run hello.task.yaml --handlers dist/handlers/units.mjs --tools dist/handlers/tools.mjs --verifiers dist/handlers/verifiers.mjs",
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}
