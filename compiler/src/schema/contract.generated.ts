// Generated from compiler/contract.schema.json by `npm run gen:types`
// (scripts/gen-contract-types.js). Do not edit: change the schema and regenerate.
// Names the compiler uses are in ./contract.ts.

/** A task contract (*.task.yaml): units of work with inputs, outputs, dependencies and verifiers, tools with recovery classes, and budgets. */
export type Contract = {
  /** Format version of the contract language; must be 1. */
  contract: 1;
  task: Task;
  /** Named inputs the units depend on: sources, decisions, external state. Each is a node of the dependency graph. */
  inputs?: Record<string, Input>;
  budgets?: Budgets;
  queue?: Queue;
  /** Every tool a unit may call, each with a recovery class that says what recovery may do after a crash. */
  tools?: Record<string, Tool>;
  /** MCP servers (Model Context Protocol) whose tools `tools.*.mcp` binds: each started as a local process over stdio (`command`) or reached over Streamable HTTP (`url`). */
  servers?: Record<string, Server>;
  /** Named checks used by units (`verify`) and by `task.done`. */
  verifiers?: Record<string, Verifier>;
  /** The work units: the nodes of the dependency graph. */
  units: Record<string, Unit>;
  /** Rules that widen invalidation (they never narrow it). */
  impact?: ImpactRule[];
};

/** A name: letters, digits, `_` and `-`, not starting with `-`. */
export type Name = string;

/** A duration such as `45m`, `36h`, `90s`, `500ms` or `2d`. */
export type Duration = string;

/** Who approves: `human` (a person) or `rule` (an automatic rule). */
export type Approval = "human" | "rule";

/** Cost per attempt (units) or per call (tools). */
export type Cost = {
  /** Model calls. */
  model_calls?: number;
  /** Tool calls. */
  tool_calls?: number;
  /** Model tokens. */
  tokens?: number;
};

/** A declared verifier's name, or an inline check `{ check: "..." }`. */
export type VerifierUse =
  | string
  | {
      /** An expression that must be true, e.g. `count(result.claims) >= 1`. */
      check: string;
    };

/** Identity, goal and end-to-end verifiers of the task. */
export type Task = {
  /** Stable id: lowercase letters, digits, `.`, `_`, `-`. */
  id: string;
  /** Contract version; bump it when the goal changes. Defaults to 1. */
  version?: number;
  /** What the task must achieve, in one sentence. */
  goal: string;
  /** Per-attempt time limit of every unit without its own `timeout`, e.g. `10m`. Without either, a unit gets the runtime's default of 30m. */
  timeout?: Duration;
  /** Things the task must never do. */
  forbid?: string[];
  /** Artifacts the task delivers; each is produced by exactly one unit. */
  outputs?: string[];
  /** End-to-end verifiers: the task is finished only when these pass on the final world. */
  done?: VerifierUse[];
};

/** A named input. */
export type Input = {
  /** `snapshot` (fixed set), `decision` (a choice made by people), `external` (live world state) or `artifact` (a file from outside). */
  kind: "snapshot" | "decision" | "external" | "artifact";
  /** Version of a snapshot or artifact; changing it invalidates what depends on it. */
  version?: string | number;
  /** Value of a decision; changing it invalidates what depends on it. */
  value?: unknown;
  /** Evidence read from it expires and is re-read on resume (default true for `external`). */
  volatile?: boolean;
  /** What this input is, for people. */
  describe?: string;
  /** The value is a secret: never stored (only its digest), never in events, masked as `***` in `status`, `handoff`, messages and the editor. Give it with an input reader, not a `value` in the contract (C037). */
  secret?: boolean;
};

/** The work queue the workers of a shared store serve this task's runs from (`taskspec submit`, `taskspec worker`). Absent: the queue `default`. A run's own `submit --queue` overrides `name`. */
export type Queue = {
  /** The queue's name: letters, digits, `.`, `_` and `-`, at most 64. Workers may serve only some queues (`--queue`) and limit each (`--queue-limit`). */
  name: string;
  /** A template for the tenant the run belongs to, e.g. `${inputs.customer}`: runs of one queue take turns by key, so a tenant with many runs does not starve one with few. Sees `task`, `run` and `inputs`. Absent: all runs of the queue are one tenant. */
  key?: string;
};

