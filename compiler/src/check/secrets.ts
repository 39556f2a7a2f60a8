/**
 * A value the contract marks `secret` (an input, a tool argument, a result
 * field) is never stored by the runtime (docs/runtime.md "What the store
 * keeps"). C037 reports the places where the contract itself would make the
 * store keep it in clear, or need it back from the store:
 * - a secret input with a `value` written in the contract: the plan holds
 *   it, and the store keeps every plan it ran;
 * - a tool `key` that reads a secret input or one of the tool's secret
 *   arguments: the rendered key is stored with the effect and shown in
 *   events, `status` and `handoff`; a compensation argument that does: the
 *   rendered compensation is stored with the effect;
 * - a compensation argument that reads a secret result field: the ledger
 *   never stores that field, so the stored receipt cannot render it.
 */
import { pathsIn, type ExprPath } from "../expr/index.js";
import type { CompiledTemplate } from "../plan/schema.js";
import { pairOf, valueSpan } from "../parse/yaml-nodes.js";
import { scalarOffsetMapper } from "../source/scalar-offsets.js";
import type { CheckContext } from "./context.js";
import { pathKey, type CompiledExpressions } from "./expressions.js";

export function checkSecrets(ctx: CheckContext, compiled: CompiledExpressions): void {
  const { contract, parsed } = ctx;
  const inputs = contract.inputs ?? {};
  const tools = contract.tools ?? {};
  const secretInputs = new Set(Object.keys(inputs).filter((name) => inputs[name]!.secret === true));
  for (const name of secretInputs) {
    if (inputs[name]!.value === undefined) continue;
    const decl = parsed.model.inputs.get(name);
    const pair = pairOf(decl?.map, "value");
    ctx.sink.report(
      "C037",
      pair ? valueSpan(pair) : (decl?.keySpan ?? { start: 0, end: 0 }),
      `input '${name}' is secret, but its value is written in the contract: the plan holds it in clear and the store keeps every plan it ran; remove \`value\` and give the input with an input reader (\`inputs.${name}\` of the tools module)`,
      decl ? { related: [{ message: `input '${name}' is marked secret`, span: decl.keySpan }] } : {},
    );
  }
  for (const site of parsed.model.expressions) {
    if (site.kind !== "key" && site.kind !== "with") continue;
    const name = site.owner.name;
    const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
    const template = compiled.get(pathKey(site.path)) as CompiledTemplate | undefined;
    if (!tool || !template) continue;
    const map = scalarOffsetMapper(ctx.text, site.scalar);
    const span = (p: ExprPath) => ({ start: map(p.span.start), end: Math.max(map(p.span.end), map(p.span.start) + 1) });
    const first = (p: ExprPath) => (p.segments[0]?.kind === "prop" ? p.segments[0].name : undefined);
    const paths = template.parts.flatMap((p) => ("expr" in p ? pathsIn(p.expr) : []));
    const secretRead = (p: ExprPath, field: string) =>
      p.root === "inputs" && secretInputs.has(field)
        ? `secret input '${field}'`
        : p.root === "args" && tool.args && Object.hasOwn(tool.args, field) && tool.args[field]!.secret === true
          ? `secret argument '${field}'`
          : undefined;
    for (const p of paths) {
      const field = first(p);
      const what = field === undefined ? undefined : secretRead(p, field);
      if (!what) continue;
      ctx.sink.report(
        "C037",
        span(p),
        site.kind === "key"
          ? `key of tool '${name}' reads ${what}: the rendered key is stored in clear with the effect and shown in events, \`status\` and \`handoff\`; build the key from what names the intent (task, run, unit, an id)`
          : `compensation of tool '${name}' reads ${what}: the rendered compensation arguments are stored in clear with the effect; compensate with what names the effect (an id from \`result\`)`,
      );
    }
    if (site.kind === "key") continue;
    // a `with` belongs to the compensated tool: `result` is that tool's receipt
    for (const p of paths) {
      const field = first(p);
      const spec =
        p.root === "result" && field !== undefined && tool.result && Object.hasOwn(tool.result, field) ? tool.result[field] : undefined;
      if (typeof spec !== "object" || spec.secret !== true) continue;
      ctx.sink.report(
        "C037",
        span(p),
        `compensation of tool '${name}' reads secret result field '${field}': the ledger never stores a secret field, so the stored receipt cannot render it when the undo runs; compensate with a field that is not secret (an id)`,
      );
    }
  }
}
