export * from "./diagnostics/types.js";
export * from "./plan/schema.js";
export * from "./parse/index.js";
export { LineIndex, offsetToPosition, positionToOffset } from "./source/line-index.js";
export { makeDiagnostic, DiagnosticSink, sortDiagnostics, type FixSpec, type DiagnosticExtras } from "./source/diagnostic.js";
export { scalarOffsetMapper } from "./source/scalar-offsets.js";
export * from "./impact/index.js";
export * from "./graph/index.js";
export * from "./expr/index.js";
export { checkContract, compile, type CheckResult, type CompileOptions, type CompileResult } from "./compile.js";
export { CONTRACT_SCHEMA } from "./schema/validate.js";
export { keepAcrossCompiles } from "./memo.js";
export type { ContractSpec } from "./schema/contract.js";
export { canonicalJson, hashOf } from "./plan/canonical.js";
export { planHashOf } from "./plan/plan-hash.js";
export { scopeOfSite } from "./check/site-scope.js";
export {
  BOUNDED_KEY_CLASSES,
  handlerChosenIn,
  planKeyBoundProblems,
  unboundedKeyMessage,
  unboundedKeyUses,
  type UnboundedKeyUse,
} from "./check/key-bounds.js";
export type { FileProbe } from "./check/files.js";
export { pathEscape } from "./check/file-paths.js";
export { applyPolicy, severityOf, type Rules, type RuleSetting, type SuppressedDiagnostic } from "./policy/apply.js";
export { isAdjustable, SUPPRESSION_WORD } from "./policy/suppressions.js";
export { parseConfig, CONFIG_SCHEMA, type Config, type ConfigProblem, type ConfigResult } from "./config/parse-config.js";
export { policyFor, type FilePolicy } from "./config/resolve.js";
export { globMatcher, globBase, isGlob } from "./config/glob.js";
export {
  bindingsDigest,
  lockedSummary,
  MCP_LOCK_FORMAT,
  parseMcpLock,
  toolDefinitionDigest,
  type LockedServer,
  type LockedTool,
  type McpLock,
  type ToolAnnotations,
} from "./plan/mcp-lock.js";
export { planServers } from "./plan/servers.js";
export { costPerToolCall } from "./plan/worst-case.js";
export type { McpLockInput } from "./check/mcp-lock.js";
