/**
 * Builds the runtime plan from a contract that passed every check. Everything
 * is sorted (inputs, tools and verifiers by name; units by level then id), so
 * the plan, its hash and every definition hash depend on meaning only, not on
 * key order, comments or layout. Definition hashes cover behaviour only
 * (plan/behaviour.ts): prose and attempt policy never invalidate a result.
 */
import type { UnitGraph } from "./check/graph.js";
import { pathKey, type CompiledExpressions } from "./check/expressions.js";
import {
  resultFieldType,
  type ContractSpec,
  type InputSpec,
  type ToolSpec,
  type UnitSpec,
  type VerifierUseSpec,
} from "./schema/contract.js";
import { toolBehaviour, unitBehaviour, verifierBehaviour } from "./plan/behaviour.js";
import { CanonicalPart, hashOf } from "./plan/canonical.js";
import { durationMs } from "./plan/duration.js";
import { recoveryPolicy } from "./plan/recovery.js";
import { bindingsDigest, lockedSummary, type McpLock } from "./plan/mcp-lock.js";
import { planServers } from "./plan/servers.js";
import {
  DEFAULT_UNIT_TIMEOUT_MS,
  PLAN_FORMAT,
  type CompiledExpr,
  type CompiledTemplate,
  type EdgeKind,
  type Plan,
  type PlanEdge,
  type PlanInput,
  type PlanTool,
  type PlanUnit,
  type PlanVerifier,
  type UnhashedPlan,
  type VerifierUse,
  type WorstCase,
} from "./plan/schema.js";
import { costPerToolCall, retriesOf, type UnitCost } from "./plan/worst-case.js";
import { backoffOf } from "./plan/backoff.js";
import { frozenInTests, identityMemo } from "./memo.js";
import { groupBySource, ruleTables, type ImpactGraph } from "./impact/plan-index.js";
import { kindsOfMask } from "./plan/kinds.js";
import { needListOf, type NeedList } from "./plan/need-list.js";
import type { CountIndex } from "./impact/count.js";

export interface PlanParts {
  contract: ContractSpec;
  graph: UnitGraph;
  costs: Map<string, UnitCost>;
  worstCase: WorstCase;
  compiled: CompiledExpressions;
  /** planTopology(contract, graph), when the caller made it already (for an impact graph). */
  topology?: PlanTopology;
  /** The MCP lock the bindings were judged against (fresh: C107 found nothing), when the caller has one. */
  mcpLock?: McpLock;
}

/**
 * The plan's shape: units in order, each unit's needs, the edges, the inputs
 * in order and the impact rules. buildPlan puts exactly these arrays in the
 * plan, and impactGraphOf hands the same arrays to an editor before (or
 * without) the rest of the plan, so both answer from one computation.
 */
export interface PlanTopology {
  levels: string[][];
  /** Unit ids in plan order (by level, then id). */
  order: string[];
  /** Each unit's needs, in plan order (`needs[i]` are `order[i]`'s). */
  needs: PlanUnit["needs"][];
  edges: PlanEdge[];
  inputs: [string, InputSpec][];
  impactRules: Plan["impactRules"];
}

/**
 * A version's topology with what it was made from, so that the next version
 * of the same document can take it over (planTopology's `previous`).
 */
export interface TopologySource {
  /** The unit definitions (`contract.units`) it was made from. */
  units: ContractSpec["units"];
  /** Their ids, in declaration order (the UnitGraph's `units`). */
  ids: readonly string[];
  topology: PlanTopology;
  /** impactGraphOf(topology), once made. */
  graph?: ImpactGraph;
}

/**
 * The plan's shape. With `previous`, an earlier version's topology is taken
 * over when the units are the same ids and none of their `needs` changed:
 * levels, order, needs and edges are a function of exactly those, so an edit
 * inside a unit costs one pointer comparison per unit (and a look at the
 * changed units' needs) instead of rebuilding the shape. When the inputs and
 * impact rules are the same too, `previous.topology` itself is returned, so
 * whatever was derived from it stays valid.
 */
