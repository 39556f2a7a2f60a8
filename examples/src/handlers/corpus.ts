/**
 * The pages the example tasks read, written to a directory the demo and the
 * tests create (env TASKSPEC_PAGES_DIR): six web pages (one off-topic, which search leaves out) for the blog post's
 * research and the 48 approved sources of ME-042 (snapshot in-v3), twelve
 * groups of four. Deterministic, so every run reads the same bytes.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const WEB_PAGES: ReadonlyArray<{ title: string; finding: string; keywords: string }> = [
  {
    title: "Distributed snapshots, forty years on",
    finding: "a consistent cut needs process state and in-flight messages together",
    keywords: "snapshots, checkpoints, resumable tasks",
  },
  {
    title: "Sagas for long-lived transactions",
    finding: "compensation moves a business to an acceptable new state, it does not rewind time",
    keywords: "sagas, compensation, contracts",
  },
  {
    title: "Idempotency keys in payment APIs",
    finding: "a retried request with the same key returns the first result instead of charging twice",
    keywords: "idempotency, ledgers, retries",
  },
  {
    title: "Why chat history is not a checkpoint",
    finding: "restoring the conversation restores the narrative, not the effects already in the world",
    keywords: "agent, conversation, recovery",
  },
  {
    title: "Verifying the final world state",
    finding: "end-to-end checks compare the world with the goal, not the agent's own summary",
    keywords: "verifiers, end-to-end checks",
  },
  { title: "Ten tips for better holiday photos", finding: "the golden hour softens shadows", keywords: "photography, travel" },
];

/** The 12 source groups of ME-042, in input order group-a .. group-l. */
export const SOURCE_GROUPS: ReadonlyArray<{ input: string; topic: string; measure: string }> = [
  { input: "group-a", topic: "market statistics", measure: "addressable market, EUR m" },
  { input: "group-b", topic: "analyst reports", measure: "forecast growth, % per year" },
  { input: "group-c", topic: "customer interviews", measure: "buyers naming the pain, %" },
  { input: "group-d", topic: "customer survey", measure: "willingness to switch, %" },
  { input: "group-e", topic: "competitor filings", measure: "competitor revenue, EUR m" },
  { input: "group-f", topic: "competitor product documentation", measure: "feature coverage, %" },
  { input: "group-g", topic: "pricing data", measure: "median price, EUR per seat" },
  { input: "group-h", topic: "channel and partner data", measure: "partner reach, accounts" },
  { input: "group-i", topic: "regulation texts", measure: "compliance threshold, score" },
  { input: "group-j", topic: "enforcement cases", measure: "fines per year" },
  { input: "group-k", topic: "macroeconomic data", measure: "GDP growth, %" },
  { input: "group-l", topic: "operating costs", measure: "cost to serve, EUR per account" },
];

export function sourceIds(group: number): string[] {
  return [1, 2, 3, 4].map((n) => `src-${String(group * 4 + n).padStart(2, "0")}`);
}

/** The figure a source reports (10-100, drawn from a sha256 of its id): what the extraction reads back from the page. */
export function sourceFigure(id: string): number {
  const draw = parseInt(createHash("sha256").update(`figure:${id}`).digest("hex").slice(0, 8), 16) / 0x1_0000_0000;
  return Math.round(10 + draw * 90);
}

export function writeCorpus(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  WEB_PAGES.forEach((page, i) => {
    const id = `web-${String(i + 1).padStart(2, "0")}`;
    fs.writeFileSync(path.join(dir, `${id}.md`), `# ${page.title}\n\nFinding: ${page.finding}.\n\nKeywords: ${page.keywords}.\n`);
  });
  SOURCE_GROUPS.forEach((group, g) => {
    for (const id of sourceIds(g)) {
      fs.writeFileSync(
        path.join(dir, `${id}.md`),
        `# ${id}: ${group.topic}\n\nSnapshot in-v3, approved source of ${group.input}.\n\nFigure: ${sourceFigure(id)} (${group.measure}).\n`,
      );
    }
  });
}
