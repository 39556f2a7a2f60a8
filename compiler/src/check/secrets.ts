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
import { pointerToken, type PlanView } from "./plan-view.js";
import { pathKey, type CompiledExpressions } from "./expressions.js";

/** What a `key` or `with` path reads that is secret, or undefined: `inputs.<secret input>`, `args.<secret argument>`. */
export function secretReadOf(p: ExprPath, secretInputs: ReadonlySet<string>, isSecretArg: (field: string) => boolean): string | undefined {
  const field = firstField(p);
  if (field === undefined) return undefined;
  if (p.root === "inputs" && secretInputs.has(field)) return `secret input '${field}'`;
  if (p.root === "args" && isSecretArg(field)) return `secret argument '${field}'`;
  return undefined;
}

/** The secret result field a compensation argument reads (`result.<field>`), or undefined. */
export function secretResultOf(p: ExprPath, isSecretResult: (field: string) => boolean): string | undefined {
  const field = firstField(p);
  return p.root === "result" && field !== undefined && isSecretResult(field) ? field : undefined;
}

const firstField = (p: ExprPath) => (p.segments[0]?.kind === "prop" ? p.segments[0].name : undefined);

export function secretValueMessage(name: string): string {
  return `input '${name}' is secret, but its value is written in the contract: the plan holds it in clear and the store keeps every plan it ran; remove \`value\` and give the input with an input reader (\`inputs.${name}\` of the tools module)`;
}

export function secretReadMessage(kind: "key" | "with", tool: string, what: string): string {
  return kind === "key"
    ? `key of tool '${tool}' reads ${what}: the rendered key is stored in clear with the effect and shown in events, \`status\` and \`handoff\`; build the key from what names the intent (task, run, unit, an id)`
    : `compensation of tool '${tool}' reads ${what}: the rendered compensation arguments are stored in clear with the effect; compensate with what names the effect (an id from \`result\`)`;
}

export function secretResultMessage(tool: string, field: string): string {
  return `compensation of tool '${tool}' reads secret result field '${field}': the ledger never stores a secret field, so the stored receipt cannot render it when the undo runs; compensate with a field that is not secret (an id)`;
}

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
      secretValueMessage(name),
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
    const paths = template.parts.flatMap((p) => ("expr" in p ? pathsIn(p.expr) : []));
    const isSecretArg = (field: string) => !!tool.args && Object.hasOwn(tool.args, field) && tool.args[field]!.secret === true;
    for (const p of paths) {
      const what = secretReadOf(p, secretInputs, isSecretArg);
      if (what) ctx.sink.report("C037", span(p), secretReadMessage(site.kind, name, what));
    }
    if (site.kind === "key") continue;
    // a `with` belongs to the compensated tool: `result` is that tool's receipt
    const isSecretResult = (field: string) => {
      const spec = tool.result && Object.hasOwn(tool.result, field) ? tool.result[field] : undefined;
      return typeof spec === "object" && spec.secret === true;
    };
    for (const p of paths) {
      const field = secretResultOf(p, isSecretResult);
      if (field !== undefined) ctx.sink.report("C037", span(p), secretResultMessage(name, field));
    }
  }
}

/** C037 on a plan: a secret input's value in it, and keys and compensations that read a secret. */
export function planSecrets(view: PlanView): void {
  const secretInputs = new Set(view.plan.inputs.filter((i) => i.secret === true).map((i) => i.name));
  view.plan.inputs.forEach((input, i) => {
    if (input.secret === true && input.value !== undefined) view.report("C037", `/inputs/${i}/value`, secretValueMessage(input.name));
  });
  view.plan.tools.forEach((tool, i) => {
    const secretArgs = new Set(tool.secretArgs ?? []);
    const secretResult = new Set(tool.secretResult ?? []);
    const reads = (template: CompiledTemplate, kind: "key" | "with", at: string) => {
      const paths = template.parts.flatMap((p) => ("expr" in p ? pathsIn(p.expr) : []));
      for (const p of paths) {
        const what = secretReadOf(p, secretInputs, (field) => secretArgs.has(field));
        if (what) view.report("C037", at, secretReadMessage(kind, tool.name, what));
        const field = kind === "with" ? secretResultOf(p, (f) => secretResult.has(f)) : undefined;
        if (field !== undefined) view.report("C037", at, secretResultMessage(tool.name, field));
      }
    };
    if (tool.key) reads(tool.key, "key", `/tools/${i}/key`);
    for (const [arg, template] of Object.entries(tool.compensate?.with ?? {}))
      reads(template, "with", `/tools/${i}/compensate/with/${pointerToken(arg)}`);
  });
}
