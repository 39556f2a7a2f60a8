/**
 * `taskspec status <run> [--format text|json]`: every figure of the run,
 * recomputed from the store. JSON gives all of them as data. The run's
 * handler module (and tools module) is imported in a probe process, never in
 * this one, to compare its code with what each current result ran with
 * (`code`).
 */
import { Option, type Command } from "commander";
import {
  auditFacts,
  describeCollections,
  formatCodeChange,
  operator,
  statusOf,
  TOOLS_MODULE_EVENT,
  type FactAudit,
  type StatusReport,
  type Store,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { STORE_HELP, withArtifacts, withStore } from "./run-support.js";
import { codeCheckOf, type CodeCheck } from "./code-changes.js";
import { renderPrepared } from "./operator-print.js";

export function register(program: Command): void {
  program
    .command("status")
    .description("Show a run's state: units, artifacts, baseline commits, leases, budget, approvals, unknown effects, next safe action.")
    .argument("<run>", "run id")
    .option("--store <url>", STORE_HELP)
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .action(async (run: string, o: { store?: string; format: "text" | "json" }) => {
      await withStore(o.store, async (store) => {
        const { status: s, code, storeOutages, integrity, isolation, operators, toolsModule } = await statusParts(store, run, o.store);
        process.stdout.write(
          o.format === "json"
            ? `${JSON.stringify(statusJson({ status: s, code, storeOutages, integrity, isolation, operators, toolsModule }), null, 2)}\n`
            : renderStatus(s, code, storeOutages, integrity, isolation, operators, toolsModule),
        );
        // a store edited behind the runtime's back is not a healthy run, whatever its status says
        if (!integrity.verified) process.exitCode = 1;
      });
    });
}

/** Everything `status` shows of a run, read once; `status --format json` and the console's run panel both print it. */
export async function statusParts(store: Store, run: string, storeFlag: string | undefined) {
  const r = await store.getRun(run);
  if (!r) throw new UserError(`no run ${run} in this store`, 2);
  const status = await withArtifacts(storeFlag, r.origin.artifactRoot, (storage) => statusOf(store, storage, run));
  const isolation = (await store.listEvents(run, { type: "isolation" })).at(-1)?.data as IsolationSeen | undefined;
  const code = await codeCheckOf(store, run, r.origin, Array.isArray(isolation?.readRoots) ? isolation.readRoots : []);
  const toolsEvent = (await store.listEvents(run, { type: TOOLS_MODULE_EVENT })).at(-1)?.data;
  const toolsModule =
    typeof toolsEvent?.path === "string" && typeof toolsEvent.sha256 === "string"
      ? { path: toolsEvent.path, sha256: toolsEvent.sha256 }
      : undefined;
  const outages = (await store.listEvents(run, { type: "store-outage" })).map((e) => e.data ?? {});
  const storeOutages = { count: outages.length, ...(outages.length > 0 ? { last: outages[outages.length - 1] } : {}) };
  const integrity = await auditRun(store, run);
  const operators = await operator.protectionOf(store);
  return { status, code, storeOutages, integrity, isolation, operators, toolsModule };
}

/** The document of `status --format json`. */
export function statusJson(p: Awaited<ReturnType<typeof statusParts>>): Record<string, unknown> {
  const { status, code, storeOutages, integrity, isolation, operators, toolsModule } = p;
  return {
    ...status,
    code,
    storeOutages,
    integrity,
    ...(isolation ? { isolation } : {}),
    ...(toolsModule ? { toolsModule } : {}),
    operators,
  };
}

/** The chain verified and the run and unit rows compared with it (runtime/src/operator/fact-audit.ts). */
export async function auditRun(store: Store, run: string): Promise<FactAudit> {
  return auditFacts(
    await store.listChainLinks(run),
    await store.loadFacts(run),
    await store.getRecords(run),
    await store.listEvents(run, { type: "budget-settled" }),
  );
}

/** The audit as status lines: one when it holds, one per problem when it does not. */
export function renderIntegrity(a: FactAudit): string[] {
  if (a.verified) return [`  checkpoint chain: verified (${a.checkpoints} checkpoints; run and unit rows agree with it)`];
  return [
    `  checkpoint chain: NOT VERIFIED (${a.problems.length} problem(s)); the store was changed outside the runtime:`,
    ...a.problems.map((p) => `    ${p}`),
  ];
}

/** The last `isolation` event of a run: where its handlers ran when a worker last drove it. */
export interface IsolationSeen {
  mode?: string;
  network?: string;
  readRoots?: string[];
  /** Where the handler module was imported (absent in events recorded before tools modules). */
  handlerImport?: string;
}

export function renderIsolation(i: IsolationSeen): string {
  const where = i.mode === "process" ? "a handler process per attempt (--isolation process)" : "the worker's process (--isolation none)";
  const imported =
    i.mode !== "process"
      ? ""
      : i.handlerImport === "handler-process"
        ? " · handler module imported only in handler processes (tools from --tools)"
        : " · handler module loaded in the worker (no --tools): not isolated at import";
  return `  handlers: ${where} · network ${i.network === "isolated" ? "isolated" : "not isolated"}${imported}`;
}

/** Whether operator actions on the store need a key (runtime/src/operator/authority.ts). */
export function renderProtection(p: { protected: boolean; identities: number }): string {
  return p.protected
    ? `  operator actions: protected (${p.identities} operator identit${p.identities === 1 ? "y" : "ies"}; resolve, budget, rerun, cancel and approve without a token need an operator key)`
    : "  operator actions: not protected (the store has no operator identity: whoever reaches it may resolve, raise budgets, re-run and cancel; `taskspec store init-operator <name> --key-file <file>` turns protection on)";
}

export function renderStatus(
  s: StatusReport,
  code?: CodeCheck,
  outages?: { count: number; last?: Record<string, unknown> },
  integrity?: FactAudit,
  isolation?: IsolationSeen,
  operators?: { protected: boolean; identities: number },
  toolsModule?: { path: string; sha256: string },
): string {
  const out: string[] = [];
  const budget = Object.keys({ ...s.budget.caps, ...s.budget.used })
    .map((k) => `${k} ${s.budget.used[k as keyof typeof s.budget.used] ?? 0}/${s.budget.caps[k as keyof typeof s.budget.caps] ?? "∞"}`)
    .join(", ");
  out.push(`run ${s.run} (${s.task}): ${s.status}`);
  out.push(
    `  plan ${s.planVersion} · inputs ${s.inputVersion} · checkpoint v${s.checkpoint.version} (${s.checkpoint.kind}, ${s.checkpoint.committedAt})`,
  );
  out.push(
    `  units: ${s.counts.current} current, ${s.counts.superseded} superseded (kept), ${s.counts.ready} ready, ${s.counts.running} running, ${s.counts.blocked} blocked, ${s.counts.failed} failed, ${s.counts.pending} pending, ${s.counts.waitingRerun} waiting to re-run (of ${s.counts.units})`,
  );
  out.push(
    `  artifacts: ${s.artifacts.current} current, ${s.artifacts.superseded} superseded, ${s.artifacts.orphan} orphan, ${s.artifacts.corrupt} corrupt`,
  );
  if (s.collected) out.push(`  ${describeCollections({ ...s.collected, removedAt: {} })}`);
  if (integrity) out.push(...renderIntegrity(integrity));
  out.push(
    s.verifierModule
      ? `  verifier module: ${s.verifierModule.path} (sha256 ${s.verifierModule.sha256.slice(0, 12)}…)`
      : "  verifier module: none (rule and schema verifiers only)",
  );
  if (toolsModule) out.push(`  tools module: ${toolsModule.path} (sha256 ${toolsModule.sha256.slice(0, 12)}…)`);
  else if (isolation) out.push("  tools module: none (tools and inputs from the handler module)");
  if (isolation) out.push(renderIsolation(isolation));
  if (operators) out.push(renderProtection(operators));
  out.push(`  baseline commits: ${s.baselineCommits} (unit completions + plan changes; ${s.checkpoints} checkpoints, ${s.events} events)`);
  const reserved = renderAmounts(s.budget.reserved ?? {});
  out.push(`  budget: ${budget || "no caps"}${reserved ? ` (booked at claims by running attempts: ${reserved})` : ""}`);
  out.push(`  last progress: ${s.lastProgressAt}`);
  for (const k of s.skipped ?? []) out.push(`  skipped by worker ${k.worker} (${k.at}): ${k.reason}`);
  for (const l of s.leases)
    out.push(
      `  lease: ${l.unit} held by ${l.owner} (token ${l.token}${l.reserved ? `, declared cost booked: ${renderAmounts(l.reserved)}` : ""}) until ${l.expiresAt}${l.live ? "" : " — expired or owner gone"}`,
    );
  for (const u of s.units)
    if (u.iteration)
      out.push(
        `  loop ${u.unit}: iteration ${u.iteration.current} of ${u.iteration.max} (${u.iteration.committed} committed${u.state === "running" ? ", running" : ""})`,
      );
  for (const u of s.units)
    if (u.retry)
      out.push(
        `  backoff ${u.unit}: retry in ${Math.ceil(u.retry.inMs / 1000)}s (attempt ${u.attempts + 1} at ${u.retry.at}, after a failed attempt)`,
      );
  for (const u of s.units) if (u.state === "failed") out.push(`  failed ${u.unit}: ${u.reason ?? "attempts used up"}`);
  for (const b of s.blocked) out.push(`  blocked${b.unit ? ` ${b.unit}` : ""}: ${b.reason}: ${b.detail}`);
  for (const p of s.approvals.pending)
    out.push(`  approval pending: ${p.unit}${p.tokenExpiresAt ? ` (token valid until ${p.tokenExpiresAt})` : ""}`);
  for (const e of s.unknownEffects) out.push(`  effect ${e.state}: ${e.id} ${e.intent}${e.key ? ` key=${e.key}` : ""}`);
  for (const p of s.prepared) {
    out.push(`  prepared at gate ${p.unit} (PREPARED, not sent; \`taskspec approve ${s.run} ${p.unit} --dry-run\`):`);
    out.push(...renderPrepared(p, "    "));
  }
  for (const u of s.supersededUnits) out.push(`  superseded: ${u.unit} a${u.attempt} (${u.planVersion}): ${u.reason}`);
  for (const f of s.artifacts.orphans) out.push(`  orphan: ${f}`);
  for (const x of s.stall) out.push(`  stall: ${x.kind}: ${x.detail}`);
  if (outages?.last)
    out.push(
      `  store outages ridden out by workers: ${outages.count} (last: ${String(outages.last.ms)} ms from ${String(outages.last.startedAt)}, worker ${String(outages.last.worker)})`,
    );
  if (code && !code.checked) out.push(`  handler code: not checked (${code.reason})`);
  for (const c of code?.checked ? code.changes : []) out.push(`  handler code: ${formatCodeChange(s.run, c)}`);
  out.push(`  next safe action: ${s.nextSafeAction}`);
  return `${out.join("\n")}\n`;
}

/** `model_calls 2, tokens 500`: amounts in the budgets' order of appearance. */
function renderAmounts(amounts: Record<string, number | undefined>): string {
  return Object.entries(amounts)
    .filter(([, n]) => n)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
}
