/**
 * `taskspec import <bundle> --store <url> [--artifacts LOCATION]`: loads a run
 * bundle (`taskspec handoff --bundle`) into another store for offline
 * reproduction: the bundle is checked whole first (format version, digest,
 * every artifact's hash), then the artifacts' bytes and every row go in, ids
 * as they were. The imported run is for reading: `resume`, `run` and the
 * workers refuse to drive it (docs/operator.md, "Run bundles").
 */
import type { Command } from "commander";
import { BundleError, importBundle, readBundle } from "@taskspec/runtime";
import { readFileSync } from "node:fs";
import { UserError } from "../user-error.js";
import { artifactLocationFlag, defaultArtifactRoot, STORE_HELP, withArtifacts, withStore } from "./run-support.js";

export function register(program: Command): void {
  program
    .command("import")
    .description("Load a run bundle (taskspec handoff --bundle) into this store, to read the run here.")
    .argument("<bundle>", "the bundle file")
    .option("--store <url>", STORE_HELP)
    .option(
      "--artifacts <location>",
      "where the run's artifacts go: a directory, pg: or s3://bucket/prefix?endpoint=URL (default: beside a SQLite store)",
    )
    .action(async (file: string, o: { store?: string; artifacts?: string }) => {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (err) {
        throw new UserError(`cannot read '${file}': ${(err as Error).message}`, 2);
      }
      let bundle;
      try {
        bundle = readBundle(text, file);
      } catch (err) {
        if (err instanceof BundleError) throw new UserError(err.message, 1);
        throw err;
      }
      const location = o.artifacts ? artifactLocationFlag(o.artifacts) : defaultArtifactRoot(o.store);
      await withStore(o.store, async (store) => {
        const done = await withArtifacts(o.store, location, (storage) => importBundle(store, storage, bundle, new Date().toISOString()));
        process.stderr.write(
          `taskspec: imported run ${done.run} (${bundle.rows.events.length} events, ${done.artifacts} artifact files written to ${location}); ` +
            `read it with taskspec status ${done.run}; it is a copy for reading: resume, run and workers leave it alone\n`,
        );
      });
    });
}
