/**
 * How a handler process is started: Node's permission model (reads of the
 * handler code and the attempt directory only, writes of the attempt
 * directory only; no child processes, worker threads, addons, WASI or
 * inspector, which Node 20 refuses unless allowed), an environment of the
 * variables the run configuration names and nothing else, and, where
 * `unshare -rn` works (Linux user + network namespaces), no network.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The child's script: beside this file when built by tsc, `handler-child.js`
 * beside the chunk in the CLI's bundle, the built one when this file runs
 * from its TypeScript source (tests).
 */
export function childEntryPath(): string {
  for (const name of ["./child-entry.js", "./handler-child.js", "../../dist/isolation/child-entry.js"]) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error("taskspec: the handler process script (isolation/child-entry.js) is missing from this installation");
}

let probed: { unshare?: string } | undefined;

/** `unshare` on this PATH, absolute (the handler's environment has no PATH to look it up with). */
function findUnshare(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const path = join(dir || ".", "unshare");
    if (dir && existsSync(path)) return path;
  }
  return undefined;
}

/** Whether `unshare -rn` works here (probed once per process): the handler then has no network at all. */
export function networkIsolationAvailable(): boolean {
  return unshareCommand() !== undefined;
}

function unshareCommand(): string | undefined {
  if (probed === undefined) {
    const unshare = process.platform === "linux" ? findUnshare() : undefined;
    const ok = unshare !== undefined && spawnSync(unshare, ["-rn", "true"], { stdio: "ignore", timeout: 5000 }).status === 0;
    probed = ok ? { unshare } : {};
  }
  return probed.unshare;
}

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/**
 * What a handler process may read besides its attempt directory: the handler
 * module's folder, every `node_modules` folder its imports resolve through
 * (the module's folder and each folder above it) and the real folders of the
 * packages linked into them (npm workspaces, `npm link`), the child's own
 * script, and the folders the run configuration names (`--handler-read`).
 */
export function handlerReadRoots(handlerModule: string, extra: readonly string[] = []): string[] {
  const roots = new Set<string>();
  const moduleDir = dirname(real(resolve(handlerModule)));
  roots.add(moduleDir);
  roots.add(dirname(childEntryPath()));
  for (const file of childImports()) roots.add(file);
  for (let dir = moduleDir; ; dir = dirname(dir)) {
    const nm = join(dir, "node_modules");
    if (existsSync(nm)) {
      roots.add(real(nm));
      for (const linked of linkedPackages(nm)) roots.add(linked);
    }
    if (dirname(dir) === dir) break;
  }
  for (const p of extra) roots.add(real(resolve(p)));
  return [...roots];
}

/**
 * The runtime files the child script imports from outside its own folder: the
 * digest functions and the reading of thrown values, in tsc's layout
 * (dist/handlers/digest.js, dist/model/thrown.js); in the CLI's bundle they
 * are chunks beside the script.
 */
export function childImports(): string[] {
  const entry = pathToFileURL(childEntryPath());
  return ["../handlers/digest.js", "../model/thrown.js"]
    .map((rel) => fileURLToPath(new URL(rel, entry)))
    .filter((path) => existsSync(path));
}

/**
 * The real folders of symbolic links among a node_modules folder's packages
 * (one level, and one inside each @scope), and what those packages link in
 * turn: in pnpm's layout a linked package lives at
 * `.pnpm/<name>@<version>/node_modules/<name>`, its own dependencies are links
 * beside it in that node_modules folder, and so on down the tree.
 */
function linkedPackages(nm: string): string[] {
  const out = new Set<string>();
  const seen = new Set<string>();
  const folders = [nm];
  const visit = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isSymbolicLink()) {
        let target: string;
        try {
          if (!statSync(path).isDirectory()) continue;
          target = realpathSync(path);
        } catch {
          continue; // a dangling link: nothing to read there
        }
        // the node_modules folder the package sits in holds its dependencies (pnpm), @scope or not:
        // readable whole, and followed; otherwise the package's own folder
        const parent = dirname(target);
        const holder = basename(parent).startsWith("@") ? dirname(parent) : parent;
        if (basename(holder) === "node_modules") {
          out.add(holder);
          folders.push(holder);
        } else out.add(target);
      } else if (depth === 0 && e.isDirectory() && e.name.startsWith("@")) visit(path, 1);
    }
  };
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    const key = real(folder);
    if (seen.has(key)) continue;
    seen.add(key);
    visit(folder, 0);
  }
  return [...out];
}

export interface LaunchSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  network: "isolated" | "not isolated";
}

/**
 * The command line of one handler process: one `--allow-fs-read` per folder
 * (Node 20.20 takes the flag repeated; a comma is part of a path there).
 */
export function launchSpec(o: {
  readRoots: readonly string[];
  attemptDir: string;
  env: Record<string, string>;
  isolateNetwork: boolean;
}): LaunchSpec {
  const reads = [...o.readRoots, o.attemptDir];
  const node = [
    "--experimental-permission",
    ...reads.map((p) => `--allow-fs-read=${p}`),
    `--allow-fs-write=${o.attemptDir}`,
    "--disable-warning=ExperimentalWarning",
    childEntryPath(),
  ];
  const unshare = o.isolateNetwork ? unshareCommand() : undefined;
  return unshare
    ? { command: unshare, args: ["-rn", process.execPath, ...node], env: o.env, network: "isolated" }
    : { command: process.execPath, args: node, env: o.env, network: "not isolated" };
}

/** The worker's environment reduced to the variables named by the run configuration (`--handler-env`). */
export function handlerEnv(names: readonly string[], from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    const v = from[name];
    if (v !== undefined) env[name] = v;
  }
  return env;
}
