/**
 * Starts a local remote as a separate process (the way the demo, the e2e
 * tests and the peers benchmark use them) and waits for the JSON line with
 * its port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const SERVICE_NAMES = ["blog", "booking", "mail"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceProcess {
  name: ServiceName;
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
}

export function serviceScript(name: ServiceName): string {
  return fileURLToPath(new URL(`./${name}.js`, import.meta.url));
}

export async function spawnService(
  name: ServiceName,
  options: { dataDir: string; port?: number; faults?: object },
): Promise<ServiceProcess> {
  const args = [serviceScript(name), "--port", String(options.port ?? 0), "--data", options.dataDir, "--exit-with-parent"];
  if (options.faults) args.push("--faults", JSON.stringify(options.faults));
  // stdin stays open as a lifeline: when this process dies, the service sees it close and exits.
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (first) => {
      lines.close();
      resolve(first);
    });
    child.once("exit", (code) => reject(new Error(`${name} service exited (${code}) before reporting its port: ${stderr.trim()}`)));
  });
  const { url, port } = JSON.parse(line) as { url: string; port: number };
  return {
    name,
    url,
    port,
    child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
