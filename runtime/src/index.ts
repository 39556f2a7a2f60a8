export * from "./handler-api.js";
export { openAiChatAdapter, type OpenAiChatOptions } from "./models/openai-chat.js";
export { ModelCallError, type ModelAdapter } from "./models/types.js";
export * from "./errors.js";
export * from "./model/facts.js";
export { sha256, canonicalJson, planVersionOf, inputVersionOf, attemptDir } from "./model/identity.js";
export { assertPlanIds, assertRunId, BadIdError, runIdProblem, unitIdProblem, RUN_ID_PATTERN, UNIT_ID_PATTERN } from "./model/ids.js";
export type * from "./store/types.js";
export { SqliteStore } from "./store/sqlite.js";
export { SQLITE_MIGRATIONS } from "./store/sqlite-migrations.js";
export { openStore, storeFailureOf, DEFAULT_STORE_URL } from "./store/open.js";
export { isStoreUnavailable } from "./store/unavailable.js";
export { StoreError, STORE_PROBLEMS, redactStoreUrl, type StoreProblem } from "./store/open-errors.js";
export { FsArtifactStorage, ArtifactPathError, CorruptArtifactError, type ArtifactStorage } from "./artifacts/storage.js";
export { artifactLocationOf, openArtifactStorage, type ArtifactLocation } from "./artifacts/open.js";
export { decide, type Decision, type DerivedState, type BlockedReason } from "./scheduler/decide.js";
export { CRASH_POINTS, parseCrashSpecs, crashHookFromEnv, type CrashPoint, type CrashHook } from "./faults/crash-points.js";
export { runPlan, engineCore, type RunPlanOptions } from "./engine/run-plan.js";
export { Worker, ensureRun, type RunOutcome, type WorkerOptions, type Progress } from "./engine/worker.js";
export { grantApproval, issueResumeToken, currentApproval, approvalMismatch, gateInputHashes } from "./engine/approvals.js";
export { compensateRun, compensationOrder, type CompensationReport } from "./ledger/compensate.js";
export { verifyChain, BrokenChainError } from "./engine/chain.js";
export { auditFacts, type FactAudit } from "./operator/fact-audit.js";
export type { Clock } from "./engine/core.js";
export { StoreClock, clockOffsetMs } from "./engine/store-clock.js";
export { queueOfRun, QueueKeyError, type RunQueue } from "./scheduler/queue-of.js";
export { mayVisit, restAfterVisit, runMark, type VisitRest } from "./scheduler/visit-rest.js";
export { nextVisits, fairOrder, DEFAULT_QUEUE, type QueuedRun, type VisitStart } from "./scheduler/run-queue.js";
export { newOwner, pidSpace, processWorkerId, workerIdOf, ownerVerdict, type Liveness } from "./engine/owner.js";
export { judgeOwner, type OwnerFacts, type OwnerVerdict } from "./engine/owner-verdict.js";
export { WorkerHeartbeat, HEARTBEAT, type HeartbeatOptions } from "./engine/worker-heartbeat.js";
export { workersView, type WorkerView } from "./operator/workers-view.js";
export {
  missingHandlers,
  formatMissingHandlers,
  codeVerifiersUsed,
  verifierModuleProblems,
  formatVerifierModuleProblems,
  type MissingHandler,
} from "./handlers/check-module.js";
export {
  loadVerifierModule,
  recordVerifierModule,
  VerifierModuleError,
  VERIFIER_MODULE_EVENT,
  type LoadedVerifiers,
} from "./engine/verifier-module.js";
export {
  inProcessRunner,
  HandlerExitedError,
  UnsendableResultError,
  type HandlerRunner,
  type HandlerSession,
  type HandlerInvocation,
  type HandlerOps,
  type ContextData,
} from "./engine/handler-runner.js";
export { processRunner, isolationOf, type ProcessRunner, type ProcessRunnerOptions, type IsolationInfo } from "./isolation/host.js";
export { probeModules, probedOrThrow, ProbeError, type ProbeOptions, type ProbedModule } from "./isolation/probe.js";
export { loadToolsModule, recordToolsModule, ToolsModuleError, TOOLS_MODULE_EVENT, type LoadedTools } from "./engine/tools-module.js";
export { handlerReadRoots, networkIsolationAvailable } from "./isolation/launch.js";
export { codeChanges, codeDigester, digestsOf, CODE_SOURCE, type CodeChange, type CodeDigests } from "./handlers/code-hash.js";
export { applyCodeChanges, codeChangesOfRun, formatCodeChange, type CodeChangeOutcome } from "./operator/code-drift.js";
export { runsOf, runSummaryOf, newestFirst, unitViewOf, eventsOf, formatEvent, type RunSummary, type UnitView } from "./operator/views.js";
export { runsWindow, RUN_STATES, type RunsQuery, type RunsWindow } from "./operator/runs-window.js";
export { statusOf, planOfRun, decisionFor, derivedStatus, type StatusReport } from "./operator/status.js";
export { RUN_SKIPPED_EVENT, runSkippedEvent, skipToRecord, standingSkips, type RunSkip } from "./operator/skipped.js";
export { handoffOf, handoffMarkdown, type Handoff } from "./operator/handoff.js";
export {
  bundleRun,
  readBundle,
  importBundle,
  importedRunRefusal,
  BundleError,
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type RunBundle,
} from "./operator/run-bundle.js";
export { ImportConflictError, type RunRows } from "./store/run-rows.js";
export { collectGarbage, type GcOptions, type GcOutcome } from "./operator/gc.js";
export {
  planCollection,
  collectionsOf,
  describeCollections,
  keepsPayload,
  COLLECTED_EVENT,
  type GcInput,
  type GcPlan,
  type CollectionSummary,
} from "./operator/gc-plan.js";
export * as operator from "./operator/actions.js";
export { detectStalls, type StallSignal } from "./scheduler/stall.js";
export * as drill from "./drill/index.js";
export { connectServer, McpConfigError, type ConnectOptions } from "./mcp/connect.js";
export { describeServer, lockServers, lockedTool } from "./mcp/lock.js";
export { mcpAdapters, resultMismatch, MAX_MCP_RESULT_BYTES, type McpAdapters, type McpAdapterOptions } from "./mcp/adapters.js";
export { joinBoundTools, type BoundTools } from "./mcp/bound-tools.js";
