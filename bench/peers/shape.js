// The graph shape both sides run: the unit graph of
// specs/market-entry-pack.task.yaml as the compiler plans it (36 units, six
// levels), rendered as a LangGraph shape and as a taskspec contract whose
// units do no work, so only the engines' per-step overhead is measured.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));

export async function planShape(specName = "market-entry-pack") {
  const { compile } = await import(path.join(REPO, "compiler/dist/index.js"));
  const { plan, diagnostics } = compile(fs.readFileSync(path.join(REPO, `specs/${specName}.task.yaml`), "utf8"), {});
  if (!plan) throw new Error(`specs/${specName}.task.yaml does not compile: ${JSON.stringify(diagnostics)}`);
  return plan.units.map((unit) => ({ id: unit.id, needs: unit.needs.filter((need) => need.nodeType === "unit").map((need) => need.node) }));
}

/** The first `count` units in plan order (a topological prefix), with needs outside it dropped. */
export function prefix(units, count) {
  const kept = units.slice(0, count);
  const ids = new Set(kept.map((unit) => unit.id));
  return kept.map((unit) => ({ id: unit.id, needs: unit.needs.filter((need) => ids.has(need)) }));
}

export function taskspecContract(units) {
  const needed = new Set(units.flatMap((unit) => unit.needs));
  const sinks = units.filter((unit) => !needed.has(unit.id)).map((unit) => unit.id);
  const lines = [
    "contract: 1",
    "task:",
    "  id: bench-shape",
    "  version: 1",
    "  goal: per-step overhead of the engine on the ME-042 graph shape",
    `  outputs: [${sinks.map((id) => `out-${id}`).join(", ")}]`,
    '  done: [{ check: "1 == 1" }]',
    "inputs:",
    "  seed: { kind: snapshot, version: v1 }",
    "budgets:",
    "  model_calls: 10",
    "  retries: 0",
    "units:",
  ];
  for (const unit of units) {
    const needs = unit.needs.length === 0 ? "{ seed: content }" : `{ ${unit.needs.map((need) => `${need}: content`).join(", ")} }`;
    lines.push(`  ${unit.id}:`, `    needs: ${needs}`);
    if (sinks.includes(unit.id)) lines.push(`    produces: [out-${unit.id}]`);
  }
  return `${lines.join("\n")}\n`;
}

export function taskspecHandlers(units) {
  const needed = new Set(units.flatMap((unit) => unit.needs));
  const entries = units.map((unit) =>
    needed.has(unit.id)
      ? `  ${JSON.stringify(unit.id)}: () => ({}),`
      : `  ${JSON.stringify(unit.id)}: async (ctx) => { await ctx.write("out-${unit.id}", { done: true }); return {}; },`,
  );
  return `export default {\n units: {\n${entries.join("\n")}\n },\n tools: {},\n};\n`;
}
