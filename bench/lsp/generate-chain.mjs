/**
 * A contract that is one chain of N units, each needing the one before in
 * content: the worst case for explanation paths (unit k's shortest path is k
 * hops, so all of them together are N^2/2 hops). The lens bench (lens.mjs) and
 * the lsp tests use it. Deterministic.
 */
export function chainUnitId(i) {
  return `C${String(i).padStart(5, "0")}`;
}

export function generateChain(n) {
  const lines = [
    "contract: 1",
    "task:",
    `  id: chain-${n}`,
    `  goal: A chain of ${n} units`,
    `  outputs: [out-${chainUnitId(n - 1)}]`,
    '  done: [{ check: "count(result.outputs) >= 1" }]',
    "inputs:",
    "  sources: { kind: snapshot, version: v1 }",
    "budgets:",
    `  model_calls: ${n * 2}`,
    "tools:",
    "  fetch_page: { class: read }",
    "units:",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  ${chainUnitId(i)}:`,
      `    needs: { ${i === 0 ? "sources" : chainUnitId(i - 1)}: content }`,
      "    uses: [fetch_page]",
      "    cost: { model_calls: 1 }",
      `    produces: [out-${chainUnitId(i)}]`,
    );
  }
  return lines.join("\n") + "\n";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(generateChain(Number(process.argv[2] ?? 1000)));
}
