/**
 * `taskspec handoff`: everything a person taking over needs, as JSON and as a
 * Markdown narrative generated from the same structured state (never written
 * by hand or by a model): contract, latest baseline, unit states, why units
 * were superseded, orphans, pending approvals, budget left, UNKNOWN effects,
 * recent errors, and the options with what each would reuse or invalidate.
 */
import { readFile } from "node:fs/promises";
import type { ArtifactStorage } from "../artifacts/storage.js";
import type { Store } from "../store/types.js";
import { statusOf, type StatusReport } from "./status.js";
import { describeCollections } from "./gc-plan.js";

export interface Handoff {
  generatedAt: string;
  status: StatusReport;
  /** The contract as it is on disk now (what a resume would compile), when readable. */
  contractText?: string;
  options: Array<{ action: string; command: string; effect: string }>;
}

export async function handoffOf(store: Store, storage: ArtifactStorage, run: string, now = new Date().toISOString()): Promise<Handoff> {
  const status = await statusOf(store, storage, run, now);
  const succeeded = status.units.filter((u) => u.state === "succeeded").length;
  const options: Handoff["options"] = [
    {
      action: "resume",
      command: `taskspec resume ${run}`,
      effect: `continues from checkpoint ${status.checkpoint.version}; reuses ${succeeded} succeeded unit(s)`,
    },
    {
      action: "re-run a unit",
      command: `taskspec rerun ${run} <unit>`,
      effect:
        "supersedes that unit and what depends on it (printed before it is recorded); early cutoff keeps units whose inputs hash the same",
    },
    {
      action: "approve a gate",
      command: `taskspec approve ${run} <unit> --token <resume token> (or --operator-key-file <file>)`,
      effect: "releases one gate for this plan version and the current input artifacts",
    },
    {
      action: "raise a budget",
      command: `taskspec budget ${run} --cap <budget>=<n> --reason "..."`,
      effect: "a recorded decision; nothing re-runs",
    },
    {
      action: "cancel",
      command: `taskspec cancel ${run}`,
      effect: "compensates committed compensable effects in reverse order; irreversible ones are listed, not undone",
    },
  ];
  const contractText = status.contract ? await readFile(status.contract, "utf8").catch(() => undefined) : undefined;
  return { generatedAt: now, status, ...(contractText !== undefined ? { contractText } : {}), options };
}

export function handoffMarkdown(h: Handoff): string {
  const s = h.status;
  const lines: string[] = [];
  const list = (items: string[], empty = "none") => (items.length ? items.map((i) => `- ${i}`) : [`- ${empty}`]);
  lines.push(`# Handoff: run ${s.run} (${s.task})`, "");
  lines.push(`Generated ${h.generatedAt} from the store; every figure below is recomputed from committed facts.`, "");
  lines.push(`- Status: **${s.status}**`);
  lines.push(`- Contract: ${s.contract ?? "(not recorded)"}; handlers: ${s.handlers ?? "(not recorded)"}`);
  lines.push(`- Plan version ${s.planVersion}, input version ${s.inputVersion}`);
  lines.push(
    `- Latest checkpoint: version ${s.checkpoint.version} (${s.checkpoint.kind}) at ${s.checkpoint.committedAt}; ${s.baselineCommits} baseline commits`,
  );
  lines.push(
    `- Units: ${s.counts.current} current of ${s.counts.units}, ${s.counts.superseded} superseded completions kept, ${s.counts.ready} ready, ${s.counts.running} running, ${s.counts.blocked} blocked, ${s.counts.failed} failed`,
  );
  lines.push(
    `- Artifacts: ${s.artifacts.current} current, ${s.artifacts.superseded} superseded, ${s.artifacts.orphan} orphan, ${s.artifacts.corrupt} corrupt`,
  );
  if (s.collected) lines.push(`- Collected: ${describeCollections({ ...s.collected, removedAt: {} })}`);
  lines.push(`- Last progress: ${s.lastProgressAt}`, "");
  lines.push("## Next safe action", "", s.nextSafeAction, "");
  lines.push("## Budget", "");
  lines.push(
    ...list(
      Object.keys({ ...s.budget.caps, ...s.budget.used }).map(
        (k) =>
          `${k}: used ${s.budget.used[k as keyof typeof s.budget.used] ?? 0}${s.budget.reserved[k as keyof typeof s.budget.reserved] ? ` (${s.budget.reserved[k as keyof typeof s.budget.reserved]} of it booked at claims by running attempts)` : ""}, cap ${s.budget.caps[k as keyof typeof s.budget.caps] ?? "none"}, left ${s.budget.left[k as keyof typeof s.budget.left] ?? "unlimited"}`,
      ),
    ),
    "",
  );
  lines.push("## Blocked", "", ...list(s.blocked.map((b) => `${b.unit ?? "run"}: ${b.reason} — ${b.detail}`)), "");
  lines.push(
    "## Pending approvals",
    "",
    ...list(s.approvals.pending.map((p) => `${p.unit}${p.tokenExpiresAt ? ` (resume token valid until ${p.tokenExpiresAt})` : ""}`)),
    "",
  );
  lines.push(
    "## Effects with unknown outcome",
    "",
    ...list(s.unknownEffects.map((e) => `${e.id}: ${e.intent}${e.key ? ` key ${e.key}` : ""} (${e.state})`)),
    "",
  );
  lines.push(
    "## Superseded completions (kept)",
    "",
    ...list(s.supersededUnits.map((u) => `${u.unit} a${u.attempt} under ${u.planVersion}: ${u.reason}`)),
    "",
  );
  lines.push("## Orphan files (never adopted)", "", ...list(s.artifacts.orphans), "");
  lines.push(
    "## Recent errors",
    "",
    ...list(
      s.recentErrors.map((e) => `${e.at} ${e.unit ?? ""}${e.attempt ? ` a${e.attempt}` : ""}: ${e.class ?? ""} ${e.message ?? ""}`.trim()),
    ),
    "",
  );
  lines.push("## Stall signals", "", ...list(s.stall.map((x) => `${x.kind}: ${x.detail}`)), "");
  lines.push("## Units", "", "| unit | state | attempts | note |", "|---|---|---|---|");
  for (const u of s.units)
    lines.push(
      `| ${u.unit} | ${u.state} | ${u.attempts} | ${[u.iteration ? `iteration ${u.iteration.current} of ${u.iteration.max} (${u.iteration.committed} committed)` : "", u.reason ?? u.superseded ?? ""].filter(Boolean).join("; ").replace(/\|/g, "\\|")} |`,
    );
  lines.push("", "## Options", "", "Each option prints what it would reuse and invalidate before it records a decision.", "");
  for (const o of h.options) lines.push(`- **${o.action}**: \`${o.command}\` — ${o.effect}`);
  if (h.contractText !== undefined) lines.push("", "## Contract (as on disk now)", "", "```yaml", h.contractText.trimEnd(), "```");
  return `${lines.join("\n")}\n`;
}
