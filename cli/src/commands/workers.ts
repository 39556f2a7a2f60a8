/**
 * `taskspec workers [--store URL] [--dead-after DURATION] [--all]
 * [--format text|json]`: the worker processes of a store, from its workers
 * table: each one's host and pid, its last heartbeat (by the store's clock),
 * whether it is live, silent past the bound (its leases are taken over) or
 * stopped, and the leases it holds. Stopped workers are listed with --all.
 */
import { Option, type Command } from "commander";
import { HEARTBEAT, workersView, type WorkerView } from "@taskspec/runtime";
import { parseDuration, STORE_HELP, withStore } from "./run-support.js";

interface WorkersFlags {
  store?: string;
  deadAfter: string;
  all?: boolean;
  format: "text" | "json";
}

export function register(program: Command): void {
  program
    .command("workers")
    .description("List the store's worker processes: heartbeat, live/silent/stopped, the leases each holds.")
    .option("--store <url>", STORE_HELP)
    .option("--dead-after <duration>", "the bound the workers judge silence by (as their --dead-after)", `${HEARTBEAT.staleMs / 1000}s`)
    .option("--all", "list stopped workers too")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .action(async (o: WorkersFlags) => {
      const staleMs = parseDuration(o.deadAfter, "--dead-after");
      await withStore(o.store, async (store) => {
        const snapshot = await store.listWorkers();
        const views = workersView(snapshot, staleMs).filter((w) => o.all || w.state !== "stopped");
        process.stdout.write(
          o.format === "json" ? `${JSON.stringify({ at: snapshot.at, workers: views }, null, 2)}\n` : renderWorkers(views, snapshot.at),
        );
      });
    });
}

function renderWorkers(views: WorkerView[], at: string): string {
  if (views.length === 0) return `no workers (store time ${at})\n`;
  const rows = views.map((w) => [
    w.id,
    w.state,
    `${(w.silentMs / 1000).toFixed(1)}s ago`,
    String(w.leases.length),
    w.leases.map((l) => `${l.run}/${l.unit}`).join(" "),
  ]);
  const head = ["WORKER", "STATE", "HEARTBEAT", "LEASES", "UNITS"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return `${[head, ...rows].map(line).join("\n")}\n`;
}
