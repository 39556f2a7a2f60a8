/**
 * `taskspec events <run> [--follow] [--format text|json] [--after N]`: the
 * run's event log in order, one line per event (JSON Lines with --format
 * json). `--follow` keeps polling for new events until interrupted, or until
 * the run is no longer active.
 */
import { Option, type Command } from "commander";
import { eventsOf, formatEvent, type RunEvent } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { parseDuration, STORE_HELP, withStore } from "./run-support.js";

interface EventsOptions {
  store?: string;
  follow?: boolean;
  after?: string;
  poll: string;
  format: "text" | "json";
}

export function register(program: Command): void {
  program
    .command("events")
    .description("Print a run's event log (--follow: keep printing new events until the run is no longer active).")
    .argument("<run>", "run id")
    .option("--store <url>", STORE_HELP)
    .option("--follow", "keep polling for new events; stops when the run is done, failed or cancelled")
    .option("--after <seq>", "only events after this sequence number")
    .option("--poll <duration>", "how often --follow looks for new events", "500ms")
    .addOption(new Option("--format <format>", "text, or json (one JSON object per line)").choices(["text", "json"]).default("text"))
    .action(async (run: string, o: EventsOptions) => {
      const after = o.after === undefined ? undefined : Number(o.after);
      if (after !== undefined && !Number.isInteger(after))
        throw new UserError(`--after must be an event sequence number, not ${o.after}`, 2);
      const pollMs = parseDuration(o.poll);
      const print = (e: RunEvent) => process.stdout.write(`${o.format === "json" ? JSON.stringify(e) : formatEvent(e)}\n`);
      await withStore(o.store, async (store) => {
        let last = after;
        for (;;) {
          const events = await eventsOf(store, run, last);
          for (const e of events) print(e);
          if (events.length > 0) last = events[events.length - 1]!.seq ?? last;
          if (!o.follow) return;
          // stop once the run is settled and the log holds nothing newer
          const r = await store.getRun(run);
          if (r && r.status !== "active" && events.length === 0) return;
          await new Promise((resolve) => setTimeout(resolve, pollMs));
        }
      });
    });
}
