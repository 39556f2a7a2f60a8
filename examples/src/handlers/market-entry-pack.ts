/**
 * Handlers for specs/market-entry-pack.task.yaml (seed 004, case ME-042):
 * 12 extractions, 8 verifications, 6 syntheses (S04 a bounded loop), 4
 * audience framings, the inventory, four delivered files and the cross-file
 * audit. Deterministic: "model" output is assembled from the source figures,
 * so a re-run under the same inputs writes the same bytes. Each handler
 * charges its unit's declared model cost before its model work (`ctx.charge`
 * refuses when the run's cap would be passed: the seed's budget stop).
 */
import type { HandlerModule, UnitContext, UnitHandler } from "@taskspec/runtime";
import { SOURCE_GROUPS, sourceIds } from "./corpus.js";
import { withInvocationLog } from "./invocation-log.js";
import { AUDIENCES, auditPack, cite, citedClaims, evidenceDoc, type Claim, type EvidenceDoc } from "./market-evidence.js";
import marketEntryTools from "../tools/market-entry-pack.js";
import type { Page } from "./workspace-tools.js";

/** Declared per-attempt (per-iteration for S04) model cost of each phase, as in the contract. */
const MODEL_COST = {
  extract: { model_calls: 1, tokens: 25_000 },
  verify: { model_calls: 1, tokens: 20_000 },
  synthesize: { model_calls: 2, tokens: 30_000 },
  frame: { model_calls: 1, tokens: 15_000 },
  assemble: { model_calls: 2, tokens: 40_000 },
  audit: { model_calls: 1, tokens: 30_000 },
} as const;

function audienceOf(ctx: UnitContext) {
  const name = String(ctx.inputs.audience);
  const framing = AUDIENCES[name];
  if (!framing) throw new Error(`no framing for audience ${JSON.stringify(name)} (known: ${Object.keys(AUDIENCES).join(", ")})`);
  return { name, ...framing };
}

/** Every artifact the unit's upstream units produced, read through the manifest. */
async function upstreamDocs(ctx: UnitContext): Promise<EvidenceDoc[]> {
  const docs: EvidenceDoc[] = [];
  for (const need of Object.values(ctx.needs))
    for (const artifact of need.artifacts) docs.push(await ctx.readJson<EvidenceDoc>(artifact.name));
  return docs;
}

async function upstreamClaims(ctx: UnitContext): Promise<Claim[]> {
  return (await upstreamDocs(ctx)).flatMap((doc) => doc.claims);
}

async function save(ctx: UnitContext, name: string, data: string | object, mediaType: string) {
  const text = typeof data === "string" ? data : JSON.stringify(data, null, 2);
  await ctx.tool("write_file", { name, content: text });
  return ctx.write(name, text, { mediaType });
}

function extract(group: number): UnitHandler {
  const { topic, measure } = SOURCE_GROUPS[group]!;
  return async (ctx) => {
    const pages: Page[] = [];
    for (const id of sourceIds(group)) pages.push(await ctx.tool<Page>("fetch_page", { id }));
    await ctx.charge(MODEL_COST.extract);
    const claims: Claim[] = pages.map((page, k) => {
      const figure = Number(/Figure: (\d+)/.exec(page.text)?.[1]);
      return { id: `${ctx.unit.id}-c${k + 1}`, source_id: page.id, topic, figure, text: `${topic}: ${measure} = ${figure} (${page.id})` };
    });
    const doc = evidenceDoc(ctx.unit.id, claims);
    await save(ctx, `evidence-${String(group + 1).padStart(2, "0")}`, doc, "application/json");
    return { claims: claims.map((claim) => claim.id), sources: doc.sources };
  };
}

function verify(artifact: string): UnitHandler {
  return async (ctx) => {
    await ctx.charge(MODEL_COST.verify);
    const claims = (await upstreamClaims(ctx)).filter((claim) => Number.isFinite(claim.figure) && claim.source_id.startsWith("src-"));
    const doc = evidenceDoc(ctx.unit.id, claims);
    await save(ctx, artifact, doc, "application/json");
    return { claims: claims.map((claim) => claim.id), uncited_claims: [], sources: doc.sources };
  };
}

function synthesisText(title: string, claims: readonly Claim[]): string {
  return [`## ${title}`, "", ...claims.map((claim) => `- ${cite(claim)}`), ""].join("\n");
}

function synthesize(artifact: string, title: string): UnitHandler {
  return async (ctx) => {
    await ctx.charge(MODEL_COST.synthesize);
    const claims = await upstreamClaims(ctx);
    const doc = { ...evidenceDoc(ctx.unit.id, claims), text: synthesisText(title, claims) };
    await save(ctx, artifact, doc, "application/json");
    return { claims: claims.map((claim) => claim.id), uncited_claims: [], sources: doc.sources };
  };
}

