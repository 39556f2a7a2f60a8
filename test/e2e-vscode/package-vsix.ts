/** Builds the .vsix fresh with the root `npm run package`, as a user would. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const REPO = join(import.meta.dirname, "..", "..");

export function packageVsix(): string {
  const { name, version } = JSON.parse(readFileSync(join(REPO, "extension", "package.json"), "utf8")) as { name: string; version: string };
  const vsix = join(REPO, "dist", `${name}-${version}.vsix`);
  rmSync(vsix, { force: true });
  const run = spawnSync("npm", ["run", "package"], { cwd: REPO, encoding: "utf8", timeout: 5 * 60_000 });
  if (run.status !== 0 || !existsSync(vsix)) {
    throw new Error(`npm run package failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  }
  return vsix;
}
