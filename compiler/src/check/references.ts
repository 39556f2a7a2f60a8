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

interface Target {
  noun: string;
  /** The declaration maps a name of this kind may resolve to. */
  scopes: (model: ContractModel) => Map<string, unknown>[];
}

const TARGETS: Partial<Record<RefKind, Target>> = {
  needs: { noun: "unit or input", scopes: (m) => [m.units, m.inputs] },
  at: { noun: "unit or input", scopes: (m) => [m.units, m.inputs] },
  invalidate: { noun: "unit", scopes: (m) => [m.units] },
  uses: { noun: "tool", scopes: (m) => [m.tools] },
  verify: { noun: "verifier", scopes: (m) => [m.verifiers] },
  done: { noun: "verifier", scopes: (m) => [m.verifiers] },
};

export function checkReferences(ctx: CheckContext): void {
  const { model } = ctx.parsed;
  // one list of declaration maps (and of names) per kind, not one per reference (a 10k-unit contract has ~50k references)
  const scopesOf = new Map<RefKind, Map<string, unknown>[]>();
  const namesOf = new Map<RefKind, string[]>();
  for (const site of model.references) {
    const target = TARGETS[site.kind];
    if (!target) continue;
    let scopes = scopesOf.get(site.kind);
    if (!scopes) scopesOf.set(site.kind, (scopes = target.scopes(model)));
    if (declaredIn(scopes, site.name)) continue;
    let names = namesOf.get(site.kind);
    if (!names) namesOf.set(site.kind, (names = scopes.flatMap((scope) => [...scope.keys()])));
    const suggestion = closest(site.name, names, ctx.suggestions);
    ctx.sink.report(
      "C010",
      site.span,
      `unknown ${target.noun} '${site.name}' in ${site.kind} of ${ownerName(site.owner)}${didYouMean(suggestion)}`,
      suggestion ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span: site.span, newText: suggestion }], safe: false }] } : {},
    );
  }
  for (const input of model.inputs.values()) {
    const unit = model.units.get(input.name);
    if (!unit) continue;
    ctx.sink.report(
      "C011",
      unit.keySpan,
      `'${input.name}' is declared both as a unit and as an input; rename one so 'needs' is unambiguous`,
      {
        related: [{ message: `input '${input.name}'`, span: input.keySpan }],
      },
    );
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