/** Hard caps that survive crashes. */
export type Budgets = {
  /** Cap on model calls for the whole run. */
  model_calls?: number;
  /** Cap on tool calls for the whole run. */
  tool_calls?: number;
  /** Cap on model tokens for the whole run. */
  tokens?: number;
  /** Cap on elapsed time, e.g. `36h`. */
  wall_clock?: Duration;
  /** Default extra attempts per unit (units may override with `retry`). */
  retries?: number;
};

/** A tool and its recovery class. */
export type Tool = {
  /** Recovery class: `read`, `idempotent`, `dedup`, `compensable` or `irreversible`. */
  class: "read" | "idempotent" | "dedup" | "compensable" | "irreversible";
  /** Business key template, e.g. `task:${task.id}:${unit.id}`; required for `dedup`. */
  key?: string;
  /** A `read` tool that finds the effect by key when its outcome is unknown. */
  lookup?: string;
  /** What the ledger may keep of the tool's arguments. By default only their names (and digests of their values); `safe: true` keeps an argument's value in the effect's intent, `secret: true` keeps not even its digest and masks it as `***`. */
  args?: Record<string, Argument>;
  /** Fields of the tool's result and their types (`{ type, secret: true }` for a field the ledger must never store). */
  result?: Record<
    string,
    | ResultType
    | {
        type: ResultType;
        /** The field is a secret: the ledger never stores it, and the receipt the handler gets lacks it (the first call's as a reused effect's: the same receipt every time). */
        secret?: boolean;
      }
  >;
  /** How to undo a committed call: the compensator tool and its arguments. */
  compensate?: {
    /** The compensator; an `idempotent` or `dedup` tool. */
    tool: string;
    /** Arguments, as templates over `result`, e.g. `${result.booking_id}`. */
    with?: Record<string, string>;
    /** When the undo is verified: an expression over `result`, the record the tool's lookup answers after the compensator ran, true when the effect is undone, e.g. `result.status == "voided"`. A lookup answering null (nothing there) is always compensated. Default: `result.status == "cancelled"`. Never invalidates committed work. */
    compensated?: string;
  };
  /** Who may approve a use of this tool; units that use it declare the gate. */
  approval?: Approval;
  mcp?: McpBinding;
  /** Cost per call. */
  cost?: Cost;
  /** What the tool does, for people. */
  describe?: string;
};

/** An MCP server: `command` (stdio) or `url` (Streamable HTTP), exactly one (C100). */
export type Server = {
  /** stdio: the program that starts the server, e.g. `node`. */
  command?: string;
  /** stdio: its arguments. No secrets here (C102): pass them in `env`. */
  args?: string[];
  /** stdio: names of the worker's environment variables the server gets; besides them it gets only HOME, LOGNAME, PATH, SHELL, TERM and USER. Names only, never `NAME=value` (C102). */
  env?: string[];
  /** stdio: its working directory, relative to the contract's folder. */
  cwd?: string;
  /** Streamable HTTP: the server's endpoint, e.g. `https://crm.example.com/mcp`. No credentials in it (C102). */
  url?: string;
  /** Streamable HTTP: headers sent with every request: a plain value (nothing secret, C102), or `{ env: NAME, prefix? }`, the value of the worker's environment variable NAME (after `prefix`, e.g. `"Bearer "`). */
  headers?: Record<
    string,
    | string
    | {
        /** The environment variable that holds the value. */
        env: string;
        /** Text sent before the value, e.g. `Bearer `. */
        prefix?: string;
      }
  >;
  /** How long one request to this server may take (default 60s): past it the call is abandoned, the server is sent MCP's cancellation notification, and the effect is UNKNOWN, resolved by its lookup. A unit's own timeout cuts a call sooner. */
  timeout?: Duration;
  /** What the server is, for people. */
  describe?: string;
};

/** The tool is a tool of an MCP server: the runtime calls it from the worker, through the ledger. */
export type McpBinding = {
  /** A server declared under `servers` (C100). */
  server: string;
  /** The tool's name on that server. */
  tool: string;
  /** The argument the rendered `key` is passed in (the server de-duplicates by it; a lookup finds the effect by it). A tool with a `key` needs it, or a bound `lookup` that has it (C101). */
  key_arg?: string;
};

/** The type of a result field. */
export type ResultType = "string" | "number" | "boolean" | "list" | "object" | "any";

