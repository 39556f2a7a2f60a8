/**
 * The runtime plan: one TypeBox definition gives both the TypeScript types that
 * every consumer imports and the JSON Schema (`PlanSchema`) that every emitted
 * plan is validated against. Change the plan here and nowhere else.
 *
 * The plan contains no source positions outside expressions (whose spans are
 * relative to the expression text), so editing a comment or reordering keys
 * changes neither a unit's definition hash nor the plan hash.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";

export const PLAN_FORMAT = 1 as const;

/**
 * The longest delay Node's timers honour (setTimeout clamps anything larger
 * to 1 ms): the bound of every timeout, lease and wait the runtime sets, so
 * the compiler refuses a longer timeout and the CLI a longer duration.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Per-attempt time limit of a unit without its own `timeout` and without `task.timeout`: 30 minutes. */
export const DEFAULT_UNIT_TIMEOUT_MS = 30 * 60_000;

/**
 * The time limit an attempt of the unit runs under. Every plan this compiler
 * builds names it; a plan stored by an older compiler may not, and gets the
 * default: there is no attempt without a timeout.
 */
export function unitTimeoutMs(unit: { readonly timeoutMs?: number }): number {
  const ms = unit.timeoutMs;
  return typeof ms === "number" && Number.isInteger(ms) && ms > 0 ? ms : DEFAULT_UNIT_TIMEOUT_MS;
}

/** The wait before extra attempts of a unit whose `retry` has no `backoff`: 1 s, doubling, at most 5 min, equal jitter. */
export const DEFAULT_BACKOFF = { initialMs: 1000, maxMs: 5 * 60_000, factor: 2, jitter: "equal" } as const;

/** The backoff an extra attempt of the unit waits under (a plan from an older compiler has none: the default). */
export function unitBackoff(unit: { readonly retry: { readonly backoff?: Backoff } }): Backoff {
  return unit.retry.backoff ?? { ...DEFAULT_BACKOFF };
}

export const EdgeKind = Type.Union([Type.Literal("content"), Type.Literal("structure"), Type.Literal("policy"), Type.Literal("audience")]);
export type EdgeKind = Static<typeof EdgeKind>;
export const EDGE_KINDS: readonly EdgeKind[] = ["content", "structure", "policy", "audience"];

export const RecoveryClass = Type.Union([
  Type.Literal("read"),
  Type.Literal("idempotent"),
  Type.Literal("dedup"),
  Type.Literal("compensable"),
  Type.Literal("irreversible"),
]);
export type RecoveryClass = Static<typeof RecoveryClass>;
export const RECOVERY_CLASSES: readonly RecoveryClass[] = ["read", "idempotent", "dedup", "compensable", "irreversible"];

export const InputKind = Type.Union([
  Type.Literal("snapshot"),
  Type.Literal("decision"),
  Type.Literal("external"),
  Type.Literal("artifact"),
]);
export type InputKind = Static<typeof InputKind>;

export const ApprovalKind = Type.Union([Type.Literal("human"), Type.Literal("rule")]);
export type ApprovalKind = Static<typeof ApprovalKind>;

export const VerifierKind = Type.Union([Type.Literal("rule"), Type.Literal("schema"), Type.Literal("model"), Type.Literal("human")]);
export type VerifierKind = Static<typeof VerifierKind>;

/** Offsets relative to the start of the expression's own text. */
const ExprSpan = Type.Object({ start: Type.Integer(), end: Type.Integer() });

/** Typed expression AST. Evaluated by an interpreter, never by eval/Function. */
export const ExprNode = Type.Recursive(
  (Self) =>
    Type.Union([
      Type.Object({
        type: Type.Literal("literal"),
        value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
        span: ExprSpan,
      }),
      Type.Object({
        type: Type.Literal("path"),
        root: Type.String(),
        segments: Type.Array(
          Type.Union([
            Type.Object({ kind: Type.Literal("prop"), name: Type.String() }),
            Type.Object({ kind: Type.Literal("index"), index: Self }),
          ]),
        ),
        span: ExprSpan,
      }),
      Type.Object({
        type: Type.Literal("unary"),
        op: Type.Union([Type.Literal("!"), Type.Literal("-")]),
        operand: Self,
        span: ExprSpan,
      }),
      Type.Object({
        type: Type.Literal("binary"),
        op: Type.Union(["==", "!=", "<", "<=", ">", ">=", "&&", "||", "+", "-", "*", "/"].map((op) => Type.Literal(op))),
        left: Self,
        right: Self,
        span: ExprSpan,
      }),
      Type.Object({
        type: Type.Literal("call"),
        fn: Type.Union(["count", "len", "exists", "all", "any"].map((fn) => Type.Literal(fn))),
        args: Type.Array(Self),
        span: ExprSpan,
      }),
    ]),
  { $id: "ExprNode" },
);
export type ExprNode = Static<typeof ExprNode>;
export type BinaryOp = Extract<ExprNode, { type: "binary" }>["op"];
export type CallFn = Extract<ExprNode, { type: "call" }>["fn"];

