/**
 * `taskspec runs [--store URL] [--format text|json]`: the runs of a store,
 * newest first, with their state (as `status` derives it), plan version,
 * checkpoint and last progress; below, the workers that skipped a run they
 * could not load (operator/skipped.ts).
 */
import { Option, type Command } from "commander";
import { runsOf } from "@taskspec/runtime";
import { STORE_HELP, withStore } from "./run-support.js";

export function register(program: Command): void {
  program
    .command("runs")
    .description("List the runs of a store: state, plan version, checkpoint, units done, last progress.")
    .option("--store <url>", STORE_HELP)
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .action(async (o: { store?: string; format: "text" | "json" }) => {
      await withStore(o.store, async (store) => {
        const runs = await runsOf(store);
        if (o.format === "json") return void process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
        if (runs.length === 0) return void process.stdout.write("no runs in this store\n");
        const rows = runs.map((r) => [
          r.run,
          r.task,
          r.status,
          r.planVersion,
          `v${r.checkpoint}`,
          `${r.units.succeeded}/${r.units.total}${r.units.failed ? ` (${r.units.failed} failed)` : ""}`,
          r.lastProgressAt,
        ]);
        const header = ["RUN", "TASK", "STATE", "PLAN", "CHECKPOINT", "DONE", "LAST PROGRESS"];
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
        for (const row of [header, ...rows])
          process.stdout.write(`${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")}\n`);
        for (const r of runs)
          for (const k of r.skipped ?? []) process.stdout.write(`${r.run}: skipped by worker ${k.worker} (${k.at}): ${k.reason}\n`);
      });
    });
}
