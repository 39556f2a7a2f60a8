/**
 * TypeScript view of a contract that passed contract.schema.json. The schema
 * file is the source of truth; these types only describe what validation
 * guarantees, so semantic checks and the plan builder can read it safely.
 * Fields the schema leaves open for a dedicated code (loop/retry `max` for
 * C021, edge kinds for C070) are `unknown`/`string` here.
 * compiler/test/contract-types.test.ts reads these types with the TypeScript
 * checker and fails when they and the schema describe different objects.
 */
export type VerifierUseSpec = string | { check: string };
export type CostSpec = { model_calls?: number; tool_calls?: number; tokens?: number };

export interface ContractSpec {
  contract: 1;
  task: {
    id: string;
    version?: number;
    goal: string;
    forbid?: string[];
    outputs?: string[];
    done?: VerifierUseSpec[];
  };
  inputs?: Record<string, InputSpec>;
  budgets?: {
    model_calls?: number;
    tool_calls?: number;
    tokens?: number;
    wall_clock?: string;
    retries?: number;
  };
  tools?: Record<string, ToolSpec>;
  verifiers?: Record<string, VerifierSpec>;
  units: Record<string, UnitSpec>;
  impact?: { on: string; at?: string; invalidate: string[] }[];
}

export interface InputSpec {
  kind: "snapshot" | "decision" | "external" | "artifact";
  version?: string | number;
  value?: unknown;
  volatile?: boolean;
  describe?: string;
}

export interface ToolSpec {
  class: "read" | "idempotent" | "dedup" | "compensable" | "irreversible";
  key?: string;
  lookup?: string;
  /** Declared result fields and their types. */
  result?: Record<string, ResultFieldType>;
  compensate?: { tool: string; with?: Record<string, string> };
  approval?: "human" | "rule";
  cost?: CostSpec;
  describe?: string;
}

export type ResultFieldType = "string" | "number" | "boolean" | "list" | "object" | "any";

export interface VerifierSpec {
  kind: "rule" | "schema" | "model" | "human";
  check?: string;
  schema?: string;
  describe?: string;
}

export interface UnitSpec {
  phase?: string;
  describe?: string;
  needs?: Record<string, string | string[]>;
  uses?: string[];
  produces?: string[];
  verify?: VerifierUseSpec[];
  cost?: CostSpec;
  loop?: { max?: unknown; until?: string };
  retry?: { max?: unknown };
  approval?: "human" | "rule";
  timeout?: string;
}
