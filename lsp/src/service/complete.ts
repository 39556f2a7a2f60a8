/**
 * Completion by position: the keys the schema allows at that place, and in
 * value positions the names that fit there — units and inputs in `needs`
 * (never the unit itself or one that would close a cycle), edge kinds, tools
 * in `uses`, verifiers in `verify`/`done`, recovery classes and other fixed
 * values from the schema — and names inside expressions and `${...}`.
 * Names come from the syntax model, so completion works while the file is
 * broken; the place comes from the text (cursor-context.ts).
 */
import { EDGE_KINDS, type ContractModel, type Decl, type LockedTool, type Span } from "@taskspec/compiler";
import { isMap, isScalar } from "yaml";
import {
  CompletionItemKind,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
  type CompletionItem,
  type Position,
} from "vscode-languageserver";
import { snippetsAt } from "./snippets.js";
import type { Analysis } from "./analysis.js";
import { cursorContext, type CursorContext } from "./cursor-context.js";
import { scalarValue } from "./decl-values.js";
import { expressionCompletions } from "./expressions.js";
import { argumentsOf, boundTool, declaredServers, describeLocked, lockedTools } from "./mcp-lock-view.js";
import { offsetAt, rangeOf } from "./lsp-ranges.js";
import { itemIsMapping, keysAt, schemaAt, valuesAt } from "./schema-walk.js";
import { EDGE_KIND_MEANING, RECOVERY_CLASS_MEANING } from "./vocabulary.js";

interface Candidate {
  label: string;
  kind: CompletionItemKind;
  detail?: string;
  documentation?: string;
  /** Text inserted instead of the label. */
  insert?: string;
}

/** `snippets`: the client takes snippet syntax, so the new-unit/tool/verifier templates are offered. */
export function complete(analysis: Analysis, position: Position, snippets = false): CompletionItem[] {
  const offset = offsetAt(analysis, position);
  const inExpression = expressionCompletions(analysis, offset);
  if (inExpression) return inExpression;
  const context = cursorContext(analysis.text, offset, analysis.parsed.lines.lineStarts);
  const range = rangeOf(analysis, context.word);
  const templates: CompletionItem[] =
    !snippets || context.slot !== "key"
      ? []
      : snippetsAt(context.path).map((s) => ({
          label: s.label,
          kind: CompletionItemKind.Snippet,
          detail: s.detail,
          documentation: { kind: MarkupKind.Markdown, value: `${s.detail}\n\n\`\`\`yaml\n${s.preview}\n\`\`\`` },
          insertTextFormat: InsertTextFormat.Snippet,
          // the body carries its own indentation (the key sits two spaces in)
          insertTextMode: InsertTextMode.asIs,
          textEdit: { range, newText: s.body },
          sortText: "~",
        }));
  return [
    ...candidates(analysis, context).map((c, i) => {
      const item: CompletionItem = {
        label: c.label,
        kind: c.kind,
        sortText: String(i).padStart(5, "0"),
        textEdit: { range, newText: c.insert ?? c.label },
      };
      if (c.detail) item.detail = c.detail;
      if (c.documentation) item.documentation = { kind: MarkupKind.Markdown, value: c.documentation };
      return item;
    }),
    ...templates,
  ];
}

function candidates(analysis: Analysis, context: CursorContext): Candidate[] {
  const { model } = analysis.parsed;
  const { path, slot } = context;
  const bound = mcpCandidates(analysis, path, slot, context.word);
  if (bound) return bound;
  if (slot === "key" || (slot === "item" && itemIsMapping(path))) {
    const at = slot === "item" ? [...path, "[]"] : path;
    if (at.length === 3 && at[0] === "units" && at[2] === "needs") return needsCandidates(model, at[1]!);
    const present = presentKeys(analysis, at, context.word);
    return keysAt(at)
      .filter((k) => !present.has(k.key))
      .map((k) => ({
        label: k.key,
        kind: CompletionItemKind.Property,
        insert: `${k.key}: `,
        detail: k.required ? "required" : "optional",
        documentation: `${k.required ? "**required** · " : ""}${k.description}`,
      }));
  }
  const semantic = valueCandidates(model, path);
  if (semantic) return semantic;
  const key = path[path.length - 1];
  const about = keyDescription(path);
  return valuesAt(path).map((v) => ({
    label: v,
    kind: CompletionItemKind.EnumMember,
    detail: key ?? "",
    documentation: about ? `\`${key}: ${v}\` · ${about}` : `\`${key}: ${v}\``,
  }));
}

