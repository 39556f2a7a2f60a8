/**
 * A generated contract for the impact benchmark: `units` units in six phases
 * and about `edges` typed edges (1-4 kinds each). A pipeline has locality, so
 * most needs point a few dozen units back, some far back, some at one of the
 * inputs; that makes long dependency chains (deep explanation paths), the hard
 * case for path building. Two impact rules (one with `at`). Every sink's
 * artifact is a task output, so there are no dead-work warnings.
 * Deterministic per seed.
 */
const KINDS = ["content", "structure", "policy", "audience"];

export function generateContract(units, edges, seed = 42) {
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const inputCount = Math.max(1, Math.round(units / 100));
  const input = (i) => `in${i}`;
  const id = (i) => `U${String(i).padStart(5, "0")}`;
  const perUnit = edges / units;
  const needsOf = [];
  const needed = new Set();
  for (let u = 0; u < units; u++) {
    const needs = new Map();
    const count = u === 0 ? 1 : Math.max(1, Math.round(perUnit * (0.5 + random())));
    for (let j = 0; j < count; j++) {
      const r = random();
      const from =
        u === 0 || r < 0.05 ? input(Math.floor(random() * inputCount)) : id(Math.max(0, u - 1 - Math.floor((r < 0.8 ? 50 : u) * random())));
      let kinds = KINDS.filter(() => random() < 0.4);
      if (kinds.length === 0) kinds = [KINDS[Math.floor(random() * KINDS.length)]];
      needs.set(from, kinds);
      needed.add(from);
    }
    needsOf.push(needs);
  }
  const sinks = needsOf.map((_, u) => id(u)).filter((unit) => !needed.has(unit));
  const out = [
    "contract: 1",
    "task:",
    "  id: impact-bench",
    "  version: 1",
    "  goal: generated impact benchmark",
    `  outputs: [${sinks.map((unit) => `art-${unit}`).join(", ")}]`,
    "  done: [ok]",
    "inputs:",
    ...Array.from({ length: inputCount }, (_, i) => `  ${input(i)}: { kind: snapshot, version: v1 }`),
    "budgets:",
    "  retries: 0",
    "verifiers:",
    '  ok: { kind: rule, check: "count(result.items) >= 0" }',
    "units:",
  ];
  needsOf.forEach((needs, u) => {
    const list = [...needs].map(([node, kinds]) => `${node}: [${kinds.join(", ")}]`).join(", ");
    out.push(
      `  ${id(u)}:`,
      `    phase: phase${Math.floor((u / units) * 6)}`,
      `    needs: { ${list} }`,
      `    produces: [art-${id(u)}]`,
      "    verify: [ok]",
    );
  });
  out.push(
    "impact:",
    "  - on: policy",
    `    at: ${input(3 % inputCount)}`,
    `    invalidate: [${id(Math.floor(units * 0.7))}]`,
    "  - on: audience",
    `    invalidate: [${id(Math.floor(units * 0.9))}]`,
  );
  return out.join("\n") + "\n";
}
