export { impact, invalidatedBy } from "./propagate.js";
export { edgeArrow, pathNodesOf, ruleArrow } from "./explain.js";
export { diffPlans, impactOfEdit, type PlanDiff, type EditImpact } from "./diff.js";
export { unitKeyChanges, type UnitKeyChanges } from "./unit-keys.js";
export { parseChange, formatChange, type ParsedChange } from "./parse-change.js";
export { UnmatchedCodes } from "./types.js";
export type { Change, ChangeInput, CauseTree, ImpactReport, InvalidatedUnit, Unmatched, UnmatchedCode } from "./types.js";
export { formatImpact, formatEditImpact } from "./text.js";
export { causeJson } from "./cause-json.js";
