/**
 * Generates a realistic contract of N units: layered phases with fan-in
 * (each unit needs 1-5 units of the previous layer, and every unit feeds the
 * next layer, so nothing is dead work), snapshot/decision/external inputs,
 * tools of every recovery class, loops on about 10% of the units, inline
 * checks and named verifiers, costs on every unit. Deterministic per seed.
 */
export function generateContract(units, seed = 1) {
  let state = seed >>> 0 || 1;
  const rand = (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const layers = Math.max(4, Math.min(24, Math.round(Math.sqrt(units) / 4)));
  const width = Math.ceil(units / layers);
  const phases = ["plan", "extract", "verify", "synthesize", "assemble", "audit"];
  const kinds = ["content", "structure", "policy", "audience"];
  const id = (layer, i) => `u${layer}_${i}`;
  const layerSize = (layer) => Math.max(0, Math.min(width, units - layer * width));

  const out = [];
  const finals = [];
  out.push("contract: 1", "task:", "  id: bench", "  version: 1", "  goal: Generated benchmark contract");
  const last = layers - 1;
  for (let i = 0; i < layerSize(last); i++) finals.push(`art-${id(last, i)}`);
  out.push(`  outputs: [${finals.join(", ")}]`, "  done: [audit_all]");
  out.push("inputs:");
  for (let i = 0; i < 20; i++) {
    const kind = ["snapshot", "decision", "external"][i % 3];
    out.push(
      kind === "decision"
        ? `  in${i}: { kind: decision, value: choice-${i} }`
        : `  in${i}: { kind: ${kind}${kind === "snapshot" ? `, version: v${i}` : ""} }`,
    );
  }
  out.push(`budgets: { model_calls: ${units * 20}, tool_calls: ${units * 40}, tokens: ${units * 200000}, wall_clock: 72h, retries: 1 }`);
  out.push(
    "tools:",
    "  fetch_page: { class: read, cost: { tokens: 2000 } }",
    "  find_post: { class: read }",
    '  write_file: { class: idempotent, key: "${run.id}/${unit.id}/${attempt.id}" }',
    '  create_post: { class: dedup, key: "task:${task.id}:${unit.id}:v${task.version}", lookup: find_post, result: { post_id: string } }',
    "  book_slot:",
    "    class: compensable",
    "    result: { slot_id: string }",
    '    compensate: { tool: cancel_slot, with: { slot_id: "${result.slot_id}" } }',
    "  cancel_slot: { class: idempotent }",
    "  send_mail: { class: irreversible, approval: human }",
  );
  out.push(
    "verifiers:",
    "  evidence_schema: { kind: schema, schema: schemas/evidence.json }",
    '  has_claims: { kind: rule, check: "count(result.claims) >= 1" }',
    '  audit_all: { kind: rule, check: "all(result.checks)" }',
    "  tone_ok: { kind: model, describe: reads right for the committee }",
  );
  out.push("units:");
  const tools = ["fetch_page", "write_file", "create_post", "book_slot", "send_mail"];
  for (let layer = 0; layer < layers; layer++) {
    const size = layerSize(layer);
    const below = layer > 0 ? layerSize(layer - 1) : 0;
    for (let i = 0; i < size; i++) {
      const u = id(layer, i);
      out.push(`  ${u}:`, `    phase: ${phases[Math.min(phases.length - 1, Math.floor((layer * phases.length) / layers))]}`);
      const needs = new Map();
      if (layer === 0) needs.set(`in${rand(20)}`, "content");
      else {
        // every unit of the layer below feeds someone: units i, i+size, ... below are needed by i
        for (let j = i; j < below; j += size) needs.set(id(layer - 1, j), kinds[rand(4)]);
        const extra = 1 + rand(4);
        for (let k = 0; k < extra; k++)
          needs.set(id(layer - 1, rand(below)), rand(3) === 0 ? `[content, ${kinds[1 + rand(3)]}]` : "content");
        if (rand(10) === 0) needs.set(`in${rand(20)}`, "audience");
      }
      out.push(`    needs: { ${[...needs].map(([n, k]) => `${n}: ${k}`).join(", ")} }`);
      const tool = rand(10) < 3 ? tools[rand(tools.length)] : undefined;
      if (tool) out.push(`    uses: [${tool}]`);
      if (tool === "send_mail") out.push("    approval: human");
      if (rand(10) === 0)
        out.push(`    loop: { max: ${2 + rand(3)}, until: "result.claims_check.passed && count(result.claims) > ${rand(5)}" }`);
      out.push(`    cost: { model_calls: ${1 + rand(3)}, tokens: ${10000 + rand(40000)} }`);
      out.push(`    produces: [art-${u}]`);
      out.push(
        rand(4) === 0
          ? `    verify: [has_claims, { check: "len(result.summary) > ${rand(100)}" }]`
          : "    verify: [evidence_schema, has_claims]",
      );
      out.push("    timeout: 45m");
    }
  }
  return `${out.join("\n")}\n`;
}

/**
 * The same layered shape as generateContract, written one unit per line in
 * flow style with short names and sparser extras, so that 100,000 units fit
 * under the compiler's 8 MiB size cap (bench/large): each unit needs one or
 * two units of the layer below (every unit of that layer feeds someone), in
 * all four kinds, some as lists, and one in twenty an input too; tools of
 * every recovery class on a quarter of the units (an approval where the
 * tool needs one); loops on 2%; named verifiers on every unit (schema,
 * rule), an inline check on 3%; phases; the last layer's artifacts are the
 * task's outputs. Deterministic per seed.
 */
export function generateFlowContract(units, seed = 1) {
  let state = seed >>> 0 || 1;
  const rand = (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const layers = Math.max(4, Math.min(24, Math.round(Math.sqrt(units) / 4)));
  const width = Math.ceil(units / layers);
  const kinds = ["content", "structure", "policy", "audience"];
  const layerSize = (layer) => Math.max(0, Math.min(width, units - layer * width));
  const id = (layer, i) => `u${layer * width + i}`;
  const last = layers - 1;
  const out = [
    "contract: 1",
    "task:",
    "  id: bench",
    "  version: 1",
    "  goal: Generated benchmark contract",
    `  outputs: [${Array.from({ length: layerSize(last) }, (_, i) => `a${id(last, i).slice(1)}`).join(", ")}]`,
    "  done: [audit_all]",
    "  timeout: 45m",
    "inputs:",
  ];
  for (let i = 0; i < 20; i++) {
    const kind = ["snapshot", "decision", "external"][i % 3];
    out.push(
      kind === "decision"
        ? `  in${i}: { kind: decision, value: choice-${i} }`
        : `  in${i}: { kind: ${kind}${kind === "snapshot" ? `, version: v${i}` : ""} }`,
    );
  }
  out.push(
    `budgets: { model_calls: ${units * 20}, tool_calls: ${units * 40}, tokens: ${units * 200000}, wall_clock: 72h, retries: 1 }`,
    "tools:",
    "  fetch: { class: read, cost: { tokens: 2000 } }",
    "  find_post: { class: read }",
    '  write: { class: idempotent, key: "${run.id}/${unit.id}/${attempt.id}" }',
    '  post: { class: dedup, key: "task:${task.id}:${unit.id}:v${task.version}", lookup: find_post, result: { post_id: string } }',
    "  book:",
    "    class: compensable",
    "    result: { slot_id: string }",
    '    compensate: { tool: cancel, with: { slot_id: "${result.slot_id}" } }',
    "  cancel: { class: idempotent }",
    "  mail: { class: irreversible, approval: human }",
    "verifiers:",
    "  ev: { kind: schema, schema: schemas/evidence.json }",
    '  claims: { kind: rule, check: "count(result.claims) >= 1" }',
    '  audit_all: { kind: rule, check: "all(result.checks)" }',
    "  tone: { kind: model, describe: reads right for the committee }",
    "units:",
  );
  const tools = ["fetch", "write", "post", "book", "mail"];
  for (let layer = 0; layer < layers; layer++) {
    const size = layerSize(layer);
    const below = layer > 0 ? layerSize(layer - 1) : 0;
    const phase = `p${Math.floor((layer * 6) / layers)}`;
    for (let i = 0; i < size; i++) {
      const u = id(layer, i);
      const needs = new Map();
      if (layer === 0) needs.set(`in${rand(20)}`, "content");
      else {
        for (let j = i; j < below; j += size) needs.set(id(layer - 1, j), kinds[rand(4)]);
        const extra = rand(3) === 0 ? 1 : 0;
        for (let k = 0; k < extra; k++)
          needs.set(id(layer - 1, rand(below)), rand(4) === 0 ? `[content, ${kinds[1 + rand(3)]}]` : "content");
        if (rand(20) === 0) needs.set(`in${rand(20)}`, "audience");
      }
      const fields = [`phase: ${phase}`, `needs: { ${[...needs].map(([n, k]) => `${n}: ${k}`).join(", ")} }`];
      const tool = rand(4) === 0 ? tools[rand(tools.length)] : undefined;
      if (tool) fields.push(`uses: [${tool}]`);
      if (tool === "mail") fields.push("approval: human");
      if (rand(50) === 0) fields.push(`loop: { max: ${2 + rand(3)}, until: "count(result.claims) > ${rand(5)}" }`);
      if (layer === last) fields.push(`produces: [a${u.slice(1)}]`);
      fields.push(
        rand(30) === 0
          ? `verify: [claims, { check: "len(result.summary) > ${rand(100)}" }]`
          : rand(6) === 0
            ? "verify: [ev, claims]"
            : "verify: [ev]",
      );
      out.push(`  ${u}: { ${fields.join(", ")} }`);
    }
  }
  return `${out.join("\n")}\n`;
}
