/**
 * One window of the runs list: the store's runs newest first, searched by id
 * and filtered by state, with only the runs in the window summarised (a
 * summary reads a run's facts; the list of run rows is one query). A state
 * the run row holds (done, failed, cancelled) filters before any summary; the
 * derived ones (running, resumable, blocked) summarise active runs until the
 * window is full.
 */
import type { Plan } from "@taskspec/compiler";
import type { Store } from "../store/types.js";
import { newestFirst, runSummaryOf, type RunSummary } from "./views.js";

export const RUN_STATES = ["running", "resumable", "blocked", "done", "failed", "cancelled"] as const;
const STORED = new Set(["done", "failed", "cancelled"]);

export interface RunsQuery {
  state?: string;
  search?: string;
  offset: number;
  limit: number;
}

export interface RunsWindow {
  runs: RunSummary[];
  offset: number;
  /** Runs matching the query; absent when a derived state was asked for and the scan stopped at the window's end. */
  total?: number;
  more: boolean;
}

export async function runsWindow(store: Store, q: RunsQuery, now: string): Promise<RunsWindow> {
  const needle = q.search?.toLowerCase();
  let rows = (await store.listRuns()).filter((r) => !needle || r.run.toLowerCase().includes(needle));
  if (q.state && STORED.has(q.state)) rows = rows.filter((r) => r.status === q.state);
  else if (q.state) rows = rows.filter((r) => r.status === "active");
  rows.sort(newestFirst);
  const plans = new Map<string, Plan | undefined>();
  if (!q.state || STORED.has(q.state)) {
    const runs = [];
    for (const r of rows.slice(q.offset, q.offset + q.limit)) runs.push(await runSummaryOf(store, r, now, plans));
    return { runs, offset: q.offset, total: rows.length, more: q.offset + q.limit < rows.length };
  }
  const runs: RunSummary[] = [];
  let matched = 0;
  for (const r of rows) {
    const s = await runSummaryOf(store, r, now, plans);
    if (s.status !== q.state) continue;
    if (matched++ < q.offset) continue;
    if (runs.length === q.limit) return { runs, offset: q.offset, more: true };
    runs.push(s);
  }
  return { runs, offset: q.offset, total: matched, more: false };
}