/**
 * S04, a bounded loop (generate -> claims check -> revise): the first draft
 * states the regulatory barrier without its threshold and fails the check;
 * the revision adds it and passes. The artifact is written once it passes.
 */
const landscape: UnitHandler = async (ctx) => {
  await ctx.charge(MODEL_COST.synthesize);
  const claims = await upstreamClaims(ctx);
  const threshold = claims.find((claim) => claim.topic === "regulation texts");
  const revised = ctx.iteration > 1;
  const failed = revised || !threshold ? [] : [threshold.id];
  const result = { claims: claims.map((claim) => claim.id), uncited_claims: [], claims_check: { passed: failed.length === 0, failed } };
  if (result.claims_check.passed) {
    const text = synthesisText("Competitive landscape and barriers to entry", claims);
    await save(ctx, "synthesis-04", { ...evidenceDoc(ctx.unit.id, claims), text, layout: ["competitors", "barriers"] }, "application/json");
  }
  return result;
};

function rank(claims: readonly Claim[], order: "impact" | "risk"): Claim[] {
  return [...claims].sort((a, b) => (order === "risk" ? b.figure - a.figure : a.topic.localeCompare(b.topic)) || a.id.localeCompare(b.id));
}

function frame(artifact: string, title: string): UnitHandler {
  return async (ctx) => {
    await ctx.charge(MODEL_COST.frame);
    const audience = audienceOf(ctx);
    const claims = rank(await upstreamClaims(ctx), audience.order).slice(0, 6);
    const text = [
      `# ${title}`,
      "",
      `${audience.opening} (for the ${audience.name}, ${audience.tone}).`,
      "",
      ...claims.map((claim) => `- ${cite(claim)}`),
      "",
    ].join("\n");
    const ref = await save(ctx, artifact, { ...evidenceDoc(ctx.unit.id, claims), text, audience: audience.name }, "application/json");
    return {
      claims: claims.map((claim) => claim.id),
      audience: audience.name,
      tone: audience.tone,
      artifact,
      sha256: ref.sha256,
      bytes: ref.size,
    };
  };
}

/** U30: the report's section order and emphasis, from the syntheses' structure. */
const sectionPlan: UnitHandler = async (ctx) => {
  await ctx.charge(MODEL_COST.frame);
  const audience = audienceOf(ctx);
  const sections = Object.keys(ctx.needs)
    .filter((need) => need.startsWith("S"))
    .sort();
  const ordered = audience.order === "risk" ? ["S05", ...sections.filter((s) => s !== "S05")] : sections;
  const text = [
    `# Section plan`,
    "",
    `${audience.opening} (for the ${audience.name}, ${audience.tone}).`,
    "",
    ...ordered.map((s, i) => `${i + 1}. ${s}`),
    "",
  ].join("\n");
  const ref = await save(ctx, "section-plan", { sections: ordered, audience: audience.name, text }, "application/json");
  return { sections: ordered, audience: audience.name, tone: audience.tone, artifact: "section-plan", sha256: ref.sha256, bytes: ref.size };
};

/** U31: the evidence inventory, deterministic (no model): every verified claim and every source. */
const inventory: UnitHandler = async (ctx) => {
  const coverage = await ctx.readJson<EvidenceDoc>("synthesis-06");
  const snapshot = SOURCE_GROUPS.flatMap((_, g) => sourceIds(g));
  const unlisted = snapshot.filter((id) => !coverage.sources.includes(id));
  const doc = evidenceDoc(ctx.unit.id, coverage.claims, snapshot);
  await save(ctx, "evidence-inventory", doc, "application/json");
  return { sources: doc.sources, unlisted, snapshot: ctx.inputs.sources };
};

function frameOf(docs: ReadonlyArray<EvidenceDoc & { text?: string; audience?: string }>, unit: string) {
  const doc = docs.find((candidate) => candidate.unit === unit);
  if (!doc?.text) throw new Error(`the framing of ${unit} is missing`);
  return doc as EvidenceDoc & { text: string; audience: string };
}

const report: UnitHandler = async (ctx) => {
  await ctx.charge(MODEL_COST.assemble);
  const docs = (await upstreamDocs(ctx)) as Array<EvidenceDoc & { text?: string; audience?: string; sections?: string[] }>;
  const plan = docs.find((doc) => doc.sections) as { sections: string[]; audience: string };
  const chapters = plan.sections.map((unit) => docs.find((doc) => doc.unit === unit)?.text ?? "");
  const landscape = docs.find((doc) => doc.unit === "S04")?.text ?? "";
  const text = [
    `# Market-entry pack ME-042: report (for the ${plan.audience})`,
    "",
    frameOf(docs, "U28").text,
    frameOf(docs, "U27").text,
    frameOf(docs, "U29").text,
    ...chapters,
    landscape,
  ].join("\n");
  const ref = await save(ctx, "report", text, "text/markdown");
  return {
    sha256: ref.sha256,
    bytes: ref.size,
    uncited_claims: [],
    audience: plan.audience,
    artifact: "report",
    claims: citedClaims(text),
  };
};