export function planTopology(contract: ContractSpec, graph: UnitGraph, previous?: TopologySource): PlanTopology {
  const inputs = byName(contract.inputs);
  const impactRules = impactRulesOf(contract);
  if (previous && sameNeeds(previous, contract.units, graph.units)) {
    const before = previous.topology;
    if (sameInputs(before.inputs, inputs) && sameRules(before.impactRules, impactRules)) return before;
    return { levels: before.levels, order: before.order, needs: before.needs, edges: before.edges, inputs, impactRules };
  }
  // units by level, then id; Kahn levels are contiguous from 0, so bucketing gives the plan's levels too.
  // A chain has a level per unit: its one-unit levels need no sort, and a loop makes the order where
  // levels.flat() was a large share of the topology (bench/RESULTS.md, "figures behind code comments")
  const levels: string[][] = [];
  for (const id of graph.units) (levels[graph.level.get(id)!] ??= []).push(id);
  const order: string[] = [];
  for (const level of levels) {
    if (level.length > 1) level.sort();
    for (const id of level) order.push(id);
  }
  const needs: PlanUnit["needs"][] = [];
  const edges: PlanEdge[] = [];
  for (const id of order) {
    const own = planNeeds(needListOf(contract.units[id]!), contract.units);
    needs.push(own);
    for (const need of own) edges.push({ from: need.node, to: id, kinds: need.kinds });
  }
  return { levels, order, needs, edges, inputs, impactRules };
}

/** The contract's impact rules as the plan holds them. */
export function impactRulesOf(contract: ContractSpec): Plan["impactRules"] {
  return (contract.impact ?? []).map((rule) => ({
    on: rule.on as EdgeKind,
    ...(rule.at !== undefined ? { at: rule.at } : {}),
    invalidate: rule.invalidate,
  }));
}

/**
 * Whether `units` are the same ids as `previous.units`, each with needs equal
 * to its earlier ones (as written: a reordering counts as a change, which only
 * costs a rebuild). A need names a unit or an input by whether a unit has that
 * id, so equal ids and equal needs give equal plan needs and levels.
 */
export function sameNeeds(previous: Pick<TopologySource, "units" | "ids">, units: ContractSpec["units"], ids: readonly string[]): boolean {
  if (ids.length !== previous.ids.length) return false;
  for (const id of ids) {
    if (!Object.hasOwn(previous.units, id)) return false;
    const before = previous.units[id]!;
    const now = units[id]!;
    // an untouched unit keeps its definition object (the incremental parse): no need to look inside
    if (now === before || now.needs === before.needs) continue;
    if (!sameRecord(now.needs ?? {}, before.needs ?? {})) return false;
  }
  return true;
}

function sameRecord(a: Record<string, string | string[]>, b: Record<string, string | string[]>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (!Object.hasOwn(b, key)) return false;
    const x = a[key]!;
    const y = b[key]!;
    if (typeof x === "string" || typeof y === "string" ? x !== y : x.length !== y.length || x.some((k, j) => k !== y[j])) return false;
  }
  return true;
}

/** Equal inputs: what the plan makes of them depends on nothing else (key order included, for byte-identical plans). */
const sameInputs = (a: PlanTopology["inputs"], b: PlanTopology["inputs"]) =>
  a.length === b.length && a.every(([name, spec], i) => name === b[i]![0] && samePlain(spec, b[i]![1]));

