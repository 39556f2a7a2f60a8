/**
 * What the Runs view shows, as data: rows built from the JSON the CLI prints
 * (`taskspec runs --format json`, `taskspec status <run> --format json`), so
 * the view's text is tested without VS Code. Only the fields read here are
 * relied on.
 */

/** One run as `taskspec runs --format json` lists it. */
export interface RunSummary {
  run: string;
  task: string;
  status: string;
  planVersion: string;
  units: { total: number; succeeded: number; failed: number; blocked: number };
  lastProgressAt?: string;
}

/** The part of `taskspec status <run> --format json` the view reads. */
export interface RunDetail {
  run: string;
  status: string;
  /** The contract the run was started from (absolute path). */
  contract?: string;
  units: { unit: string; state: string; attempts: number; reason?: string }[];
  approvals?: { pending: { unit: string; tokenExpiresAt?: string }[] };
  nextSafeAction: string;
}

/** A row of the tree: its text, codicon and what a click does. */
export interface Row {
  label: string;
  description: string;
  tooltip: string;
  icon: string;
  /** Which menus apply (package.json `viewItem == ...`). */
  kind: "run" | "approval" | "unit" | "note";
}

const STATE_ICONS: Readonly<Record<string, string>> = {
  succeeded: "pass",
  done: "pass",
  running: "sync",
  ready: "circle-large-outline",
  pending: "circle-large-outline",
  blocked: "debug-pause",
  failed: "error",
  cancelled: "circle-slash",
  superseded: "history",
  waiting_rerun: "history",
};
export const stateIcon = (state: string): string => STATE_ICONS[state] ?? "circle-outline";

export function runRow(r: RunSummary): Row {
  const u = r.units;
  const figures = [`${u.succeeded}/${u.total} done`];
  if (u.blocked > 0) figures.push(`${u.blocked} blocked`);
  if (u.failed > 0) figures.push(`${u.failed} failed`);
  return {
    label: r.run,
    description: `${r.status} · ${figures.join(" · ")} · ${r.task}`,
    tooltip: [
      `Run ${r.run} of ${r.task}: ${r.status}`,
      `Plan ${r.planVersion}`,
      ...(r.lastProgressAt ? [`Last progress ${r.lastProgressAt}`] : []),
    ].join("\n"),
    icon: stateIcon(r.status),
    kind: "run",
  };
}

/** A run's children: its pending approvals first (what needs a person), then every unit in plan order. */
export function runChildren(d: RunDetail): Array<Row & { unit?: string }> {
  const pending = d.approvals?.pending ?? [];
  const approvals = pending.map((p) => ({
    label: `Approve ${p.unit}…`,
    description: "",
    tooltip: `${p.unit} waits for an approval${p.tokenExpiresAt ? ` (its resume token expires ${p.tokenExpiresAt})` : ""}.\nClick to see exactly what it would release, then decide.`,
    icon: "unlock",
    kind: "approval" as const,
    unit: p.unit,
  }));
  const units = d.units.map((u) => ({
    label: u.unit,
    description: `${u.state}${u.attempts > 1 ? ` · ${u.attempts} attempts` : ""}`,
    tooltip: [
      `${u.unit}: ${u.state}, ${u.attempts} attempt${u.attempts === 1 ? "" : "s"}`,
      ...(u.reason ? [u.reason] : []),
      "Click to open its definition in the contract",
    ].join("\n"),
    icon: stateIcon(u.state),
    kind: "unit" as const,
    unit: u.unit,
  }));
  return [...approvals, ...units];
}
