/**
 * Harness for the runtime's end-to-end tests: fresh local services (the
 * examples' blog, booking and mail processes on 127.0.0.1), a temp store and
 * artifact root, and the real `taskspec` CLI run as child processes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SqliteStore } from "../runtime/src/store/sqlite.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const FIXTURES = join(ROOT, "runtime/test/fixtures");
const CLI = join(ROOT, "cli/bin/taskspec.js");

interface ServiceProcess {
  url: string;
  stop(): Promise<void>;
}
type Spawn = (name: "blog" | "booking" | "mail", o: { dataDir: string; faults?: object }) => Promise<ServiceProcess>;

export interface Stats {
  counters: Record<string, number>;
  callsPerKey: Record<string, number>;
}

export interface Harness {
  dir: string;
  db: string;
  store: string;
  env: Record<string, string>;
  services: Record<"blog" | "booking" | "mail", ServiceProcess>;
  cli(
    args: string[],
    env?: Record<string, string>,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  stats(name: "blog" | "booking" | "mail"): Promise<Stats>;
  faults(name: "blog" | "booking" | "mail", faults: object): Promise<void>;
  get(name: "blog" | "booking" | "mail", path: string): Promise<unknown>;
  invocations(): string[];
  open(): Promise<SqliteStore>;
  stop(): Promise<void>;
}

export async function harness(): Promise<Harness> {
  const { spawnService } = (await import(join(ROOT, "examples/dist/remote/spawn.js"))) as { spawnService: Spawn };
  const dir = mkdtempSync(join(tmpdir(), "taskspec-e2e-"));
  const log = join(dir, "invocations.log");
  writeFileSync(log, "");
  const [blog, booking, mail] = await Promise.all(
    (["blog", "booking", "mail"] as const).map((n) => spawnService(n, { dataDir: join(dir, n) })),
  );
  const services = { blog: blog!, booking: booking!, mail: mail! };
  const env = {
    TASKSPEC_BLOG_URL: blog!.url,
    TASKSPEC_BOOKING_URL: booking!.url,
    TASKSPEC_MAIL_URL: mail!.url,
    TASKSPEC_TEST_LOG: log,
    TASKSPEC_CRASH_AT: "",
  };
  const db = join(dir, "store.db");
  const h: Harness = {
    dir,
    db,
    store: `sqlite:${db}`,
    env,
    services,
    cli: (args, extra = {}) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args, "--store", `sqlite:${db}`], {
          env: { ...process.env, ...env, ...extra },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
      }),
    stats: async (name) => (await (await fetch(`${services[name].url}/stats`)).json()) as Stats,
    faults: async (name, faults) => {
      await fetch(`${services[name].url}/_admin/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(faults),
      });
    },
    get: async (name, path) => (await fetch(`${services[name].url}${path}`)).json(),
    invocations: () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean),
    open: async () => {
      const s = new SqliteStore({ path: db });
      await s.init();
      return s;
    },
    stop: async () => {
      await Promise.all(Object.values(services).map((s) => s.stop()));
    },
  };
  return h;
}

export const REMOTE_CONTRACT = join(FIXTURES, "remote.task.yaml");
export const REMOTE_HANDLERS = join(FIXTURES, "remote-handlers.mjs");
export const runArgs = (run: string, contract = REMOTE_CONTRACT, handlers = REMOTE_HANDLERS) => [
  "run",
  contract,
  "--handlers",
  handlers,
  "--run",
  run,
];
