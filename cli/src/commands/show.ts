/**
 * `taskspec show <run> <unit> [--store URL] [--format text|json]`: one unit
 * of a run: its state and attempts, the lease if one is held, the current
 * result, its artifacts with hashes and verifier results, a loop's committed
 * iterations, and its effects with their requests (intent, argument digest,
 * key) and receipts.
 */
import { Option, type Command } from "commander";
import { unitViewOf, type UnitView } from "@taskspec/runtime";
import { STORE_HELP, withStore } from "./run-support.js";

export function register(program: Command): void {
  program
    .command("show")
    .description("Show one unit of a run: attempts, result, artifacts with hashes, effects with requests and receipts.")
    .argument("<run>", "run id")
    .argument("<unit>", "unit id")
    .option("--store <url>", STORE_HELP)
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .action(async (run: string, unit: string, o: { store?: string; format: "text" | "json" }) => {
      await withStore(o.store, async (store) => {
        const view = await unitViewOf(store, run, unit);
        process.stdout.write(o.format === "json" ? `${JSON.stringify(view, null, 2)}\n` : renderUnit(view));
      });
    });
}

export function renderUnit(v: UnitView): string {
  const out = [`unit ${v.unit} of run ${v.run}: ${v.state} (${v.attempts} attempt(s), ${v.failures} failed)`];
  if (v.lastError) out.push(`  last error: a${v.lastError.attempt} ${v.lastError.class}: ${v.lastError.message}`);
  if (v.lease) out.push(`  lease: a${v.lease.attempt} held by ${v.lease.owner} (token ${v.lease.token}) until ${v.lease.expiresAt}`);
  if (v.current) {
    out.push(
      `  current: a${v.current.attempt} under plan ${v.current.planVersion}, committed in checkpoint v${v.current.committedVersion} at ${v.current.createdAt}`,
    );
    out.push(`  result: ${JSON.stringify(v.current.result)}`);
  }
  for (const h of v.history)
    out.push(`  earlier: a${h.attempt} ${h.status} (${h.planVersion})${h.supersededReason ? `: ${h.supersededReason}` : ""}`);
  for (const a of v.artifacts) {
    const verdicts = a.verifierResults
      .map((r) => `${r.name} ${r.passed ? "passed" : `failed${r.reason ? `: ${r.reason}` : ""}`}`)
      .join("; ");
    out.push(
      `  artifact ${a.name} a${a.attempt}${a.current ? " (current)" : ""} ${a.status}: ${a.path} sha256 ${a.sha256} ${a.size} B ${a.mediaType}${verdicts ? ` · ${verdicts}` : ""}${a.collectedAt ? ` · file removed by gc at ${a.collectedAt} (manifest and hash kept)` : ""}`,
    );
  }
  for (const it of v.iterations) {
    out.push(
      `  iteration ${it.iteration} of ${it.max} a${it.attempt} committed at ${it.committedAt}${it.closedAt ? ` (loop closed ${it.closedAt})` : " (open: a resume continues after it)"}: ${JSON.stringify(it.result)}`,
    );
    for (const f of it.files) out.push(`    file ${f.name}: ${f.path} sha256 ${f.sha256}`);
  }
  for (const e of v.effects) {
    out.push(
      `  effect ${e.id} a${e.attempt} ${e.tool} (${e.toolClass}) ${e.state}: ${e.intent}${e.key ? ` key=${e.key}` : ""} args sha256 ${e.argsDigest}`,
    );
    if (e.remoteId) out.push(`    remote id: ${e.remoteId}`);
    if (e.receipt !== undefined) out.push(`    receipt: ${JSON.stringify(e.receipt)}`);
    if (e.error) out.push(`    error: ${e.error}`);
    if (e.compensationState) out.push(`    compensation: ${e.compensationState}`);
  }
  if (v.artifacts.length === 0 && v.effects.length === 0 && v.iterations.length === 0 && !v.current) out.push("  nothing recorded yet");
  return `${out.join("\n")}\n`;
}
