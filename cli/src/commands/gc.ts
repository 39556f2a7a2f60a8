/**
 * `taskspec gc --older-than 30d [--store URL] [--artifacts LOC] [--dry-run]
 * [--format text|json]`: bounded history. For every run of the store that
 * ended before the window (never one in flight) it removes the files of
 * superseded and rejected artifacts, orphan files and the payloads of events
 * that are not audit facts, on the run's own artifact backend; manifests,
 * hashes, checkpoints, records, effect receipts and the events of decisions
 * and approvals stay, and `status`, `show` and `handoff` say what went and
 * when. `--artifacts` limits it to the runs whose artifacts live there.
 */
import { Option, type Command } from "commander";
import { collectGarbage, type GcOutcome } from "@taskspec/runtime";
import { ArtifactBackends, artifactLocationFlag, parseDuration, STORE_HELP, withStore } from "./run-support.js";
import { storeNow } from "./store-clock.js";

/** Ten years: a window longer than that keeps everything. */
const MAX_WINDOW_MS = 3650 * 86_400_000;

interface GcFlags {
  olderThan: string;
  store?: string;
  artifacts?: string;
  dryRun?: boolean;
  format: "text" | "json";
}

export function register(program: Command): void {
  program
    .command("gc")
    .description(
      "Remove superseded artifacts, orphans and event payloads of runs that ended before the window; keeps baseline commits and audit facts.",
    )
    .requiredOption("--older-than <duration>", "the audit window: only runs that ended before it, and only what is older (e.g. 30d)")
    .option("--store <url>", STORE_HELP)
    .option("--artifacts <location>", "only the runs whose artifacts live here (a directory, pg: or s3://bucket/prefix?endpoint=)")
    .option("--dry-run", "print what would go; remove nothing")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .action(async (o: GcFlags) => {
      const windowMs = parseDuration(o.olderThan, "--older-than", MAX_WINDOW_MS);
      const location = o.artifacts !== undefined ? artifactLocationFlag(o.artifacts) : undefined;
      await withStore(o.store, async (store) => {
        // the runs' times are the store's: the window is measured on its clock
        const now = new Date(await storeNow(store));
        const cutoff = new Date(now.getTime() - windowMs).toISOString();
        const backends = new ArtifactBackends(o.store);
        try {
          const outcomes = await collectGarbage(store, (loc) => backends.get(loc), {
            cutoff,
            olderThan: o.olderThan,
            now: now.toISOString(),
            dryRun: o.dryRun === true,
            ...(location !== undefined ? { location } : {}),
          });
          process.stdout.write(
            o.format === "json"
              ? `${JSON.stringify({ cutoff, dryRun: o.dryRun === true, runs: outcomes }, null, 2)}\n`
              : renderGc(outcomes, cutoff, o.dryRun === true),
          );
        } finally {
          await backends.close();
        }
      });
    });
}

export function renderGc(outcomes: readonly GcOutcome[], cutoff: string, dryRun: boolean): string {
  const out = [`${dryRun ? "would collect (dry run, nothing removed)" : "collected"}: runs that ended before ${cutoff}`];
  for (const x of outcomes) {
    if (x.kind === "skip") {
      out.push(`  ${x.run}: kept whole: ${x.reason}`);
      continue;
    }
    if (x.state === "nothing") {
      out.push(`  ${x.run}: nothing to collect`);
      for (const s of x.shared) out.push(`    kept: ${s.path} (still current in ${s.runs.join(", ")})`);
      continue;
    }
    const verb = x.state === "collected" ? "removed" : "would remove";
    out.push(
      `  ${x.run} (${x.location}): ${verb} ${x.superseded.length} superseded and ${x.rejected.length} rejected artifact file(s), ${x.orphans.length} orphan file(s), ${x.payloads.length} event payload(s)`,
    );
    for (const p of x.superseded) out.push(`    superseded: ${p}`);
    for (const p of x.rejected) out.push(`    rejected: ${p}`);
    for (const p of x.orphans) out.push(`    orphan: ${p}`);
    for (const s of x.shared) out.push(`    kept: ${s.path} (still current in ${s.runs.join(", ")})`);
  }
  if (outcomes.length === 0) out.push("  no runs");
  return `${out.join("\n")}\n`;
}
