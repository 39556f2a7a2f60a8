/**
 * C010: every name must refer to something declared (needs -> unit or input,
 * uses -> tool, verify/done -> verifier, impact invalidate -> unit, impact
 * at -> unit or input), with a did-you-mean fix. C011: a name declared both as
 * a unit and as an input would make `needs` ambiguous.
 * Lookup and compensator names are C031 (compensation.ts); task outputs
 * nobody produces are C012 (artifacts.ts).
 */
import type { ContractModel, Owner, RefKind } from "../parse/model.js";
import { closest, didYouMean } from "../source/suggest.js";
import type { CheckContext } from "./context.js";
import type { PlanView } from "./plan-view.js";
import type { VerifierUse } from "../plan/schema.js";

type Declared = "units" | "inputs" | "tools" | "verifiers";

interface Target {
  noun: string;
  /** The declarations a name of this kind may resolve to, in a contract and in a plan alike. */
  declared: readonly Declared[];
  scopes: (model: ContractModel) => Map<string, unknown>[];
}

const target = (noun: string, declared: Declared[]): Target => ({ noun, declared, scopes: (m) => declared.map((d) => m[d]) });

const TARGETS: Partial<Record<RefKind, Target>> = {
  needs: target("unit or input", ["units", "inputs"]),
  at: target("unit or input", ["units", "inputs"]),
  invalidate: target("unit", ["units"]),
  uses: target("tool", ["tools"]),
  verify: target("verifier", ["verifiers"]),
  done: target("verifier", ["verifiers"]),
};

export function unknownReferenceMessage(noun: string, name: string, kind: string, owner: string): string {
  return `unknown ${noun} '${name}' in ${kind} of ${owner}`;
}

export function unitAndInputMessage(name: string): string {
  return `'${name}' is declared both as a unit and as an input; rename one so 'needs' is unambiguous`;
}

export function checkReferences(ctx: CheckContext): void {
  const { model } = ctx.parsed;
  // one list of declaration maps (and of names) per kind, not one per reference (a 10k-unit contract has ~50k references)
  const scopesOf = new Map<RefKind, Map<string, unknown>[]>();
  const namesOf = new Map<RefKind, string[]>();
  for (const site of model.references) {
    const to = TARGETS[site.kind];
    if (!to) continue;
    let scopes = scopesOf.get(site.kind);
    if (!scopes) scopesOf.set(site.kind, (scopes = to.scopes(model)));
    if (declaredIn(scopes, site.name)) continue;
    let names = namesOf.get(site.kind);
    if (!names) namesOf.set(site.kind, (names = scopes.flatMap((scope) => [...scope.keys()])));
    const suggestion = closest(site.name, names, ctx.suggestions);
    ctx.sink.report(
      "C010",
      site.span,
      `${unknownReferenceMessage(to.noun, site.name, site.kind, ownerName(site.owner))}${didYouMean(suggestion)}`,
      suggestion ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span: site.span, newText: suggestion }], safe: false }] } : {},
    );
  }
  for (const input of model.inputs.values()) {
    const unit = model.units.get(input.name);
    if (!unit) continue;
    ctx.sink.report("C011", unit.keySpan, unitAndInputMessage(input.name), {
      related: [{ message: `input '${input.name}'`, span: input.keySpan }],
    });
  }
}

function declaredIn(scopes: Map<string, unknown>[], name: string): boolean {
  for (const scope of scopes) if (scope.has(name)) return true;
  return false;
}

export function ownerName(owner: Owner): string {
  switch (owner.kind) {
    case "task":
      return "the task";
    case "impact":
      return `impact rule ${Number(owner.name) + 1}`;
    default:
      return `${owner.kind} '${owner.name}'`;
  }
}

/**
 * C010 and C011 on a plan: every name it uses resolves to what it declares
 * (with the same targets as a contract's names, TARGETS), each name is
 * declared once, and the plan's derived lists (levels, edges) name only
 * what it declares.
 */
export function planReferences(view: PlanView): void {
  const { plan } = view;
  const declared: Record<Declared, { has(name: string): boolean }> = {
    units: view.units,
    inputs: view.inputs,
    tools: view.tools,
    verifiers: view.verifiers,
  };
  const resolve = (kind: RefKind, name: string, owner: string, path: string) => {
    const to = TARGETS[kind]!;
    if (!to.declared.some((d) => declared[d].has(name))) view.report("C010", path, unknownReferenceMessage(to.noun, name, kind, owner));
  };
  const uses = (list: readonly VerifierUse[], kind: RefKind, owner: string, path: string) =>
    list.forEach((use, j) => {
      if ("ref" in use) resolve(kind, use.ref, owner, `${path}/${j}/ref`);
    });
  uses(plan.task.done, "done", "the task", "/task/done");
  plan.units.forEach((unit, i) => {
    const owner = `unit '${unit.id}'`;
    unit.needs.forEach((need, j) => {
      // a plan says which declaration a need names: it must be one of that kind
      const known = need.nodeType === "unit" ? view.units.has(need.node) : view.inputs.has(need.node);
      if (!known) view.report("C010", `/units/${i}/needs/${j}/node`, unknownReferenceMessage(need.nodeType, need.node, "needs", owner));
    });
    unit.uses.forEach((tool, j) => resolve("uses", tool, owner, `/units/${i}/uses/${j}`));
    uses(unit.verify, "verify", owner, `/units/${i}/verify`);
  });
  plan.impactRules.forEach((rule, i) => {
    const owner = `impact rule ${i + 1}`;
    if (rule.at !== undefined) resolve("at", rule.at, owner, `/impactRules/${i}/at`);
    rule.invalidate.forEach((unit, j) => resolve("invalidate", unit, owner, `/impactRules/${i}/invalidate/${j}`));
  });
  plan.levels.forEach((level, i) =>
    level.forEach((id, j) => {
      if (!view.units.has(id)) view.report("C010", `/levels/${i}/${j}`, unknownReferenceMessage("unit", id, "levels", "the plan"));
    }),
  );
  plan.edges.forEach((edge, i) => {
    if (!view.units.has(edge.to)) view.report("C010", `/edges/${i}/to`, unknownReferenceMessage("unit", edge.to, "edges", "the plan"));
    if (!view.units.has(edge.from) && !view.inputs.has(edge.from))
      view.report("C010", `/edges/${i}/from`, unknownReferenceMessage("unit or input", edge.from, "edges", "the plan"));
  });
  const once = <T>(items: readonly T[], name: (t: T) => string, noun: string, list: string) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const n = name(item);
      if (seen.has(n)) view.report("C011", `/${list}/${i}`, `${noun} '${n}' is declared twice`);
      seen.add(n);
    });
  };
  once(plan.units, (u) => u.id, "unit", "units");
  once(plan.inputs, (x) => x.name, "input", "inputs");
  once(plan.tools, (t) => t.name, "tool", "tools");
  once(plan.verifiers, (v) => v.name, "verifier", "verifiers");
  plan.inputs.forEach((input, i) => {
    if (view.units.has(input.name)) view.report("C011", `/inputs/${i}/name`, unitAndInputMessage(input.name));
  });
}
