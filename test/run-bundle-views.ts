/**
 * What a person reads of a run, as JSON: `status`, `show` of every unit,
 * `events` and `handoff`. A run imported from a bundle must read the same as
 * its original (test/cli-import.test.ts, test/postgres-import.test.ts).
 */
import { expect } from "vitest";
import type { CliResult } from "./runtime-harness.js";

export interface RunViews {
  status: unknown;
  show: Record<string, unknown>;
  events: string;
  handoff: unknown;
}

export async function viewsOf(cli: (args: string[]) => Promise<CliResult>, run: string): Promise<RunViews> {
  const json = async (args: string[]) => {
    const out = await cli(args);
    expect(out.code, `${args.join(" ")}: ${out.stderr}`).toBe(0);
    return out.stdout;
  };
  const status = JSON.parse(await json(["status", run, "--format", "json"])) as { units: Array<{ unit: string }> };
  const show: Record<string, unknown> = {};
  for (const u of status.units) show[u.unit] = JSON.parse(await json(["show", run, u.unit, "--format", "json"]));
  return {
    status,
    show,
    events: await json(["events", run, "--format", "json"]),
    // the one field that is the moment of reading, not the run
    handoff: { ...(JSON.parse(await json(["handoff", run, "--format", "json"])) as object), generatedAt: "(when read)" },
  };
}
