/**
 * The shape every previewed decision command shares: `--dry-run` prints the
 * preview and its basis and records nothing; a decision prints what it did;
 * `--if-preview <basis>` makes the decision refuse (exit 1, the fresh
 * preview printed) when the run moved past the preview a person looked at.
 */
import type { Command } from "commander";
import { StalePreviewError, type operator, type Store } from "@taskspec/runtime";
import { printPreview } from "./operator-print.js";
import { operatorActing, withStore } from "./run-support.js";
import { storeNow } from "./store-clock.js";

type Preview = operator.Preview;
type Made = { preview: Preview; basis: string };

export interface PreviewOptions {
  store?: string;
  by?: string;
  operatorKeyFile?: string;
  dryRun?: boolean;
  ifPreview?: string;
}

export const PREVIEW_OPTIONS = (cmd: Command): Command =>
  cmd
    .option("--dry-run", "print what it would do and its preview basis; record nothing")
    .option("--if-preview <basis>", "decide only if the run is still as the preview with this basis (from --dry-run) showed it");

export async function decideOnPreview(
  o: PreviewOptions,
  steps: {
    preview: (store: Store, now: string) => Promise<Made>;
    decide: (store: Store, acting: ReturnType<typeof operatorActing>, now: string, expected: operator.Expectation) => Promise<Made>;
    after?: string;
  },
): Promise<void> {
  const acting = o.dryRun ? undefined : operatorActing(o);
  await withStore(o.store, async (store) => {
    const now = await storeNow(store);
    if (!acting) {
      const made = await steps.preview(store, now);
      printPreview(made.preview, false);
      process.stdout.write(`  preview basis: ${made.basis} (decide on exactly this with --if-preview ${made.basis})\n`);
      return;
    }
    try {
      const made = await steps.decide(store, acting, now, o.ifPreview !== undefined ? { basis: o.ifPreview } : undefined);
      printPreview(made.preview, true);
      if (steps.after) process.stdout.write(`${steps.after}\n`);
    } catch (err) {
      if (err instanceof StalePreviewError) {
        const fresh = await steps.preview(store, now).catch(() => undefined);
        if (fresh) {
          printPreview(fresh.preview, false);
          process.stdout.write(`  preview basis: ${fresh.basis}\n`);
        }
      }
      throw err;
    }
  });
}