export const ExprType = Type.Union(["any", "boolean", "number", "string", "null", "list", "object"].map((t) => Type.Literal(t)));
export type ExprType = "any" | "boolean" | "number" | "string" | "null" | "list" | "object";

/** A compiled expression (`check`, `until`): source text, typed AST, result type. */
export const CompiledExpr = Type.Object({
  source: Type.String(),
  ast: Type.Ref(ExprNode),
  resultType: ExprType,
});
export type CompiledExpr = Static<typeof CompiledExpr>;

/** A compiled `${...}` template (`key`, `with` values): literal text and expressions. */
export const CompiledTemplate = Type.Object({
  source: Type.String(),
  parts: Type.Array(Type.Union([Type.Object({ text: Type.String() }), Type.Object({ expr: Type.Ref(ExprNode) })])),
});
export type CompiledTemplate = Static<typeof CompiledTemplate>;

export const Cost = Type.Object({
  model_calls: Type.Number({ minimum: 0 }),
  tool_calls: Type.Number({ minimum: 0 }),
  tokens: Type.Number({ minimum: 0 }),
});
export type Cost = Static<typeof Cost>;

export const VerifierUse = Type.Union([Type.Object({ ref: Type.String() }), Type.Object({ check: CompiledExpr })], { $id: "VerifierUse" });
export type VerifierUse = Static<typeof VerifierUse>;

export const PlanTask = Type.Object({
  id: Type.String(),
  version: Type.Integer(),
  goal: Type.String(),
  forbid: Type.Array(Type.String()),
  outputs: Type.Array(Type.String()),
  /** End-to-end verifiers: names of declared verifiers or inline checks. */
  done: Type.Array(Type.Ref(VerifierUse)),
});

export const PlanInput = Type.Object({
  name: Type.String(),
  kind: InputKind,
  version: Type.Optional(Type.String()),
  value: Type.Optional(Type.Unknown()),
  volatile: Type.Boolean(),
  /** `secret: true`: the value is never stored, never in events, masked as `***` (docs/runtime.md "What the store keeps"). */
  secret: Type.Optional(Type.Literal(true)),
  /** sha256 of the input's normalized definition: a changed value/version is `all` at this input. */
  definitionHash: Type.String(),
});
export type PlanInput = Static<typeof PlanInput>;

export const PlanEdge = Type.Object({
  /** Upstream unit or input. */
  from: Type.String(),
  /** Downstream unit. */
  to: Type.String(),
  kinds: Type.Array(EdgeKind),
});
export type PlanEdge = Static<typeof PlanEdge>;

/** The wait before an extra attempt: `initialMs * factor^(k-1)` before the k-th, at most `maxMs`, then jittered. */
export const Backoff = Type.Object({
  initialMs: Type.Integer({ minimum: 1 }),
  maxMs: Type.Integer({ minimum: 1 }),
  factor: Type.Number({ minimum: 1 }),
  jitter: Type.Union([Type.Literal("equal"), Type.Literal("full"), Type.Literal("none")]),
});
export type Backoff = Static<typeof Backoff>;

