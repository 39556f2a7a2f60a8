/**
 * code-server (VS Code in a browser) as a test fixture: install it once per
 * machine with scripts/setup-code-server.sh, start it in its own session and
 * process group with private user-data, extensions and XDG folders, and stop
 * it by killing that whole group. Every process it starts carries a marker in
 * its environment, so a test can prove none outlived the stop.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, openSync, closeSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

const SETUP_SCRIPT = join(import.meta.dirname, "..", "..", "scripts", "setup-code-server.sh");

export type Install = { bin: string } | { unavailable: string };

/** Runs the setup script (a no-op when code-server is already installed). */
export function installCodeServer(): Install {
  const run = spawnSync("bash", [SETUP_SCRIPT], { encoding: "utf8", timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
  const bin = run.stdout?.trim().split("\n").pop();
  if (run.status === 0 && bin) return { bin };
  const why = run.error ? String(run.error) : `exit ${run.status}`;
  return { unavailable: `${SETUP_SCRIPT} failed (${why}):\n${(run.stderr ?? "").split("\n").slice(-25).join("\n")}` };
}

export interface CodeServerDirs {
  /** Root of everything this instance writes: user data, extensions, XDG folders, its log. */
  root: string;
}

function dirsOf(root: string) {
  return {
    userData: join(root, "user-data"),
    extensions: join(root, "extensions"),
    xdg: join(root, "xdg"),
    log: join(root, "code-server.log"),
  };
}

/** The environment code-server and everything it starts run with. */
function environment(root: string, marker: string): NodeJS.ProcessEnv {
  const { xdg } = dirsOf(root);
  const env: NodeJS.ProcessEnv = { ...process.env, TASKSPEC_E2E_MARKER: marker };
  for (const variable of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"]) {
    const dir = join(xdg, variable.toLowerCase());
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    env[variable] = dir;
  }
  // Inherited from a parent VS Code these would point the server elsewhere.
  for (const name of Object.keys(env)) if (name.startsWith("VSCODE_")) delete env[name];
  return env;
}

export function installExtension(bin: string, root: string, vsix: string): void {
  const { userData, extensions } = dirsOf(root);
  const run = spawnSync(bin, ["--user-data-dir", userData, "--extensions-dir", extensions, "--install-extension", vsix], {
    encoding: "utf8",
    env: environment(root, "install"),
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`code-server --install-extension failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
}

export interface RunningCodeServer {
  url: string;
  pgid: number;
  log: string;
  /** Kills the process group and waits until no process of it, or with its marker, is left. */
  stop(): Promise<void>;
  /** Processes still alive that this instance started (by environment marker). */
  survivors(): number[];
}

export async function startCodeServer(bin: string, root: string, workspace: string): Promise<RunningCodeServer> {
  const { userData, extensions, log } = dirsOf(root);
  const port = await freePort();
  const marker = `taskspec-e2e-${process.pid}-${port}`;
  const logFd = openSync(log, "a");
  // detached: the child calls setsid(), so it leads a new session and process group.
  const child = spawn(
    bin,
    [
      "--config",
      "/dev/null",
      "--bind-addr",
      `127.0.0.1:${port}`,
      "--auth",
      "none",
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--user-data-dir",
      userData,
      "--extensions-dir",
      extensions,
      workspace,
    ],
    { detached: true, stdio: ["ignore", logFd, logFd], env: environment(root, marker) },
  );
  closeSync(logFd);
  const pgid = child.pid;
  if (pgid === undefined) throw new Error(`code-server did not start; see ${log}`);
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (exited) throw new Error(`code-server exited during startup:\n${readFileSync(log, "utf8")}`);
      return (
        (await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )) || undefined
      );
    },
    60_000,
    `code-server /healthz at ${url}`,
  );

  const survivors = () => processesWithMarker(marker);
  return {
    url,
    pgid,
    log,
    survivors,
    async stop() {
      signalGroup(pgid, "SIGTERM");
      const quiet = () => (!groupAlive(pgid) && survivors().length === 0) || undefined;
      try {
        await until(async () => quiet(), 10_000, "code-server to exit after SIGTERM");
      } catch {
        signalGroup(pgid, "SIGKILL");
        for (const pid of survivors()) signal(pid, "SIGKILL");
        await until(async () => quiet(), 10_000, "code-server to exit after SIGKILL");
      }
    },
  };
}

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  signal(-pgid, sig);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

/** True while any process of the group is alive (zombies of a reaped leader do not count). */
function groupAlive(pgid: number): boolean {
  for (const pid of listPids()) {
    const stat = readProc(pid, "stat");
    if (!stat) continue;
    // Fields after the parenthesised command: state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
  }
  return false;
}

function processesWithMarker(marker: string): number[] {
  const needle = `TASKSPEC_E2E_MARKER=${marker}\0`;
  return listPids().filter((pid) => {
    const stat = readProc(pid, "stat");
    const state = stat?.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && (readProc(pid, "environ") ?? "").includes(needle);
  });
}

function listPids(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined; // the process ended while we looked
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it returns a value; throws after `ms` naming what it waited for. */
export async function until<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
