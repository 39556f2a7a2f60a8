/**
 * Packs the publishable packages (`npm pack`, which runs each prepack: tsc and
 * the CLI bundle) and installs the tarballs into a fresh project outside the
 * checkout, as a user would: `npm i -D ./taskspec-*.tgz`. Registry
 * dependencies come from the npm registry (the cache first).
 *
 * One shortcut, for CI time: better-sqlite3 compiles from source on install
 * (its prebuilt binaries live on GitHub), minutes on a loaded 2-core machine.
 * The project installs with --ignore-scripts and receives the checkout's
 * binary of the same better-sqlite3 version instead (asserted equal), which is
 * what that install step would have built.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = ["compiler", "runtime", "lsp", "cli"];

export interface Installed {
  project: string;
  tarballs: string[];
  /** Runs a command in the project; never throws. */
  sh(cmd: string, args: string[], env?: Record<string, string>): SpawnSyncReturns<string>;
}

export function packAndInstall(extraDevDeps: string[] = []): Installed {
  const root = mkdtempSync(join(tmpdir(), "taskspec-installed-"));
  const packDir = join(root, "tarballs");
  mkdirSync(packDir);
  execFileSync("npm", ["pack", "--pack-destination", packDir, ...PACKAGES.flatMap((p) => ["-w", p])], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tarballs = readdirSync(packDir).map((f) => join(packDir, f));
  const project = join(root, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), `${JSON.stringify({ name: "user-project", private: true, type: "module" }, null, 2)}\n`);
  execFileSync("npm", ["install", "-D", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs, ...extraDevDeps], {
    cwd: project,
    stdio: ["ignore", "pipe", "pipe"],
  });
  copyNativeSqlite(project);
  const sh = (cmd: string, args: string[], env: Record<string, string> = {}) =>
    spawnSync(cmd, args, {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, TASKSPEC_CRASH_AT: "", NO_COLOR: "1", ...env },
      timeout: 120_000,
    });
  return { project, tarballs, sh };
}

function copyNativeSqlite(project: string): void {
  const ours = join(REPO, "node_modules", "better-sqlite3");
  const theirs = join(project, "node_modules", "better-sqlite3");
  const version = (dir: string) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;
  if (version(ours) !== version(theirs))
    throw new Error(`better-sqlite3 ${version(theirs)} installed, the checkout has ${version(ours)}: cannot reuse its binary`);
  mkdirSync(join(theirs, "build", "Release"), { recursive: true });
  copyFileSync(join(ours, "build", "Release", "better_sqlite3.node"), join(theirs, "build", "Release", "better_sqlite3.node"));
}
