/**
 * The evidence documents of ME-042: what extraction, verification and the
 * inventory write (one shape, checked by specs/schemas/evidence.json), and the
 * audit that compares the four delivered files with each other.
 */
export interface Claim {
  id: string;
  /** The approved source the claim comes from (field name from specs/schemas/evidence.json). */
  source_id: string;
  topic: string;
  text: string;
  figure: number;
}

export interface EvidenceDoc {
  schema: "evidence/1";
  unit: string;
  sources: string[];
  claims: Claim[];
}

export function evidenceDoc(unit: string, claims: readonly Claim[], sources?: readonly string[]): EvidenceDoc {
  const ids = sources ?? [...new Set(claims.map((claim) => claim.source_id))];
  return { schema: "evidence/1", unit, sources: [...ids].sort(), claims: [...claims] };
}

/** `[E07-c2]`-style citations in a delivered text. */
export function citedClaims(text: string): string[] {
  return [...new Set([...text.matchAll(/\[(E\d\d-c\d)\]/g)].map((match) => match[1] as string))].sort();
}

export function cite(claim: Claim): string {
  return `${claim.text} [${claim.id}]`;
}

export interface AuditResult {
  files_checked: number;
  mismatches: string[];
}

/**
 * Every claim cited in the report and the brief is a row of the evidence
 * table, with the same figure; every source of the table is in the appendix.
 */
export function auditPack(files: { report: string; table: EvidenceDoc; brief: string; appendix: string }): AuditResult {
  const rows = new Map(files.table.claims.map((claim) => [claim.id, claim]));
  const mismatches: string[] = [];
  for (const [name, text] of [
    ["report", files.report],
    ["decision-brief", files.brief],
  ] as const) {
    for (const id of citedClaims(text)) {
      const row = rows.get(id);
      if (!row) mismatches.push(`${name} cites ${id}, which the evidence table does not list`);
      else if (!text.includes(`${row.figure}`)) mismatches.push(`${name} cites ${id} without its figure ${row.figure}`);
    }
  }
  for (const source of files.table.sources) {
    if (!files.appendix.includes(source)) mismatches.push(`appendix does not list ${source}`);
  }
  return { files_checked: 4, mismatches };
}

/** How each audience decision frames the pack (the handlers write it, the tone verifier checks it). */
export const AUDIENCES: Record<string, { tone: string; opening: string; order: "impact" | "risk" }> = {
  "product-team": { tone: "practical", opening: "What this means for the roadmap", order: "impact" },
  "investment-committee": { tone: "decision-ready", opening: "What this means for the investment decision", order: "risk" },
};
