/**
 * "What name is under the cursor, and what does it stand for": the common
 * first step of hover, definition, references and rename. A name is a
 * declaration key (`units.S04`) or a reference site (`needs: { S04: ... }`);
 * either way the answer is the declared thing's kind and name, plus the site.
 */
import { resolveReference, symbolAt, type ContractModel, type Decl, type DeclKind, type RefSite, type Span } from "@taskspec/compiler";

export interface Target {
  kind: DeclKind;
  name: string;
  /** The declaration, when the name is declared (an unknown reference has none). */
  decl: Decl | undefined;
  /** The span under the cursor. */
  span: Span;
  /** The reference under the cursor, when it is one. */
  ref: RefSite | undefined;
}

/** Which declaration kinds a reference of this kind may name, most likely first. */
const REF_TARGETS: Record<RefSite["kind"], DeclKind[]> = {
  needs: ["unit", "input"],
  at: ["unit", "input"],
  invalidate: ["unit"],
  uses: ["tool"],
  lookup: ["tool"],
  compensate: ["tool"],
  verify: ["verifier"],
  done: ["verifier"],
  produces: ["artifact"],
  outputs: ["artifact"],
};

export function targetAt(model: ContractModel, offset: number): Target | undefined {
  const found = symbolAt(model, offset);
  if (!found) return undefined;
  if (found.type === "declaration") {
    const { decl } = found;
    return { kind: decl.kind, name: decl.name, decl, span: decl.keySpan, ref: undefined };
  }
  const { ref } = found;
  const decl = resolveReference(model, ref);
  const kind = decl?.kind ?? REF_TARGETS[ref.kind][0]!;
  return { kind, name: ref.name, decl, span: ref.span, ref };
}

/** Does a reference site name the target (same name, and a kind of reference that can point at it)? */
export function refersTo(model: ContractModel, ref: RefSite, target: { kind: DeclKind; name: string }): boolean {
  if (ref.name !== target.name || !REF_TARGETS[ref.kind].includes(target.kind)) return false;
  // `needs: { X }` means the unit X when both a unit and an input are called X.
  if (target.kind === "input" && (ref.kind === "needs" || ref.kind === "at")) return !model.units.has(ref.name);
  return true;
}

/** Every reference to the target, in source order. */
export function referencesTo(model: ContractModel, target: { kind: DeclKind; name: string }): RefSite[] {
  return model.references.filter((r) => refersTo(model, r, target)).sort((a, b) => a.span.start - b.span.start);
}

/** The declarations of a kind. */
export function declsOf(model: ContractModel, kind: DeclKind): ReadonlyMap<string, Decl> {
  switch (kind) {
    case "unit":
      return model.units;
    case "input":
      return model.inputs;
    case "tool":
      return model.tools;
    case "verifier":
      return model.verifiers;
    case "artifact":
      return model.artifacts;
  }
}

/** The span of a name without the quotes around it, when it is written quoted. */
export function nameSpan(text: string, span: Span): Span {
  const first = text[span.start];
  if ((first === '"' || first === "'") && span.end - span.start >= 2 && text[span.end - 1] === first) {
    return { start: span.start + 1, end: span.end - 1 };
  }
  return span;
}
