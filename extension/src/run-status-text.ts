/**
 * How a run's state reads in the status bar, from the JSON that
 * `taskspec status <run> --format json` prints (the runtime's StatusReport;
 * only the fields shown here are relied on).
 */
export interface RunStatusReport {
  run: string;
  status: string;
  counts: { units: number; current: number; running: number; blocked: number; failed: number; waitingRerun: number };
  approvals?: { pending: { unit: string }[] };
  nextSafeAction: string;
}

export function runStatusText(report: RunStatusReport): { text: string; tooltip: string } {
  const c = report.counts;
  const parts = [`${c.current}/${c.units} current`];
  if (c.running > 0) parts.push(`${c.running} running`);
  if (c.blocked > 0) parts.push(`${c.blocked} blocked`);
  if (c.failed > 0) parts.push(`${c.failed} failed`);
  if (c.waitingRerun > 0) parts.push(`${c.waitingRerun} to re-run`);
  const pending = report.approvals?.pending ?? [];
  const tooltip = [
    `Run ${report.run}: ${report.status}`,
    ...(pending.length > 0 ? [`Waiting for approval: ${pending.map((p) => p.unit).join(", ")}`] : []),
    `Next safe action: ${report.nextSafeAction}`,
  ].join("\n");
  return { text: `$(pulse) ${report.run}: ${report.status} · ${parts.join(" · ")}`, tooltip };
}
