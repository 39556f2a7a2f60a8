/**
 * Writes a plan sketch (compiler/test/impact/random-plan.ts) as contract YAML,
 * so the benchmark queries a plan that compile() produced, as the LSP and the
 * runtime do. Every sink's artifact is a task output (no dead-work warnings).
 */
import type { PlanSketch } from "../../compiler/test/impact/plan-builder.js";

export function contractOf(sketch: PlanSketch): string {
  const units = Object.entries(sketch.units);
  const needed = new Set(units.flatMap(([, u]) => Object.keys(u.needs ?? {})));
  const sinks = units.map(([id]) => id).filter((id) => !needed.has(id));
  const out = [
    "contract: 1",
    "task:",
    "  id: impact-bench",
    "  version: 1",
    "  goal: generated impact benchmark",
    `  outputs: [${sinks.map((id) => `art-${id}`).join(", ")}]`,
    "  done: [ok]",
    "inputs:",
    ...Object.keys(sketch.inputs ?? {}).map((name) => `  ${name}: { kind: snapshot, version: v1 }`),
    "budgets:",
    "  retries: 0",
    "verifiers:",
    '  ok: { kind: rule, check: "count(result.items) >= 0" }',
    "units:",
  ];
  for (const [id, unit] of units) {
    const needs = Object.entries(unit.needs ?? {}).map(([node, kinds]) => `${node}: [${([] as string[]).concat(kinds).join(", ")}]`);
    out.push(`  ${id}:`, `    phase: ${unit.phase ?? "work"}`, `    needs: { ${needs.join(", ")} }`, `    produces: [art-${id}]`, "    verify: [ok]");
  }
  const rules = sketch.rules ?? [];
  if (rules.length > 0) {
    out.push("impact:");
    for (const rule of rules) out.push(`  - on: ${rule.on}`, ...(rule.at ? [`    at: ${rule.at}`] : []), `    invalidate: [${rule.invalidate.join(", ")}]`);
  }
  return out.join("\n") + "\n";
}
