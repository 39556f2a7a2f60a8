/**
 * compile(text) -> { plan?, diagnostics }: the whole compiler, pure (no fs,
 * no clock). Phases stop early to avoid noise cascades: broken YAML (C001)
 * stops everything; schema problems (C002) stop the semantic checks; a plan
 * is emitted only when there is no error.
 */
import type { Diagnostic } from "./diagnostics/types.js";
import { checkApprovalGates, checkGateReplay } from "./check/approval.js";
import { checkArtifacts } from "./check/artifacts.js";
import { checkBounds } from "./check/bounds.js";
import { checkBudgets } from "./check/budgets.js";
import { checkCompensation } from "./check/compensation.js";
import { createContext, type Check } from "./check/context.js";
import { checkCycles } from "./check/cycles.js";
import { checkDeadWork } from "./check/dead-work.js";
import { checkDedup } from "./check/dedup.js";
import { checkEdgeKinds } from "./check/edge-kinds.js";
import { checkExpressions } from "./check/expressions.js";
import { checkFilePaths } from "./check/file-paths.js";
import { checkFileReferences, type FileProbe } from "./check/files.js";
import { checkRanges } from "./check/ranges.js";
import { checkTimeouts } from "./check/timeouts.js";
import { checkKeys } from "./check/keys.js";
import { checkKeyBounds } from "./check/key-bounds.js";
import { checkMcp } from "./check/mcp.js";
import { checkMcpLock, type McpLockInput } from "./check/mcp-lock.js";
import { checkReferences } from "./check/references.js";
import { checkSecrets } from "./check/secrets.js";
import { checkVerification } from "./check/verification.js";
import { DEFAULT_LIMITS, parseContract, type Limits, type ParsedContract, type Reusable } from "./parse/index.js";
import { toPlain } from "./parse/to-plain.js";
import {
  buildPlan,
  unhashedPlan,
  countIndexOf,
  impactGraphOf,
  planTaskName,
  planTopology,
  type CountSource,
  type PlanParts,
  type TopologySource,
} from "./build-plan.js";
import type { ImpactGraph } from "./impact/plan-index.js";
import type { CountIndex } from "./impact/count.js";
import type { GraphView } from "./graph/layout.js";
import type { Plan, UnhashedPlan } from "./plan/schema.js";
import { unitCosts, worstCase } from "./plan/worst-case.js";
import type { ContractSpec } from "./schema/contract.js";
import { validateSchema } from "./schema/validate.js";
import { DiagnosticSink, sortDiagnostics } from "./source/diagnostic.js";
import { applyPolicy, type Rules, type SuppressedDiagnostic } from "./policy/apply.js";
import { frozenInTests, identityMemo } from "./memo.js";

export interface CompileOptions {
  /** Hostile-input limits (size, nesting, node count); defaults suit any real contract. */
  limits?: Partial<Limits>;
  /**
   * `parsed.reusable` of an earlier version of the same document, for editors
   * and `taskspec impact <old> <new>`: an edit inside one unit re-parses only
   * that unit; otherwise every definition whose lines are unchanged keeps its
   * nodes, and what the memos hold for them. Consumed: that earlier result's
   * tree must not be used afterwards.
   */
  previous?: Reusable;
  /**
   * Answers whether a file the contract names (a schema verifier's `schema:`)
   * exists, resolved against the contract's folder: IO stays with the caller
   * (`filesBeside` in `@taskspec/compiler/node`). Without it, file references
   * are not checked (C013).
   */
  files?: FileProbe;
  /** Per-code severity from the configuration file (policy/apply.ts); inline suppressions apply either way. */
  rules?: Rules;
  /**
   * The MCP lock beside the contract, read by the caller (`mcpLockBeside` in `@taskspec/compiler/node`),
   * or why there is none (or a function that reads it, called only for a contract with bindings): bound tools are judged against it (C103 to C107), and the plan keeps what it
   * says of each. Without it, nothing is judged against a lock.
   */
  mcp?: McpLockInput | (() => McpLockInput);
}

export interface CompileResult {
  /** Present only when there are no errors (warnings allowed). */
  plan?: Plan;
  /** Sorted by position. */
  diagnostics: Diagnostic[];
  /** Diagnostics accepted by an inline suppression comment, with its reason. */
  suppressed: SuppressedDiagnostic[];
  /** The positioned model and line index, for editors that want both in one pass. */
  parsed: ParsedContract;
}

/** Checks that need nothing but the context, in the order their codes are banded. */
const CHECKS: Check[] = [
  checkReferences,
  checkArtifacts,
  checkFilePaths,
  checkCycles,
  checkBounds,
  checkRanges,
  checkTimeouts,
  checkCompensation,
  checkDedup,
  checkApprovalGates,
  checkGateReplay,
  checkVerification,
  checkEdgeKinds,
  checkDeadWork,
  checkMcp,
];

