/**
 * The names the compiler uses for a contract that passed contract.schema.json.
 * The types themselves are generated from the schema (the source of truth)
 * into contract.generated.ts by `npm run gen:types`;
 * compiler/test/contract-types.test.ts fails when that file is stale.
 *
 * The schema, and so these types, is loose in a few places on purpose, each
 * for a dedicated diagnostic that says more than a schema error could (the
 * `$comment` beside each in the schema): loop and retry `max` are untyped
 * for C021, edge kinds in `needs` and impact `on` are any string for C070.
 * Nothing else is wider than the schema.
 */
import type {
  Argument,
  Contract,
  Cost,
  Input,
  McpBinding,
  ResultType,
  Server,
  Tool,
  Unit,
  Verifier,
  VerifierUse,
} from "./contract.generated.js";

export type ContractSpec = Contract;
export type InputSpec = Input;
export type ToolSpec = Tool;
/** An MCP server (`servers.<name>`). */
export type ServerSpec = Server;
/** A tool's binding to an MCP server's tool (`tools.*.mcp`). */
export type McpBindingSpec = McpBinding;
export type VerifierSpec = Verifier;
export type UnitSpec = Unit;
export type VerifierUseSpec = VerifierUse;
export type CostSpec = Cost;
/** A declared result field's type (`tools.*.result`). */
export type ResultFieldType = ResultType;
/** A declared result field: its type, or `{ type, secret }`. */
export type ResultFieldSpec = NonNullable<Tool["result"]>[string];
/** What the ledger may keep of one argument (`tools.*.args`). */
export type ArgumentSpec = Argument;

/** The type of a declared result field, whichever form declares it. */
export function resultFieldType(field: ResultFieldSpec): ResultFieldType {
  return typeof field === "string" ? field : field.type;
}
