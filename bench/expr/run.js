/**
 * Expression benchmark: per-call time of each stage on the checks and keys
 * the example contracts use (lexing alone, then syntax, then the full
 * compile with names and types), evaluation and rendering, side by side in
 * one run; then the time hostile inputs take to be rejected. Run after
 * `npx tsc -b compiler`:
 *   node bench/expr/run.js            # markdown on stdout
 */
import os from "node:os";
import { compileExpression, compileTemplate, evaluate, renderTemplate } from "../../compiler/dist/index.js";
import { lex } from "../../compiler/dist/expr/lexer.js";
import { parseExpression } from "../../compiler/dist/expr/syntax.js";

const SCOPE = {
  task: { type: "object", fields: { id: { type: "string" }, version: { type: "number" } } },
  run: { type: "object", fields: { id: { type: "string" } } },
  unit: { type: "object", fields: { id: { type: "string" } } },
  attempt: { type: "object", fields: { id: { type: "string" }, number: { type: "number" } } },
  result: { type: "any" },
};
const CHECKS = [
  "count(result.claims) >= 1",
  "exists(result.post_id) && len(result.url) > 0",
  "result.claims_check.passed && count(result.claims_check.failed) == 0",
  "result.flight.arrives <= result.hotel.check_in && result.hotel.check_out <= result.flight.departs_back",
];
const KEYS = ["task:${task.id}:${unit.id}:v${task.version}", "${run.id}/${unit.id}/${attempt.id}"];
const RESULT = {
  claims: [1, 2],
  post_id: "p1",
  url: "https://x",
  claims_check: { passed: true, failed: [] },
  flight: { arrives: "2026-01-01", departs_back: "2026-01-09" },
  hotel: { check_in: "2026-01-02", check_out: "2026-01-08" },
};
const ENV = { task: { id: "t", version: 5 }, run: { id: "R1" }, unit: { id: "u" }, attempt: { id: "a1", number: 1 }, result: RESULT };

/**
 * Per-call time in microseconds, best of `runs` batches: on a shared machine
 * the fastest batch is the one least disturbed by other processes.
 */
function perCall(fn, calls, runs = 9) {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    for (let i = 0; i < calls; i++) fn(i);
    best = Math.min(best, ((performance.now() - t) * 1000) / calls);
  }
  return best;
}

const compiled = CHECKS.map((c) => compileExpression(c, SCOPE, "boolean").expr);
const templates = KEYS.map((k) => compileTemplate(k, SCOPE).template);
if (compiled.some((c) => !c) || templates.some((t) => !t)) throw new Error("bench expressions do not compile");
const N = 20000;
perCall((i) => compileExpression(CHECKS[i % CHECKS.length], SCOPE, "boolean"), N, 3); // warm up

const lexUs = perCall((i) => lex(CHECKS[i % CHECKS.length]), N);
const rows = [
  ["lex (chevrotain lexer)", lexUs],
  ["syntax (lex + parse + AST)", perCall((i) => parseExpression(CHECKS[i % CHECKS.length]), N)],
  ["compileExpression (syntax + names + types)", perCall((i) => compileExpression(CHECKS[i % CHECKS.length], SCOPE, "boolean"), N)],
  ["compileTemplate (key)", perCall((i) => compileTemplate(KEYS[i % KEYS.length], SCOPE), N)],
  ["evaluate (check)", perCall((i) => evaluate(compiled[i % compiled.length].ast, ENV), N)],
  ["renderTemplate (key)", perCall((i) => renderTemplate(templates[i % templates.length], ENV), N)],
];

const hostile = [
  ["100k tokens (`n+n+...`)", Array.from({ length: 50_000 }, () => "n").join("+")],
  ["5k tokens in 10k chars", Array.from({ length: 2_500 }, () => "n").join("+")],
  ["10k nested parentheses", "(".repeat(10_000) + "1" + ")".repeat(10_000)],
  ["5k nested parentheses", "(".repeat(5_000) + "1" + ")".repeat(5_000)],
  ["20k bytes of binary junk", String.fromCharCode(...Array.from({ length: 20_000 }, (_, i) => (i * 7919 + 13) % 256))],
];

const out = [
  `Machine: ${os.cpus()[0]?.model ?? "unknown cpu"} x${os.cpus().length}, Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)} at start. Command: \`npx tsc -b compiler && node bench/expr/run.js\``,
  "",
  `Typical expressions (${CHECKS.length} checks, ${KEYS.length} keys from the example contracts), best of 9 batches of 20,000 calls, relative to lexing the same checks:`,
  "",
  "| operation | per call | vs lexing |",
  "|---|---:|---:|",
  ...rows.map(([name, us]) => `| ${name} | ${us.toFixed(2)} us | ${(us / lexUs).toFixed(1)}x |`),
  "",
  "Hostile input, time to the error (best of 5):",
  "",
  "| input | time | first error |",
  "|---|---:|---|",
  ...hostile.map(([name, source]) => {
    const ms = perCall(() => compileExpression(source, SCOPE, "boolean"), 1, 5) / 1000;
    const first = compileExpression(source, SCOPE, "boolean").errors[0]?.message ?? "(none)";
    return `| ${name} | ${ms.toFixed(2)} ms | ${first.length > 70 ? `${first.slice(0, 70)}...` : first} |`;
  }),
];
console.log(out.join("\n"));