/** Every diagnostic, and the plan still to be built: what an editor needs first on each keystroke. */
export interface CheckResult {
  /** Sorted by position, after the configuration's severities and the inline suppressions. */
  diagnostics: Diagnostic[];
  /** Diagnostics accepted by an inline suppression comment, with its reason. */
  suppressed: SuppressedDiagnostic[];
  parsed: ParsedContract;
  /**
   * Builds the plan (normalizing and hashing every unit, a large share of a
   * compile); present only when there are no errors.
   */
  buildPlan?: () => Plan;
  /**
   * The plan without its `planHash` (a hash of the whole plan, which a diff
   * of two versions never reads: `impactOfEdit`). Present exactly when
   * buildPlan is.
   */
  unhashedPlan?: () => UnhashedPlan;
  /**
   * The plan's impact graph (units in plan order, edges, impact rules): the
   * arrays buildPlan will put in the plan, without the definition and plan
   * hashes, enough for `invalidatedBy`. Present exactly when buildPlan is.
   */
  impactGraph?: () => ImpactGraph;
  /**
   * What `countInvalidated` reads (a lens's counts), made from the contract
   * without the plan's topology. Present exactly when buildPlan is.
   */
  countIndex?: () => CountIndex;
  /**
   * What `taskspec graph` draws: the impact graph and the task's id and
   * version, without the hashes a picture never shows. Present exactly when
   * buildPlan is.
   */
  graphView?: () => GraphView;
}

export function compile(text: string, options: CompileOptions = {}): CompileResult {
  const { diagnostics, suppressed, parsed, buildPlan } = checkContract(text, options);
  const result: CompileResult = { diagnostics, suppressed, parsed };
  if (buildPlan) result.plan = buildPlan();
  return result;
}

/**
 * A document's latest plan topology (and impact graph), passed from version
 * to version along `previous`: one cell per chain of versions, so documents
 * edited side by side do not take each other's. The next version takes it
 * over when its units and their needs are the same (planTopology checks).
 */
interface Carried {
  last?: TopologySource;
  /** The latest count index made, likewise. */
  counted?: CountSource;
}
const carried = identityMemo<Reusable, Carried>("compile: each document's latest topology, by the parse its next version reuses");

/** All of compile() but the plan, which is left to `buildPlan` so diagnostics need not wait for it. */
export function checkContract(text: string, options: CompileOptions = {}): CheckResult {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const carry: Carried = (options.previous && carried.get(options.previous)) || {};
  const parsed = parseContract(text, limits, options.previous);
  if (parsed.reusable) carried.set(parsed.reusable, carry);
  const sink = new DiagnosticSink(parsed.lines);
  sink.diagnostics.push(...parsed.diagnostics);
  // `build` is given once the semantic checks ran (so a suppression that matched nothing is really
  // unused); the plan is offered only when no error is left after the configuration's severities
  const done = (makers?: PlanMakers): CheckResult => {
    const { diagnostics, suppressed } = applyPolicy(parsed, sink.diagnostics, options.rules ?? {}, makers !== undefined);
    const result: CheckResult = { diagnostics: sortDiagnostics(diagnostics), suppressed, parsed };
    return makers && !diagnostics.some((d) => d.severity === "error") ? { ...result, ...makers } : result;
  };
  if (parsed.syntaxBroken || !parsed.doc) return done();

  const plain = toPlain(parsed.doc.contents, parsed.aliases, sink, limits);
  if (!plain.ok) return done();
  if (validateSchema(plain.value, parsed.doc.contents, parsed.aliases, sink) > 0) return done();

  const contract = plain.value as unknown as ContractSpec;
  const ctx = createContext(text, parsed, contract, sink);
  for (const check of CHECKS) check(ctx);
  if (options.files) checkFileReferences(ctx, options.files);
  const costs = unitCosts(contract);
  const worst = worstCase(contract, costs);
  checkBudgets(ctx, costs, worst);
  const compiled = checkExpressions(ctx);
  checkKeys(ctx, compiled);
  checkKeyBounds(ctx, compiled);
  checkSecrets(ctx, compiled);
  const mcpLock = checkMcpLock(ctx, options.mcp);
  return done(planMakers({ contract, graph: ctx.graph, costs, worstCase: worst, compiled, ...(mcpLock ? { mcpLock } : {}) }, carry));
}

type PlanMakers = Required<Pick<CheckResult, "buildPlan" | "unhashedPlan" | "impactGraph" | "countIndex" | "graphView">>;

/**
 * What the plan is made from, in a scope of its own: the makers hold the
 * contract and its graph but not the parse (yaml tree, model, line index),
 * so a caller that keeps only them lets the parse be collected before the
 * plan is built. On a large contract the parse is most of the memory.
 */
function planMakers(parts: Omit<PlanParts, "topology">, carry: Carried): PlanMakers {
  const { contract, graph } = parts;
  // made once, for whichever of the plan and the impact graph is asked for first, taken over from the
  // document's latest where that has the same units and needs; this version's is then the latest
  let made: TopologySource | undefined;
  let latest: TopologySource | undefined;
  const shape = (): TopologySource => {
    if (!made) {
      latest = carry.last;
      made = { units: contract.units, ids: graph.units, topology: planTopology(contract, graph, latest) };
      carry.last = made;
    }
    return made;
  };
  let counted: CountSource | undefined;
  const impactGraph = () => {
    const source = shape();
    return (source.graph ??= impactGraphOf(contract, source.topology, latest));
  };
  return {
    buildPlan: () => buildPlan({ ...parts, topology: shape().topology }),
    unhashedPlan: () => frozenInTests(unhashedPlan({ ...parts, topology: shape().topology })),
    impactGraph,
    countIndex: () => {
      if (!counted) counted = carry.counted = countIndexOf(contract, graph, carry.counted);
      return counted.index;
    },
    graphView: () => ({ ...impactGraph(), task: planTaskName(contract) }),
  };
}