/** What the ledger keeps of one argument. */
export type Argument = {
  /** The value is a secret: no digest of it is stored, it is masked as `***` in a held request, `status` and `handoff`, and a `key` must not read it (C037). */
  secret?: boolean;
  /** The value is not sensitive: the effect's intent shows it (`send_email(to=ops@example.com, body)`), clipped and with credential-shaped text masked. */
  safe?: boolean;
  /** What the argument is, for people. */
  describe?: string;
};

/** A named check. */
export type Verifier = {
  /** `rule` (an expression), `schema` (a JSON Schema file), `model` (soft, judged by a model) or `human`. */
  kind: "rule" | "schema" | "model" | "human";
  /** For `rule`: an expression that must be true. */
  check?: string;
  /** For `schema`: path of the JSON Schema the result must satisfy. */
  schema?: string;
  /** What is checked, for people (and the prompt of a `model` verifier). */
  describe?: string;
};

/** A unit of work. */
export type Unit = {
  /** Phase label used for grouping (e.g. `extract`, `verify`). */
  phase?: string;
  /** What the unit does, for people. */
  describe?: string;
  /**
   * Upstream units or inputs, each with one edge kind or a list: `content`, `structure`, `policy`, `audience`.
   * Edge kinds are any string on purpose: C070 names an unknown one and suggests the closest.
   */
  needs?: Record<string, string | string[]>;
  /** Tools this unit may call. */
  uses?: string[];
  /** Artifacts this unit produces. */
  produces?: string[];
  /** Verifiers that must pass before the unit counts as done. */
  verify?: VerifierUse[];
  /** The unit's own model cost per attempt. */
  cost?: Cost;
  /** Bounded iteration inside the unit. */
  loop?: {
    /**
     * Most iterations: a positive integer.
     * Untyped on purpose: C021 reports a bound that is missing or not a positive integer, with a fix.
     */
    max?: unknown;
    /** Stop early when this expression is true. */
    until?: string;
  };
  /** Extra attempts after the first; overrides `budgets.retries`. */
  retry?: {
    /**
     * Most extra attempts: a non-negative integer.
     * Untyped on purpose: C021 reports a bound that is not a finite non-negative integer.
     */
    max?: unknown;
    /** How long the unit waits before each extra attempt: `initial`, then `factor` times longer each time, at most `max`, with `jitter`. Defaults: `initial: 1s`, `factor: 2`, `max: 5m`, `jitter: equal`. Policy: never invalidates committed work. */
    backoff?: {
      /** Wait before the first extra attempt, e.g. `1s` (default). */
      initial?: Duration;
      /** Longest wait, e.g. `5m` (default); at least `initial`. */
      max?: Duration;
      /** Each wait is this many times the one before: a number from 1 to 100 (default 2; 1 is a constant wait). */
      factor?: number;
      /** Randomness against retry storms: `equal` (default: half the wait fixed, half random), `full` (anywhere from 0 to the wait) or `none`. */
      jitter?: "equal" | "full" | "none";
    };
  };
  /** How many effects of a `dedup` or `irreversible` tool the unit makes at most (per loop iteration), for a tool whose `key` reads the call's `args`: `{ post_comment: { max: 3 } }`. Without it the unit makes at most one effect of each such tool (C039); the runtime refuses the next distinct key. */
  effects?: Record<
    string,
    {
      /** Most distinct keys of the tool per run of the unit (per loop iteration): a positive integer. */
      max: number;
    }
  >;
  /** Durable gate before the unit runs. */
  approval?: Approval;
  /** Per-attempt time limit, e.g. `45m`; without it, `task.timeout`, else the default of 30m. */
  timeout?: Duration;
  /** When the code of the unit's handler, or of a tool adapter its work or recovery calls, changed since its result was committed: `ask` (the default: `resume` and `status` report it, `taskspec rerun` re-runs it) or `rerun` (re-run it at the next `resume`). */
  on_code_change?: "ask" | "rerun";
};

/** Also invalidate these units when a change of this kind happens. */
export type ImpactRule = {
  /**
   * Change kind that fires the rule: `content`, `structure`, `policy` or `audience`.
   * Any string on purpose: C070 names an unknown change kind.
   */
  on: string;
  /** Only changes at this unit or input. */
  at?: string;
  /** Units to invalidate as well. */
  invalidate: string[];
};