export const PlanUnit = Type.Object({
  id: Type.String(),
  phase: Type.String(),
  /** Parallel level: 0 for units that need only inputs; 1 + max level of unit needs otherwise. */
  level: Type.Integer({ minimum: 0 }),
  needs: Type.Array(
    Type.Object({ node: Type.String(), nodeType: Type.Union([Type.Literal("unit"), Type.Literal("input")]), kinds: Type.Array(EdgeKind) }),
  ),
  uses: Type.Array(Type.String()),
  produces: Type.Array(Type.String()),
  verify: Type.Array(Type.Ref(VerifierUse)),
  loop: Type.Optional(Type.Object({ max: Type.Integer({ minimum: 1 }), until: Type.Optional(CompiledExpr) })),
  /**
   * Extra attempts after the first (from `retry.max` or `budgets.retries`), and
   * the wait before each (`retry.backoff` with its defaults filled in; a plan
   * stored by an older compiler has none and gets DEFAULT_BACKOFF).
   */
  retry: Type.Object({ max: Type.Integer({ minimum: 0 }), backoff: Type.Optional(Backoff) }),
  /**
   * `effects: { <tool>: { max } }`: how many distinct keys of a `dedup` or
   * `irreversible` tool the unit may make (per loop iteration); a tool not
   * named here: one (check/key-bounds.ts, C039; the ledger enforces it).
   */
  effects: Type.Optional(Type.Record(Type.String(), Type.Object({ max: Type.Integer({ minimum: 1 }) }))),
  approval: Type.Optional(ApprovalKind),
  /** Per-attempt time limit: the unit's own `timeout`, else `task.timeout`, else DEFAULT_UNIT_TIMEOUT_MS; never absent. */
  timeoutMs: Type.Integer({ minimum: 1 }),
  /** Where `timeoutMs` comes from. */
  timeoutSource: Type.Union([Type.Literal("unit"), Type.Literal("task"), Type.Literal("default")]),
  /** `on_code_change: rerun`: a committed result whose handler or adapter code changed re-runs at the next resume (absent: ask). */
  onCodeChange: Type.Optional(Type.Literal("rerun")),
  /** Per-attempt cost of the unit's own model work (tool calls are added from `uses`). */
  cost: Cost,
  /** Worst case of this unit: (own cost + tool costs) x loop max x attempts. */
  worstCase: Cost,
  /** sha256 of the normalized unit definition plus the definitions of the tools it uses (with their lookups and compensators) and of its named verifiers. */
  definitionHash: Type.String(),
});
export type PlanUnit = Static<typeof PlanUnit>;

export const RecoveryPolicy = Type.Object({
  /** What a retry of the call may do. */
  onRetry: Type.Union([Type.Literal("retry"), Type.Literal("retry-same-key"), Type.Literal("lookup-then-retry"), Type.Literal("never")]),
  /** What recovery does with a STARTED/UNKNOWN effect of this tool. */
  onUnknown: Type.Union([Type.Literal("retry"), Type.Literal("retry-same-key"), Type.Literal("lookup"), Type.Literal("block")]),
  /** What an abort (saga rollback) does with a committed effect of this tool. */
  onAbort: Type.Union([Type.Literal("nothing"), Type.Literal("compensate"), Type.Literal("block")]),
  /** One sentence for people: hover text, status output, docs. */
  summary: Type.String(),
});
export type RecoveryPolicy = Static<typeof RecoveryPolicy>;

/**
 * What the plan keeps of a bound tool's locked definition (plan/mcp-lock.ts): the digest the runtime
 * compares the server's live definition with, the annotations the server gave, its arguments and output
 * fields with their JSON types (`any` for none or several); `args`/`output` absent: the schema lists none.
 */
