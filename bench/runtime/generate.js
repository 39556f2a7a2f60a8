/**
 * Generates a contract of `width` independent columns and `depth` levels:
 * unit c<col>l<level> needs c<col>l<level-1>; only the last level writes an
 * artifact (the task outputs). Units finish together level by level, which is
 * where group commits pay.
 */
export function layeredContract(width, depth) {
  const lines = [
    "contract: 1",
    "task:",
    "  id: bench",
    "  version: 1",
    "  goal: benchmark",
    "  outputs: [" + Array.from({ length: width }, (_, c) => `out-${c}`).join(", ") + "]",
    '  done: [{ check: "count(result.stale_outputs) == 0" }]',
    "budgets:",
    "  model_calls: 1000000",
    "  tool_calls: 1000000",
    "  tokens: 100000000",
    "  retries: 0",
    "units:",
  ];
  for (let l = 0; l < depth; l++) {
    for (let c = 0; c < width; c++) {
      lines.push(`  c${c}l${l}:`);
      lines.push(`    phase: p${l}`);
      if (l > 0) lines.push(`    needs: { c${c}l${l - 1}: content }`);
      if (l === depth - 1) lines.push(`    produces: [out-${c}]`);
    }
  }
  return lines.join("\n") + "\n";
}

/** Handlers for layeredContract: no work; the last level writes its 64-byte output. */
export function layeredHandlers(width, depth) {
  const units = {};
  for (let l = 0; l < depth; l++) {
    for (let c = 0; c < width; c++) {
      units[`c${c}l${l}`] = l === depth - 1 ? async (ctx) => (await ctx.write(`out-${c}`, "x".repeat(64)), { c }) : async () => ({ c, l });
    }
  }
  return { units, tools: {} };
}
