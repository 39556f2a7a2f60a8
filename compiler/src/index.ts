export * from "./diagnostics/types.js";
export * from "./plan/schema.js";
export * from "./parse/index.js";
export { LineIndex, offsetToPosition, positionToOffset } from "./source/line-index.js";
export { makeDiagnostic, DiagnosticSink, sortDiagnostics, type FixSpec, type DiagnosticExtras } from "./source/diagnostic.js";
export { scalarOffsetMapper } from "./source/scalar-offsets.js";
export * from "./impact/index.js";
export * from "./graph/index.js";
export * from "./expr/index.js";
