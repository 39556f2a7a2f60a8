/**
 * `taskspec ui --store <url> [--port N] [--host H] [--token-file F]`: serves
 * the operator console (runs list, run panel, unit page, takeover page with
 * the decisions as buttons) from this package, on 127.0.0.1 by default, and
 * prints its URL with the access token every request must carry.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { startConsole } from "../console/server.js";
import { hostRefusal, newToken } from "../console/security.js";
import { UserError } from "../user-error.js";
import { OPERATOR_KEY_HELP, operatorActing, STORE_HELP, withStore } from "./run-support.js";

export function register(program: Command): void {
  program
    .command("ui")
    .description("Serve the operator console for a store in the browser (token-protected, 127.0.0.1 by default).")
    .option("--store <url>", STORE_HELP)
    .option("--port <n>", "port to listen on (0: any free port)", "7480")
    .option("--host <address>", "address to listen on; anything but loopback needs --token-file", "127.0.0.1")
    .option("--token-file <path>", "file holding the access token to require (default: a new random token per start)")
    .option("--by <name>", "who the console's decisions are recorded as (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP)
    .option("--exit-after-start", "print the URL and stop (checks the store and the address)")
    .action(
      async (o: {
        store?: string;
        port: string;
        host: string;
        tokenFile?: string;
        by?: string;
        operatorKeyFile?: string;
        exitAfterStart?: boolean;
      }) => {
        const port = Number(o.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new UserError(`--port must be a port number, not ${JSON.stringify(o.port)}`, 2);
        const refused = hostRefusal(o.host, o.tokenFile);
        if (refused) throw new UserError(refused, 2);
        const token = o.tokenFile ? tokenIn(o.tokenFile) : newToken();
        const acting = operatorActing(o);
        await withStore(o.store, async (store) => {
          let started: Awaited<ReturnType<typeof startConsole>>;
          try {
            started = await startConsole({ store, storeFlag: o.store, host: o.host, port, token, acting });
          } catch (err) {
            throw new UserError(`cannot listen on ${o.host}:${port}: ${(err as Error).message}`, 2);
          }
          process.stdout.write(`taskspec console: ${started.url}\n`);
          if (o.exitAfterStart) return started.close();
          process.stderr.write("(every request needs the token in that URL; Ctrl-C stops the console)\n");
          await new Promise<void>((resolve) => {
            const stop = () => void started.close().then(resolve);
            process.once("SIGINT", stop);
            process.once("SIGTERM", stop);
          });
        });
      },
    );
}

function tokenIn(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (err) {
    throw new UserError(`cannot read --token-file '${file}': ${(err as Error).message}`, 2);
  }
  if (!/^[A-Za-z0-9_-]{24,256}$/.test(text))
    throw new UserError(`--token-file '${file}' must hold one token of at least 24 letters, digits, - or _`, 2);
  return text;
}
