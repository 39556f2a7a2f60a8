/**
 * The options of every command that drives a run with a Worker (`run`,
 * `resume`, `worker`): defined once so their help text and defaults cannot
 * drift apart between the three. Functions, so each command gets its own
 * Option objects.
 */
import { Option } from "commander";

export const concurrencyOption = () => new Option("--concurrency <n>", "units run at once in this worker").default("1");

export const leaseTtlOption = () =>
  new Option("--lease-ttl <duration>", "how long a unit's lease lasts without renewal (takeover waits for it)").default("30s");
