/**
 * Simulated hosts for the PostgreSQL tests: a CLI process in its own mount
 * and UTS namespace (its own hostname, its scratch space on a private tmpfs,
 * no shared artifact directory), and `pg_ctl` run as the server's owner.
 * Shared by test/postgres-hosts-restart.test.ts and
 * test/postgres-frozen-host.test.ts.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));

export const unshareMissing = (): string | undefined =>
  spawnSync("unshare", ["--mount", "--uts", "true"]).status === 0 ? undefined : "unshare --mount --uts is not permitted here (needs root)";

export interface HostProcess {
  child: ChildProcess;
  done: Promise<number | null>;
  err: () => string;
}

/** A CLI process on a simulated host: its own hostname and a private tmpfs for its scratch space (the child is the CLI's node process itself). */
export function onHost(host: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): HostProcess {
  mkdirSync(join(cwd, "tmp"), { recursive: true });
  const child: ChildProcess = spawn(
    "unshare",
    [
      "--mount",
      "--uts",
      "--propagation",
      "private",
      "sh",
      "-c",
      `hostname ${host} && mount -t tmpfs none "$TMPDIR" && exec "$0" "$@"`,
      process.execPath,
      CLI,
      ...args,
    ],
    {
      cwd,
      env: { ...process.env, TASKSPEC_CRASH_AT: "", TASKSPEC_ISOLATION: "none", TMPDIR: join(cwd, "tmp"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  child.stdout!.resume();
  return { child, done: new Promise<number | null>((r) => child.on("close", (code) => r(code))), err: () => err };
}

/** `pg_ctl` as the server's owner; its output goes to its log file (a server holding this process's pipe would keep spawnSync waiting). */
export const pgCtlAsOwner = (pgCtl: string, args: string[]) =>
  process.getuid?.() === 0
    ? spawnSync("runuser", ["-u", "postgres", "--", pgCtl, ...args], { stdio: "ignore", timeout: 60_000 })
    : spawnSync(pgCtl, args, { stdio: "ignore", timeout: 60_000 });

/** Polls `pred` every 50 ms for up to `ms` (default two minutes); the caller asserts it held. */
export async function waitFor(pred: () => boolean, ms = 120_000): Promise<boolean> {
  for (let i = 0; i < ms / 50 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
  return pred();
}