function valueCandidates(model: ContractModel, path: string[]): Candidate[] | undefined {
  const [section, name, key, sub] = path;
  if (section === "units" && name !== undefined) {
    if (key === "needs" && sub !== undefined) return edgeKinds();
    if (key === "needs") return needsCandidates(model, name);
    if (key === "uses") return names(model.tools.values(), "tool", (d) => scalarValue(d, "class"));
    if (key === "verify") return names(model.verifiers.values(), "verifier", (d) => scalarValue(d, "kind"));
    if (key === "phase") return phases(model);
  }
  if (section === "task" && name === "done") return names(model.verifiers.values(), "verifier", (d) => scalarValue(d, "kind"));
  if (section === "task" && name === "outputs") return names(model.artifacts.values(), "artifact", () => undefined);
  if (section === "tools" && name !== undefined) {
    if (key === "class") return classes();
    if (key === "lookup")
      return names(
        filter(model.tools, (d) => scalarValue(d, "class") === "read"),
        "read tool",
        () => "read",
      );
    if (key === "compensate" && (sub === undefined || sub === "tool")) {
      return names(
        filter(model.tools, (d) => d.name !== name),
        "tool",
        (d) => scalarValue(d, "class"),
      );
    }
  }
  if (section === "impact" && name === "[]") {
    if (key === "on") return edgeKinds();
    if (key === "invalidate") return names(model.units.values(), "unit", (d) => scalarValue(d, "phase"));
    if (key === "at")
      return [
        ...names(model.units.values(), "unit", (d) => scalarValue(d, "phase")),
        ...names(model.inputs.values(), "input", (d) => scalarValue(d, "kind")),
      ];
  }
  return undefined;
}

/**
 * In a binding, from the MCP lock beside the contract: the declared servers
 * (`mcp.server`), the tools the lock lists for the bound server (`mcp.tool`),
 * and the bound tool's arguments (`mcp.key_arg`, and the keys of `args:`
 * not written yet). Undefined where none of these is being typed.
 */
function mcpCandidates(analysis: Analysis, path: string[], slot: CursorContext["slot"], word: Span): Candidate[] | undefined {
  const [section, name, key, sub] = path;
  if (section !== "tools" || name === undefined) return undefined;
  if (key === "mcp" && slot === "value" && path.length === 4) {
    if (sub === "server")
      return declaredServers(analysis).map((s) => ({ label: s, kind: CompletionItemKind.Module, detail: "MCP server" }));
    const bound = boundTool(analysis, name);
    if (sub === "tool") {
      const server = bound?.server ?? declaredServers(analysis)[0];
      return Object.entries(lockedTools(analysis, server)).map(([t, def]) => ({
        label: t,
        kind: CompletionItemKind.Method,
        detail: `MCP tool of ${server}`,
        documentation: describeLocked(server!, t, def, analysis.mcpLock?.()),
      }));
    }
    if (sub === "key_arg" && bound?.locked) return argumentCandidates(bound.locked, new Set());
  }
  if (key === "args" && path.length === 3 && slot === "key") {
    const bound = boundTool(analysis, name);
    if (!bound?.locked) return undefined;
    return argumentCandidates(bound.locked, presentKeys(analysis, path, word)).map((c) => ({ ...c, insert: `${c.label}: ` }));
  }
  return undefined;
}

function argumentCandidates(tool: LockedTool, present: ReadonlySet<string>): Candidate[] {
  const required = new Set(Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : []);
  return Object.entries(argumentsOf(tool))
    .filter(([a]) => !present.has(a))
    .map(([a, schema]) => {
      const type = typeof schema.type === "string" ? schema.type : undefined;
      const describe = typeof schema.description === "string" ? schema.description : undefined;
      return {
        label: a,
        kind: CompletionItemKind.Field,
        detail: `argument${type ? ` · ${type}` : ""}${required.has(a) ? " · required" : ""}`,
        documentation: `**argument ${a}** of the MCP tool${describe ? `\n\n${describe}` : ""}`,
      };
    });
}

/** Keys the mapping at `path` already has (except the one being typed), so they are not offered twice. */
function presentKeys(analysis: Analysis, path: string[], word: Span): Set<string> {
  const present = new Set<string>();
  if (path.includes("[]")) return present; // which item of a sequence is meant is not known from the path
  const node = path.length === 0 ? analysis.parsed.doc?.contents : analysis.parsed.doc?.getIn(path, true);
  if (!isMap(node)) return present;
  for (const pair of node.items) {
    if (!isScalar(pair.key)) continue;
    const range = pair.key.range;
    if (range && range[0] <= word.start && word.start <= range[1]) continue;
    present.add(String(pair.key.value));
  }
  return present;
}

