/**
 * Walks the YAML tree once and fills the ContractModel. Tolerant of every
 * shape: wrong types are the schema's business (C002); this only records what
 * is there, first occurrence of each key wins.
 */
import type { Pair, Scalar } from "yaml";
import type { Span } from "../diagnostics/types.js";
import type { ArtifactDecl, ContractModel, Decl, DeclKind, ExprSite, NeedEntry, Owner, RefKind, RefSite, UnitDecl } from "./model.js";
import { keyName, keySpan, mapOf, nodeSpan, pairOf, scalarOf, seqOf, uniquePairs, valueSpan, type AliasTable } from "./yaml-nodes.js";

export function buildModel(contents: unknown, aliases: AliasTable): ContractModel {
  const model: ContractModel = {
    sections: new Map(),
    units: new Map(),
    inputs: new Map(),
    tools: new Map(),
    verifiers: new Map(),
    artifacts: new Map(),
    references: [],
    expressions: [],
  };
  const root = mapOf(contents, aliases);
  if (!root) return model;
  model.root = root;
  for (const pair of uniquePairs(root)) model.sections.set(keyName(pair), pair);
  new ModelBuilder(model, aliases).build();
  return model;
}

const NO_SPAN: Span = { start: 0, end: 0 };

class ModelBuilder {
  constructor(
    private readonly model: ContractModel,
    private readonly aliases: AliasTable,
  ) {}

  build(): void {
    const m = this.model;
    for (const pair of this.sectionPairs("inputs")) m.inputs.set(keyName(pair), this.decl("input", pair));
    for (const pair of this.sectionPairs("tools")) {
      const decl = this.decl("tool", pair);
      m.tools.set(decl.name, decl);
      this.tool(decl);
    }
    for (const pair of this.sectionPairs("verifiers")) {
      const decl = this.decl("verifier", pair);
      m.verifiers.set(decl.name, decl);
      const check = this.scalarString(pairOf(decl.map, "check")?.value);
      if (check) this.expr("check", "expression", check, { kind: "verifier", name: decl.name }, ["verifiers", decl.name, "check"]);
    }
    for (const pair of this.sectionPairs("units")) {
      const decl = this.decl("unit", pair) as UnitDecl;
      decl.needs = [];
      m.units.set(decl.name, decl);
      this.unit(decl);
    }
    this.task();
    this.impact();
  }

  private sectionPairs(section: string): Pair[] {
    return uniquePairs(mapOf(this.model.sections.get(section)?.value, this.aliases));
  }

  private decl(kind: DeclKind, pair: Pair): Decl {
    const decl: Decl = { kind, name: keyName(pair), keySpan: keySpan(pair), valueSpan: valueSpan(pair), pair };
    const map = mapOf(pair.value, this.aliases);
    if (map) decl.map = map;
    return decl;
  }

  private unit(unit: UnitDecl): void {
    const owner: Owner = { kind: "unit", name: unit.name };
    const needs = mapOf(pairOf(unit.map, "needs")?.value, this.aliases);
    for (const pair of uniquePairs(needs)) {
      const entry: NeedEntry = { name: keyName(pair), span: keySpan(pair), valueSpan: valueSpan(pair), kinds: [] };
      const seq = seqOf(pair.value, this.aliases);
      const values = seq ? seq.items : [pair.value];
      for (const item of values) {
        const scalar = scalarOf(item, this.aliases);
        if (scalar && scalar.value !== null) entry.kinds.push({ kind: String(scalar.value), span: nodeSpan(item, entry.valueSpan) });
      }
      unit.needs.push(entry);
      this.ref("needs", entry.name, entry.span, owner);
    }
    this.nameList(pairOf(unit.map, "uses"), "uses", owner);
    for (const site of this.nameList(pairOf(unit.map, "produces"), "produces", owner)) this.artifact(site.name, site.span, unit.name);
    this.verifyList(pairOf(unit.map, "verify"), "verify", owner, ["units", unit.name, "verify"]);
    const loop = mapOf(pairOf(unit.map, "loop")?.value, this.aliases);
    const until = this.scalarString(pairOf(loop, "until")?.value);
    if (until) this.expr("until", "expression", until, owner, ["units", unit.name, "loop", "until"]);
  }

