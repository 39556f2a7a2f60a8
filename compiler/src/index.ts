export * from "./diagnostics/types.js";
export * from "./plan/schema.js";