/**
 * Per version of a document (its model): who needs whom, and the `needs`
 * candidates already worked out per unit. A completion request in a big
 * contract then costs a lookup, not a walk of the whole graph; a new version
 * has a new model, so nothing stale is ever answered.
 */
interface NeedsMemo {
  dependents: Map<string, string[]>;
  candidates: Map<string, Candidate[]>;
}
const needsMemos = new WeakMap<ContractModel, NeedsMemo>();

function needsMemo(model: ContractModel): NeedsMemo {
  let memo = needsMemos.get(model);
  if (!memo) {
    const dependents = new Map<string, string[]>();
    for (const u of model.units.values()) {
      for (const need of u.needs) {
        const list = dependents.get(need.name);
        if (list) list.push(u.name);
        else dependents.set(need.name, [u.name]);
      }
    }
    memo = { dependents, candidates: new Map() };
    needsMemos.set(model, memo);
  }
  return memo;
}

/** How many times the `needs` candidates were worked out (not answered from the version's memo); for tests. */
export const needsComputations = { count: 0 };

/** Units and inputs a unit may need: not itself, not one downstream of it (a cycle), not one it already needs. */
function needsCandidates(model: ContractModel, unit: string): Candidate[] {
  const memo = needsMemo(model);
  const known = memo.candidates.get(unit);
  if (known) return known;
  needsComputations.count++;
  const excluded = downstreamOf(memo.dependents, unit);
  excluded.add(unit);
  for (const need of model.units.get(unit)?.needs ?? []) excluded.add(need.name);
  const found = [
    ...names(
      filter(model.units, (d) => !excluded.has(d.name)),
      "unit",
      (d) => scalarValue(d, "phase"),
    ),
    ...names(
      filter(model.inputs, (d) => !excluded.has(d.name)),
      "input",
      (d) => scalarValue(d, "kind"),
    ),
  ].map((c) => ({ ...c, insert: `${c.label}: ` }));
  memo.candidates.set(unit, found);
  return found;
}

/** Every unit that needs `unit`, directly or through others. */
function downstreamOf(dependents: ReadonlyMap<string, string[]>, unit: string): Set<string> {
  const seen = new Set<string>();
  const queue = [unit];
  while (queue.length > 0) {
    for (const next of dependents.get(queue.pop()!) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

function edgeKinds(): Candidate[] {
  return EDGE_KINDS.map((k) => ({
    label: k,
    kind: CompletionItemKind.EnumMember,
    detail: "edge kind",
    documentation: EDGE_KIND_MEANING[k],
  }));
}

function classes(): Candidate[] {
  return Object.entries(RECOVERY_CLASS_MEANING).map(([c, meaning]) => ({
    label: c,
    kind: CompletionItemKind.EnumMember,
    detail: "recovery class",
    documentation: meaning,
  }));
}

function phases(model: ContractModel): Candidate[] {
  const seen = new Set<string>();
  for (const unit of model.units.values()) {
    const phase = scalarValue(unit, "phase");
    if (phase) seen.add(phase);
  }
  return [...seen].map((p) => ({
    label: p,
    kind: CompletionItemKind.Folder,
    detail: "phase",
    documentation: `phase \`${p}\`, used by other units of this contract`,
  }));
}

const KIND_OF: Record<string, CompletionItemKind> = {
  unit: CompletionItemKind.Function,
  input: CompletionItemKind.Variable,
  tool: CompletionItemKind.Method,
  "read tool": CompletionItemKind.Method,
  verifier: CompletionItemKind.Constant,
  artifact: CompletionItemKind.File,
};

function names(decls: Iterable<Decl>, what: string, detail: (d: Decl) => string | undefined): Candidate[] {
  return [...decls].map((d) => {
    const extra = detail(d);
    const describe = scalarValue(d, "describe");
    return {
      label: d.name,
      kind: KIND_OF[what] ?? CompletionItemKind.Value,
      detail: extra ? `${what} · ${extra}` : what,
      documentation: `**${what} ${d.name}**${extra ? ` · ${extra}` : ""}${describe ? `\n\n${describe}` : ""}`,
    };
  });
}

/** The schema's description of the key that ends `path`. */
function keyDescription(path: string[]): string | undefined {
  const parent = path.slice(0, -1);
  return keysAt(parent).find((k) => k.key === path[path.length - 1])?.description || schemaAt(path)?.description;
}

function filter(decls: ReadonlyMap<string, Decl>, keep: (d: Decl) => boolean): Decl[] {
  return [...decls.values()].filter(keep);
}
