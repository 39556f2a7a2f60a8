/**
 * `taskspec handoff <run> [--format markdown|json] [--out DIR] [--bundle FILE]`:
 * the export for a person taking over, generated from the structured state;
 * with --out both handoff.json and handoff.md are written. With --bundle, the
 * run bundle instead (operator/run-bundle.ts): every row and artifact of the
 * run in one file that `taskspec import` loads into another store.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Option, type Command } from "commander";
import { bundleRun, handoffMarkdown, handoffOf } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { readableText, STORE_HELP, withArtifacts, withStore } from "./run-support.js";

export function register(program: Command): void {
  program
    .command("handoff")
    .description("Export a run for a person taking over: JSON plus a Markdown narrative from the same state.")
    .argument("<run>", "run id")
    .option("--store <url>", STORE_HELP)
    .option("--out <dir>", "write handoff.json and handoff.md into this directory")
    .option("--bundle <file>", "write the run bundle (every row and artifact of the run) for `taskspec import` instead")
    .addOption(new Option("--format <format>", "what to print").choices(["markdown", "json"]).default("markdown"))
    .action(async (run: string, o: { store?: string; out?: string; bundle?: string; format: "markdown" | "json" }) => {
      await withStore(o.store, async (store) => {
        const r = await store.getRun(run);
        if (!r) throw new UserError(`no run ${run} in this store`, 2);
        if (o.bundle) {
          const file = o.bundle;
          const bundle = await withArtifacts(o.store, r.origin.artifactRoot, (storage) =>
            bundleRun(store, storage, run, { now: new Date().toISOString(), contractText: readableText }),
          );
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, `${JSON.stringify(bundle)}\n`);
          const missing = bundle.artifacts.filter((a) => a.bytes === undefined).length;
          process.stderr.write(
            `taskspec: wrote run bundle ${file} (run ${run}, ${bundle.rows.events.length} events, ${bundle.artifacts.length} artifacts` +
              `${missing ? `, ${missing} without bytes` : ""}; digest ${bundle.digest.slice(0, 12)}); load it with: taskspec import ${file} --store <url>\n`,
          );
          return;
        }
        const h = await withArtifacts(o.store, r.origin.artifactRoot, (storage) => handoffOf(store, storage, run));
        const json = `${JSON.stringify(h, null, 2)}\n`;
        const md = handoffMarkdown(h);
        if (o.out) {
          mkdirSync(o.out, { recursive: true });
          writeFileSync(join(o.out, "handoff.json"), json);
          writeFileSync(join(o.out, "handoff.md"), md);
          process.stderr.write(`taskspec: wrote ${join(o.out, "handoff.json")} and ${join(o.out, "handoff.md")}\n`);
        }
        process.stdout.write(o.format === "json" ? json : md);
      });
    });
}
