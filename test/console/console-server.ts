/** Starts `taskspec ui` as a real process on a free port and hands back its URL and token. */
import { once } from "node:events";
import { spawnCli } from "../runtime-harness.js";

export interface Console {
  base: string;
  token: string;
  url: string;
  stop(): Promise<void>;
}

export async function startUi(store: string, extra: string[] = [], env: Record<string, string> = {}): Promise<Console> {
  const { child, done } = spawnCli(["ui", "--store", store, "--port", "0", ...extra], env);
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /taskspec console: (http:\/\/\S+)\n/.exec(out);
      if (m) resolve(m[1]!);
    });
    void done.then((r) => reject(new Error(`taskspec ui exited ${r.code}: ${r.stderr}`)));
  });
  const parsed = new URL(url);
  return {
    base: parsed.origin,
    token: parsed.searchParams.get("token")!,
    url,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "close");
      }
    },
  };
}