export const PlanLocked = Type.Object({
  digest: Type.String(),
  readOnlyHint: Type.Optional(Type.Boolean()),
  destructiveHint: Type.Optional(Type.Boolean()),
  idempotentHint: Type.Optional(Type.Boolean()),
  args: Type.Optional(Type.Record(Type.String(), Type.String())),
  output: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type PlanLocked = Static<typeof PlanLocked>;

export const PlanTool = Type.Object({
  name: Type.String(),
  class: RecoveryClass,
  key: Type.Optional(CompiledTemplate),
  lookup: Type.Optional(Type.String()),
  /** Declared result fields and their types. */
  result: Type.Optional(Type.Record(Type.String(), Type.String())),
  /** Arguments marked `secret`: no digest stored, masked as `***`, sorted. */
  secretArgs: Type.Optional(Type.Array(Type.String())),
  /** Arguments marked `safe`: their values are shown in the effect's intent, sorted. */
  safeArgs: Type.Optional(Type.Array(Type.String())),
  /** Result fields marked `secret`: never stored in a receipt, sorted. */
  secretResult: Type.Optional(Type.Array(Type.String())),
  compensate: Type.Optional(
    Type.Object({
      tool: Type.String(),
      with: Type.Record(Type.String(), CompiledTemplate),
      /** True of the lookup's record when the effect is undone; absent: the runtime's default (docs/runtime.md). */
      compensated: Type.Optional(CompiledExpr),
    }),
  ),
  approval: Type.Optional(ApprovalKind),
  /**
   * The tool is `tool` of the MCP server `server`; `keyArg`: the argument the rendered key is passed in;
   * `locked`: what the MCP lock says of it (present when the plan was compiled with a lock).
   */
  mcp: Type.Optional(
    Type.Object({ server: Type.String(), tool: Type.String(), keyArg: Type.Optional(Type.String()), locked: Type.Optional(PlanLocked) }),
  ),
  cost: Cost,
  recovery: RecoveryPolicy,
});
export type PlanTool = Static<typeof PlanTool>;

/** A header of a Streamable HTTP server: a plain `value`, or the worker's environment variable `env` after `prefix`. */
export const PlanHeader = Type.Object({
  name: Type.String(),
  value: Type.Optional(Type.String()),
  env: Type.Optional(Type.String()),
  prefix: Type.Optional(Type.String()),
});
export type PlanHeader = Static<typeof PlanHeader>;

/**
 * An MCP server the plan's tools are bound to: a local process over stdio
 * (`command`, with only the `env` names it is given) or a Streamable HTTP
 * endpoint (`url`, `headers`). Secrets are never in it, only the names of
 * the environment variables that hold them.
 */
export const PlanServer = Type.Object({
  name: Type.String(),
  transport: Type.Union([Type.Literal("stdio"), Type.Literal("http")]),
  command: Type.Optional(Type.String()),
  args: Type.Optional(Type.Array(Type.String())),
  env: Type.Optional(Type.Array(Type.String())),
  cwd: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  headers: Type.Optional(Type.Array(PlanHeader)),
  /** Per-request limit (`servers.*.timeout`); absent: the SDK's 60 s. */
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type PlanServer = Static<typeof PlanServer>;

export const PlanVerifier = Type.Object({
  name: Type.String(),
  kind: VerifierKind,
  check: Type.Optional(CompiledExpr),
  schema: Type.Optional(Type.String()),
  describe: Type.Optional(Type.String()),
});
export type PlanVerifier = Static<typeof PlanVerifier>;

export const Budgets = Type.Object({
  model_calls: Type.Optional(Type.Number({ minimum: 0 })),
  tool_calls: Type.Optional(Type.Number({ minimum: 0 })),
  tokens: Type.Optional(Type.Number({ minimum: 0 })),
  wall_clock_ms: Type.Optional(Type.Integer({ minimum: 0 })),
  retries: Type.Integer({ minimum: 0 }),
});
export type Budgets = Static<typeof Budgets>;

export const BudgetName = Type.Union([Type.Literal("model_calls"), Type.Literal("tool_calls"), Type.Literal("tokens")]);
export type BudgetName = Static<typeof BudgetName>;

export const WorstCase = Type.Object({
  total: Cost,
  exceeded: Type.Array(
    Type.Object({
      budget: BudgetName,
      worst: Type.Number(),
      cap: Type.Number(),
      /** Units with the largest worst-case share, largest first. */
      dominant: Type.Array(Type.Object({ unit: Type.String(), amount: Type.Number() })),
    }),
  ),
});
export type WorstCase = Static<typeof WorstCase>;

export const ImpactRule = Type.Object({
  on: EdgeKind,
  at: Type.Optional(Type.String()),
  invalidate: Type.Array(Type.String()),
});
export type ImpactRule = Static<typeof ImpactRule>;

/** The work queue runs of this task are submitted to (`queue:`); absent from plans of contracts without one. */
export const PlanQueue = Type.Object({
  name: Type.String(),
  /** The tenant a run belongs to, rendered when it is submitted. */
  key: Type.Optional(CompiledTemplate),
});
export type PlanQueue = Static<typeof PlanQueue>;

export const Plan = Type.Object(
  {
    format: Type.Literal(PLAN_FORMAT),
    /** sha256 (hex) of the canonical JSON of this plan with `planHash` left out. */
    planHash: Type.String(),
    task: PlanTask,
    inputs: Type.Array(PlanInput),
    /** Topological order, ties broken by id. */
    units: Type.Array(PlanUnit),
    /** Unit ids per parallel level. */
    levels: Type.Array(Type.Array(Type.String())),
    edges: Type.Array(PlanEdge),
    tools: Type.Array(PlanTool),
    /** MCP servers bound by tools (`tools[].mcp`), by name; absent when the contract declares none. */
    servers: Type.Optional(Type.Array(PlanServer)),
    /** Present when compiled with an MCP lock: the bindings digest the lock was made for (stale when it is not the plan's). */
    mcpLock: Type.Optional(Type.Object({ bindings: Type.String() })),
    /** Compensable tool name -> its compensator tool name. */
    compensation: Type.Record(Type.String(), Type.String()),
    verifiers: Type.Array(PlanVerifier),
    budgets: Budgets,
    worstCase: WorstCase,
    impactRules: Type.Array(ImpactRule),
    queue: Type.Optional(PlanQueue),
  },
  { $id: "Plan" },
);
export type Plan = Static<typeof Plan>;
/** A plan without `planHash` (a hash of all the rest): what a diff of two versions reads. */
export type UnhashedPlan = Omit<Plan, "planHash">;

/** The plan's JSON Schema, with the shared definitions it refers to. */
export const PlanSchema: TSchema & Record<string, unknown> = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  ...Plan,
  $defs: { VerifierUse, ExprNode },
};