  private tool(tool: Decl): void {
    const owner: Owner = { kind: "tool", name: tool.name };
    const lookup = pairOf(tool.map, "lookup");
    if (lookup) this.nameValue(lookup.value, "lookup", owner);
    const key = this.scalarString(pairOf(tool.map, "key")?.value);
    if (key) this.expr("key", "template", key, owner, ["tools", tool.name, "key"]);
    const compMap = mapOf(pairOf(tool.map, "compensate")?.value, this.aliases);
    if (compMap) {
      const toolPair = pairOf(compMap, "tool");
      if (toolPair) this.nameValue(toolPair.value, "compensate", owner);
      for (const arg of uniquePairs(mapOf(pairOf(compMap, "with")?.value, this.aliases))) {
        const scalar = this.scalarString(arg.value);
        if (scalar) this.expr("with", "template", scalar, owner, ["tools", tool.name, "compensate", "with", keyName(arg)], keyName(arg));
      }
      const compensated = this.scalarString(pairOf(compMap, "compensated")?.value);
      if (compensated) this.expr("compensated", "expression", compensated, owner, ["tools", tool.name, "compensate", "compensated"]);
    }
  }

  private task(): void {
    const task = mapOf(this.model.sections.get("task")?.value, this.aliases);
    const owner: Owner = { kind: "task", name: "task" };
    this.nameList(pairOf(task, "outputs"), "outputs", owner);
    this.verifyList(pairOf(task, "done"), "done", owner, ["task", "done"]);
    const queue = mapOf(this.model.sections.get("queue")?.value, this.aliases);
    const key = this.scalarString(pairOf(queue, "key")?.value);
    if (key) this.expr("queue-key", "template", key, owner, ["queue", "key"]);
  }

  private impact(): void {
    const rules = seqOf(this.model.sections.get("impact")?.value, this.aliases);
    rules?.items.forEach((item, index) => {
      const rule = mapOf(item, this.aliases);
      const owner: Owner = { kind: "impact", name: String(index) };
      this.nameList(pairOf(rule, "invalidate"), "invalidate", owner);
      const at = pairOf(rule, "at");
      if (at) this.nameValue(at.value, "at", owner);
    });
  }

  /** A list of names (or a single name) under `pair`; records and returns the reference sites. */
  private nameList(pair: Pair | undefined, kind: RefKind, owner: Owner): RefSite[] {
    if (!pair) return [];
    const seq = seqOf(pair.value, this.aliases);
    const items = seq ? seq.items : [pair.value];
    const sites: RefSite[] = [];
    for (const item of items) {
      const site = this.nameValue(item, kind, owner);
      if (site) sites.push(site);
    }
    return sites;
  }

  private nameValue(node: unknown, kind: RefKind, owner: Owner): RefSite | undefined {
    const scalar = scalarOf(node, this.aliases);
    if (!scalar || scalar.value === null || typeof scalar.value === "object") return undefined;
    return this.ref(kind, String(scalar.value), nodeSpan(node, NO_SPAN), owner);
  }

  /** `verify:` / `done:` lists: names of verifiers, or inline `{ check: "..." }`. */
  private verifyList(pair: Pair | undefined, kind: RefKind, owner: Owner, path: (string | number)[]): void {
    if (!pair) return;
    const seq = seqOf(pair.value, this.aliases);
    (seq ? seq.items : [pair.value]).forEach((item, index) => {
      const inline = mapOf(item, this.aliases);
      if (inline) {
        const check = this.scalarString(pairOf(inline, "check")?.value);
        if (check) this.expr("check", "expression", check, owner, [...path, index, "check"]);
      } else this.nameValue(item, kind, owner);
    });
  }

  private ref(kind: RefKind, name: string, span: Span, owner: Owner): RefSite {
    const site: RefSite = { kind, name, span, owner };
    this.model.references.push(site);
    return site;
  }

  private artifact(name: string, span: Span, unit: string): void {
    const existing = this.model.artifacts.get(name);
    if (existing) {
      existing.producers.push({ unit, span });
      return;
    }
    const decl: ArtifactDecl = { kind: "artifact", name, keySpan: span, valueSpan: span, producers: [{ unit, span }] };
    this.model.artifacts.set(name, decl);
  }

  private scalarString(node: unknown): Scalar | undefined {
    const scalar = scalarOf(node, this.aliases);
    return scalar && typeof scalar.value === "string" ? scalar : undefined;
  }

  private expr(
    kind: ExprSite["kind"],
    mode: ExprSite["mode"],
    scalar: Scalar,
    owner: Owner,
    path: (string | number)[],
    argument?: string,
  ): void {
    const site: ExprSite = { kind, mode, source: scalar.value as string, scalar, span: nodeSpan(scalar, NO_SPAN), owner, path };
    if (argument !== undefined) site.argument = argument;
    this.model.expressions.push(site);
  }
}
