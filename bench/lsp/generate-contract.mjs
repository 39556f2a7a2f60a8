/**
 * Generates a valid contract with N units for the language-server benchmark:
 * layers of 50 units, each unit needing one to three units of the layer before
 * (one of them always the unit straight above it, so nothing is dead work),
 * some reading the audience input, the last layer producing the task outputs.
 * Deterministic: the same N gives the same text.
 */
const WIDTH = 50;
const PHASES = ["extract", "analyze", "synthesize", "write", "review"];
const KINDS = [["content"], ["content", "structure"], ["structure"], ["content", "policy"], ["audience"]];

function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function unitId(i) {
  return `U${String(i).padStart(5, "0")}`;
}

export function generateContract(n) {
  const rand = random(n);
  const layers = Math.ceil(n / WIDTH);
  const lines = [];
  const outputs = [];
  for (let i = Math.max(0, (layers - 1) * WIDTH); i < n; i++) outputs.push(`a-${unitId(i)}`);
  // A layer that is not the last but has a unit with no unit below it would be dead work; the
  // last partial layer leaves such units when n is not a multiple of WIDTH: they feed outputs too.
  for (let i = Math.max(0, (layers - 2) * WIDTH); i < (layers - 1) * WIDTH; i++) if (i + WIDTH >= n) outputs.push(`a-${unitId(i)}`);
  lines.push(
    "contract: 1",
    "task:",
    `  id: bench-${n}`,
    "  version: 1",
    `  goal: Generated benchmark contract with ${n} units`,
    "  forbid: [publish without approval]",
    `  outputs: [${outputs.join(", ")}]`,
    "  done: [all_outputs_current]",
    "inputs:",
    "  sources: { kind: snapshot, version: in-v3 }",
    "  audience: { kind: decision, value: product-team }",
    "  site: { kind: external }",
    "budgets:",
    `  model_calls: ${n * 40}`,
    `  tool_calls: ${n * 40}`,
    `  tokens: ${n * 400000}`,
    "  wall_clock: 36h",
    "  retries: 2",
    "tools:",
    "  fetch_page: { class: read }",
    '  write_file: { class: idempotent, key: "${run.id}/${unit.id}/${attempt.id}" }',
    "verifiers:",
    '  all_outputs_current: { kind: rule, check: "count(result.outputs) >= 1" }',
    '  has_claims: { kind: rule, check: "count(result.claims) >= 1" }',
    "  tone_ok: { kind: model, describe: reads right for the committee }",
    "units:",
  );
  for (let i = 0; i < n; i++) {
    const layer = Math.floor(i / WIDTH);
    const needs = [];
    if (layer === 0) needs.push(["sources", ["content"]]);
    else {
      const above = i - WIDTH;
      needs.push([unitId(above), KINDS[Math.floor(rand() * 4)]]);
      const extra = Math.floor(rand() * 3);
      const start = (layer - 1) * WIDTH;
      for (let k = 0; k < extra; k++) {
        const other = start + Math.floor(rand() * WIDTH);
        if (other !== above && !needs.some(([name]) => name === unitId(other))) needs.push([unitId(other), KINDS[Math.floor(rand() * 4)]]);
      }
      if (rand() < 0.1) needs.push(["audience", ["audience"]]);
    }
    const needsText = needs.map(([name, kinds]) => `${name}: ${kinds.length === 1 ? kinds[0] : `[${kinds.join(", ")}]`}`).join(", ");
    lines.push(
      `  ${unitId(i)}:`,
      `    phase: ${PHASES[Math.min(layer, PHASES.length - 1)]}`,
      `    needs: { ${needsText} }`,
      `    uses: [${layer === 0 ? "fetch_page" : rand() < 0.2 ? "write_file" : "fetch_page"}]`,
      "    cost: { model_calls: 2, tokens: 40000 }",
      `    produces: [a-${unitId(i)}]`,
      `    verify: [has_claims${rand() < 0.1 ? ", tone_ok" : ""}]`,
    );
    if (rand() < 0.05) lines.push('    loop: { max: 3, until: "result.claims_check.passed" }');
  }
  return lines.join("\n") + "\n";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(generateContract(Number(process.argv[2] ?? 500)));
}