const evidenceTable: UnitHandler = async (ctx) => {
  await ctx.charge(MODEL_COST.assemble);
  const inventoryDoc = await ctx.readJson<EvidenceDoc>("evidence-inventory");
  const ref = await save(ctx, "evidence-table", evidenceDoc(ctx.unit.id, inventoryDoc.claims, inventoryDoc.sources), "application/json");
  return { sha256: ref.sha256, bytes: ref.size, rows: inventoryDoc.claims.length };
};

const decisionBrief: UnitHandler = async (ctx) => {
  await ctx.charge(MODEL_COST.assemble);
  const docs = (await upstreamDocs(ctx)) as Array<EvidenceDoc & { text?: string; audience?: string }>;
  const recommendation = frameOf(docs, "U29");
  const text = [
    `# Decision brief ME-042 (for the ${recommendation.audience})`,
    "",
    recommendation.text,
    frameOf(docs, "U27").text,
    docs.find((doc) => doc.unit === "S04")?.text ?? "",
  ].join("\n");
  const ref = await save(ctx, "decision-brief", text, "text/markdown");
  return {
    sha256: ref.sha256,
    bytes: ref.size,
    uncited_claims: [],
    audience: recommendation.audience,
    artifact: "decision-brief",
    claims: citedClaims(text),
  };
};

const appendix: UnitHandler = async (ctx) => {
  await ctx.charge(MODEL_COST.assemble);
  const inventoryDoc = await ctx.readJson<EvidenceDoc>("evidence-inventory");
  const text = [
    "# Appendix: method and sources",
    "",
    `Input snapshot ${JSON.stringify(ctx.inputs.sources)}: ${inventoryDoc.sources.length} approved sources in ${SOURCE_GROUPS.length} groups.`,
    "",
    ...SOURCE_GROUPS.map((group, g) => `- ${group.topic}: ${sourceIds(g).join(", ")}`),
    "",
  ].join("\n");
  const ref = await save(ctx, "appendix", text, "text/markdown");
  return { sha256: ref.sha256, bytes: ref.size };
};

async function readPack(read: (artifact: string) => Promise<Uint8Array>) {
  const text = async (name: string) => new TextDecoder().decode(await read(name));
  return {
    report: await text("report"),
    table: JSON.parse(await text("evidence-table")) as EvidenceDoc,
    brief: await text("decision-brief"),
    appendix: await text("appendix"),
  };
}

const audit: UnitHandler = async (ctx) => {
  await ctx.charge(MODEL_COST.audit);
  const pack = await readPack((name) => ctx.read(name));
  const result = auditPack(pack);
  await save(ctx, "audit-report", result, "application/json");
  const audience = /\(for the ([a-z-]+)\)/.exec(pack.report)?.[1] ?? "unknown";
  const notes = [
    "# Change notes",
    "",
    `Run ${ctx.run.id}, contract version ${ctx.task.version}: the pack is framed for the ${audience}.`,
    `Evidence table: ${pack.table.claims.length} verified claims from ${pack.table.sources.length} sources.`,
    result.mismatches.length === 0
      ? "Cross-file audit: figures, claims and source ids agree."
      : `Cross-file audit found: ${result.mismatches.join("; ")}`,
    "",
  ].join("\n");
  const ref = await save(ctx, "change-notes", notes, "text/markdown");
  return { audit: result, sha256: ref.sha256, bytes: ref.size };
};

const handlers: HandlerModule = {
  units: withInvocationLog({
    ...Object.fromEntries(SOURCE_GROUPS.map((_, g) => [`E${String(g + 1).padStart(2, "0")}`, extract(g)])),
    V01: verify("verified-market"),
    V02: verify("verified-demand"),
    V03: verify("verified-competition"),
    V04: verify("verified-pricing"),
    V05: verify("verified-channels"),
    V06: verify("verified-regulation"),
    V07: verify("verified-economy"),
    V08: verify("verified-operations"),
    S01: synthesize("synthesis-01", "Market opportunity"),
    S02: synthesize("synthesis-02", "Demand and customer segments"),
    S03: synthesize("synthesis-03", "Go-to-market: pricing and channels"),
    S04: landscape,
    S05: synthesize("synthesis-05", "Risks, regulation and operating costs"),
    S06: synthesize("synthesis-06", "Evidence coverage"),
    U27: frame("risk-ranking", "Risk ranking"),
    U28: frame("executive-summary", "Executive summary"),
    U29: frame("recommendation", "Recommendation"),
    U30: sectionPlan,
    U31: inventory,
    A01: report,
    A02: evidenceTable,
    A03: decisionBrief,
    A04: appendix,
    F01: audit,
  }),
  // the one-module layout (tests, `taskspec drill`); the demo passes the tools module itself (`--tools`)
  ...marketEntryTools,
};

export default handlers;
