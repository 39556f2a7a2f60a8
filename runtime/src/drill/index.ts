/** Fault drills: the machinery behind test/drills and `taskspec drill`. */
export * from "./types.js";
export { enumerateCases, unitClass, armText } from "./enumerate.js";
export {
  drive,
  seededPauseMs,
  makeSandbox,
  childArgs,
  approveGate,
  withStore,
  stepOf,
  type Sandbox,
  type DriveOptions,
  type DriveResult,
} from "./driver.js";
export { startChild, waitForFile, waitForPause, CHILD_SCRIPT, type ChildResult, type ChildHandle } from "./process.js";
export { readInvocationLog, attemptsPerUnit, observeCase, unexplained } from "./observe.js";
export { judge } from "./verdict.js";
export { finalArtifacts, artifactDifferences, personSettledUnits, type FinalArtifacts } from "./artifacts.js";
export { markdownTable, textTable, failureNotes, summaryLine, rowOf, verdictCell, COLUMNS } from "./report.js";
export {
  runDrill,
  runCase,
  repeatCase,
  combineRepeats,
  runBaseline,
  concludeCase,
  inSandbox,
  pool,
  contractName,
  defaultWorkDir,
  NO_WORLD,
  type DrillSetup,
  type Baseline,
  type RunDrillOptions,
} from "./run-drill.js";
export { loadHandlerModule, type ChildArgs, type Invocation } from "./child.js";