/** Strict structural equality of plain contract values, key order included. */
function samePlain(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && samePlain((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

export const sameRules = (a: Plan["impactRules"], b: Plan["impactRules"]) =>
  a.length === b.length &&
  a.every(
    (rule, i) =>
      rule.on === b[i]!.on &&
      rule.at === b[i]!.at &&
      rule.invalidate.length === b[i]!.invalidate.length &&
      rule.invalidate.every((u, j) => u === b[i]!.invalidate[j]),
  );

/**
 * What impact propagation reads, from the topology alone: no definition hash,
 * no plan hash. `previous.graph`, an earlier version's, is returned when it
 * was made from this same topology object and no unit's phase changed, so the
 * impact index built for it (by identity) serves this version too.
 */
export function impactGraphOf(contract: ContractSpec, topology: PlanTopology, previous?: TopologySource): ImpactGraph {
  if (previous?.graph && previous.topology === topology && samePhases(previous.units, contract.units, topology.order))
    return previous.graph;
  return {
    units: topology.order.map((id) => ({ id, phase: contract.units[id]!.phase ?? "" })),
    inputs: topology.inputs.map(([name]) => ({ name })),
    edges: topology.edges,
    impactRules: topology.impactRules,
  };
}

function samePhases(before: ContractSpec["units"], now: ContractSpec["units"], ids: readonly string[]): boolean {
  for (const id of ids) {
    const a = before[id]!;
    const b = now[id]!;
    if (a !== b && a.phase !== b.phase) return false;
  }
  return true;
}

/*
 * The count index: what a lens counts from (impact/count.ts), made from the
 * checked contract. Nodes are numbered as declared (units, then inputs), the
 * out-edges are flat typed arrays, the impact rules resolved. The plan's index
 * numbers nodes in plan order and keeps what explanations need (ids, phases,
 * each edge's plan entry), so it waits for the topology above (levels, each
 * unit's needs and edges as objects); counts need none of that, and on a newly
 * opened document making those objects, and collecting them, was most of the
 * first lens's time. Counts do not depend on the numbering, so both indexes
 * give the same ones (compiler/test/impact/count.test.ts).
 */

/** A version's count index with what it was made from, so that the document's next version can take it over. */
export interface CountSource extends Pick<TopologySource, "units" | "ids"> {
  inputs: readonly string[];
  rules: Plan["impactRules"];
  index: CountIndex;
}

/**
 * The count index of a checked contract. With `previous`, an earlier
 * version's, its node numbering and out-edges are taken over when the units
 * and their needs are the same (planTopology's test) and so are the inputs'
 * names, and the whole index when the impact rules are the same too.
 */
export function countIndexOf(contract: ContractSpec, graph: UnitGraph, previous?: CountSource): CountSource {
  const inputs = Object.keys(contract.inputs ?? {});
  const rules = impactRulesOf(contract);
  const made = { units: contract.units, ids: graph.units, inputs, rules };
  if (previous && sameNeeds(previous, contract.units, graph.units) && sameNames(previous.inputs, inputs)) {
    if (sameRules(previous.rules, rules)) return { ...made, index: previous.index };
    const { indexOf, unitCount, outStart, outTarget, outMask } = previous.index;
    return { ...made, index: { indexOf, unitCount, outStart, outTarget, outMask, ...ruleTables(rules, indexOf, unitCount) } };
  }

  const ids = graph.units;
  const unitCount = ids.length;
  const nodeCount = unitCount + inputs.length;
  // as the plan's index: units, then inputs (an input would win a clash of names, which is an error anyway)
  const indexOf = new Map<string, number>();
  for (let i = 0; i < unitCount; i++) indexOf.set(ids[i]!, i);
  for (let i = 0; i < inputs.length; i++) indexOf.set(inputs[i]!, unitCount + i);

  // each need is an edge from the node it names to its unit, as in the plan
  const from: number[] = [];
  const to: number[] = [];
  const masks: number[] = [];
  for (let i = 0; i < unitCount; i++) {
    const { names, masks: kinds } = graph.needs[i]!;
    for (let j = 0; j < names.length; j++) {
      const source = indexOf.get(names[j]!);
      if (source === undefined) continue;
      from.push(source);
      to.push(i);
      masks.push(kinds[j]!);
    }
  }
  // grouped by source; the order within a group does not change a count
  const outTarget = new Int32Array(from.length);
  const outMask = new Uint8Array(from.length);
  const outStart = groupBySource(from, from.length, nodeCount, undefined, (slot, e) => {
    outTarget[slot] = to[e]!;
    outMask[slot] = masks[e]!;
  });
  return { ...made, index: { indexOf, unitCount, outStart, outTarget, outMask, ...ruleTables(rules, indexOf, unitCount) } };
}

const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((name, i) => name === b[i]);

const byName = <T>(record: Record<string, T> | undefined): [string, T][] =>
  Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The task's id and version as the plan holds them. */
export const planTaskName = (contract: ContractSpec): Pick<Plan["task"], "id" | "version"> => ({
  id: contract.task.id,
  version: contract.task.version ?? 1,
});

export function buildPlan(parts: PlanParts): Plan {
  const withoutHash = unhashedPlan(parts);
  // planHash last: the plan's JSON has always ended with it
  return frozenInTests({ ...withoutHash, planHash: hashOf(withoutHash) });
}

/** The plan but its hash: a reader that never looks at planHash is spared writing the whole plan once more. */
export function unhashedPlan(parts: PlanParts): UnhashedPlan {
  const { contract, graph, compiled } = parts;
  const expr = (path: (string | number)[]) => compiled.get(pathKey(path)) as CompiledExpr;
  const template = (path: (string | number)[]) => compiled.get(pathKey(path)) as CompiledTemplate;
  const verifierUses = (uses: VerifierUseSpec[] | undefined, path: (string | number)[]): VerifierUse[] =>
    (uses ?? []).map((u, i) => (typeof u === "string" ? { ref: u } : { check: expr([...path, i, "check"]) }));

  const tools = byName(contract.tools).map(([name, tool]) => planTool(name, tool, template, expr, parts.mcpLock));
  const servers = contract.servers ? planServers(contract.servers) : undefined;
  const verifierSpecs = new Map(byName(contract.verifiers));
  // tools and verifiers are shared by many units: their canonical JSON is written once, not once per unit
  const toolParts = new Map(Object.entries(contract.tools ?? {}).map(([name, tool]) => [name, new CanonicalPart(toolBehaviour(tool))]));
  const verifierParts = new Map([...verifierSpecs].map(([name, v]) => [name, new CanonicalPart(verifierBehaviour(v))]));

  const { levels, order, needs: needsAt, edges, inputs, impactRules } = parts.topology ?? planTopology(contract, graph);
  const units: PlanUnit[] = [];
  // units share a handful of timeouts ("45m"): parse each once
  const timeouts = new Map<string, number>();
  const timeoutMs = (text: string) => timeouts.get(text) ?? timeouts.set(text, durationMs(text)).get(text)!;
  // every unit has a timeout: its own, else the task's, else the runtime's default
  const taskTimeout = contract.task.timeout;
  const timeoutOf = (own: string | undefined): Pick<PlanUnit, "timeoutMs" | "timeoutSource"> =>
    own
      ? { timeoutMs: timeoutMs(own), timeoutSource: "unit" }
      : taskTimeout
        ? { timeoutMs: timeoutMs(taskTimeout), timeoutSource: "task" }
        : { timeoutMs: DEFAULT_UNIT_TIMEOUT_MS, timeoutSource: "default" };
  for (let i = 0; i < order.length; i++) {
    const id = order[i]!;
    const spec = contract.units[id]!;
    const needs = needsAt[i]!;
    const cost = parts.costs.get(id)!;
    const unit: PlanUnit = {
      id,
      phase: spec.phase ?? "",
      level: graph.level.get(id)!,
      needs,
      uses: spec.uses ?? [],
      produces: spec.produces ?? [],
      verify: verifierUses(spec.verify, ["units", id, "verify"]),
      retry: { max: retriesOf(contract, id), backoff: backoffOf(contract, id) },
      ...timeoutOf(spec.timeout),
      cost: cost.cost,
      worstCase: cost.worstCase,
      definitionHash: definitionHash(spec, contract, needs, toolParts, verifierParts),
    };
    if (spec.loop) {
      unit.loop = { max: spec.loop.max as number };
      if (spec.loop.until !== undefined) unit.loop.until = expr(["units", id, "loop", "until"]);
    }
    if (spec.approval) unit.approval = spec.approval;
    if (spec.effects)
      unit.effects = Object.fromEntries(
        Object.keys(spec.effects)
          .sort()
          .map((tool) => [tool, { max: spec.effects![tool]!.max }]),
      );
    if (spec.on_code_change === "rerun") unit.onCodeChange = "rerun";
    units.push(unit);
  }

  const verifiers = [...verifierSpecs].map(([name, v]): PlanVerifier => {
    const out: PlanVerifier = { name, kind: v.kind };
    if (v.check !== undefined) out.check = expr(["verifiers", name, "check"]);
    if (v.schema !== undefined) out.schema = v.schema;
    if (v.describe !== undefined) out.describe = v.describe;
    return out;
  });

  const budgets: Plan["budgets"] = { retries: contract.budgets?.retries ?? 0 };
  for (const name of ["model_calls", "tool_calls", "tokens"] as const) {
    const cap = contract.budgets?.[name];
    if (cap !== undefined) budgets[name] = cap;
  }
  if (contract.budgets?.wall_clock) budgets.wall_clock_ms = durationMs(contract.budgets.wall_clock);

  return {
    format: PLAN_FORMAT,
    task: {
      ...planTaskName(contract),
      goal: contract.task.goal,
      forbid: contract.task.forbid ?? [],
      outputs: contract.task.outputs ?? [],
      done: verifierUses(contract.task.done, ["task", "done"]),
    },
    inputs: inputs.map(([name, input]) => planInput(name, input)),
    units,
    levels,
    edges,
    tools,
    ...(servers ? { servers } : {}),
    ...(parts.mcpLock ? { mcpLock: { bindings: bindingsDigest(servers ?? [], tools) } } : {}),
    compensation: Object.fromEntries(tools.filter((t) => t.compensate).map((t) => [t.name, t.compensate!.tool])),
    verifiers,
    budgets,
    worstCase: parts.worstCase,
    impactRules,
    ...(contract.queue ? { queue: { name: contract.queue.name, ...(contract.queue.key ? { key: template(["queue", "key"]) } : {}) } } : {}),
  };
}

/**
 * Definition hashes by unit definition. A definition's plain object stays the
 * same object while its text does (an editor's incremental re-parse keeps it),
 * as do the tool and verifier definitions it depends on: when all of them are
 * the ones hashed last time, so is the hash.
 */
const definitionHashes = identityMemo<UnitSpec, { dependsOn: unknown[]; hash: string }>(
  "plan/build-plan: definition hashes by unit definition",
  { acrossCompilesOnly: true },
);

function definitionHash(
  spec: UnitSpec,
  contract: ContractSpec,
  needs: PlanUnit["needs"],
  toolParts: Map<string, CanonicalPart>,
  verifierParts: Map<string, CanonicalPart>,
): string {
  const tools = toolsBehind(spec.uses ?? [], contract);
  const verifiers = (spec.verify ?? []).filter((v): v is string => typeof v === "string");
  const dependsOn = [...tools.map((name) => contract.tools?.[name]), ...verifiers.map((name) => contract.verifiers?.[name])];
  const known = definitionHashes.get(spec);
  if (known && known.dependsOn.length === dependsOn.length && known.dependsOn.every((d, i) => d === dependsOn[i])) return known.hash;
  const hash = hashOf({
    unit: { ...unitBehaviour(spec), needs: needsRecord(needs) },
    tools: pick(toolParts, tools),
    verifiers: pick(verifierParts, verifiers),
  });
  definitionHashes.set(spec, { dependsOn, hash });
  return hash;
}

/** The tools a unit uses plus their lookups and compensators: recovery runs those on the unit's behalf. */
function toolsBehind(uses: string[], contract: ContractSpec): string[] {
  const names = new Set(uses);
  for (const name of uses) {
    const tool = contract.tools?.[name];
    if (tool?.lookup) names.add(tool.lookup);
    if (tool?.compensate) names.add(tool.compensate.tool);
  }
  return [...names].sort();
}

/**
 * The unit's needs sorted by node, kinds deduplicated in the canonical order
 * (the kinds its mask holds). One loop over the need list: it runs for every
 * unit when a document's plan is first built.
 */
function planNeeds({ names, masks }: NeedList, units: ContractSpec["units"]): PlanUnit["needs"] {
  const out: PlanUnit["needs"] = [];
  for (let i = 0; i < names.length; i++) {
    const node = names[i]!;
    out.push({ node, nodeType: Object.hasOwn(units, node) ? "unit" : "input", kinds: kindsOfMask(masks[i]!) });
  }
  if (out.length > 1) out.sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
  return out;
}

/**
 * Records keyed by names, for hashing, are built without a prototype: a name
 * like `__proto__` stays a key, and keys that are unit ids, nearly all
 * distinct, would cost a hidden class per key added to an ordinary object.
 */
const record = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

function needsRecord(needs: PlanUnit["needs"]): Record<string, EdgeKind[]> {
  const out = record<EdgeKind[]>();
  for (const need of needs) out[need.node] = need.kinds;
  return out;
}

/** The named definitions; an unknown name is left out, as its undefined value would be. */
function pick(definitions: Map<string, CanonicalPart>, names: string[]): Record<string, CanonicalPart> {
  const out = record<CanonicalPart>();
  for (const name of names) {
    const part = definitions.get(name);
    if (part) out[name] = part;
  }
  return out;
}

function planInput(name: string, input: InputSpec): PlanInput {
  const volatile = input.volatile ?? input.kind === "external";
  const out: PlanInput = {
    name,
    kind: input.kind,
    volatile,
    definitionHash: hashOf({ kind: input.kind, version: input.version, value: input.value, volatile }),
  };
  if (input.version !== undefined) out.version = String(input.version);
  if (input.value !== undefined) out.value = input.value;
  if (input.secret === true) out.secret = true;
  return out;
}

function planTool(
  name: string,
  tool: ToolSpec,
  template: (path: (string | number)[]) => CompiledTemplate,
  expr: (path: (string | number)[]) => CompiledExpr,
  lock: McpLock | undefined,
): PlanTool {
  const out: PlanTool = { name, class: tool.class, cost: costPerToolCall(tool.cost), recovery: recoveryPolicy(tool) };
  if (tool.key !== undefined) out.key = template(["tools", name, "key"]);
  if (tool.lookup !== undefined) out.lookup = tool.lookup;
  if (tool.result !== undefined)
    out.result = Object.fromEntries(Object.entries(tool.result).map(([f, spec]) => [f, resultFieldType(spec)]));
  const marked = (entries: [string, boolean | undefined][]) =>
    entries
      .filter(([, on]) => on === true)
      .map(([n]) => n)
      .sort();
  const args = Object.entries(tool.args ?? {});
  const secretArgs = marked(args.map(([n, a]) => [n, a.secret]));
  const safeArgs = marked(args.map(([n, a]) => [n, a.safe && !a.secret]));
  const secretResult = marked(Object.entries(tool.result ?? {}).map(([f, spec]) => [f, typeof spec === "object" ? spec.secret : false]));
  if (secretArgs.length) out.secretArgs = secretArgs;
  if (safeArgs.length) out.safeArgs = safeArgs;
  if (secretResult.length) out.secretResult = secretResult;
  if (tool.compensate) {
    out.compensate = {
      tool: tool.compensate.tool,
      with: Object.fromEntries(
        Object.keys(tool.compensate.with ?? {}).map((arg) => [arg, template(["tools", name, "compensate", "with", arg])]),
      ),
    };
    if (tool.compensate.compensated !== undefined) out.compensate.compensated = expr(["tools", name, "compensate", "compensated"]);
  }
  if (tool.approval !== undefined) out.approval = tool.approval;
  if (tool.mcp !== undefined) {
    out.mcp = { server: tool.mcp.server, tool: tool.mcp.tool };
    if (tool.mcp.key_arg !== undefined) out.mcp.keyArg = tool.mcp.key_arg;
    const locked = lock?.servers[tool.mcp.server]?.tools;
    if (locked && Object.hasOwn(locked, tool.mcp.tool)) out.mcp.locked = lockedSummary(locked[tool.mcp.tool]!);
  }
  return out;
}
