/**
 * @taskspec/lsp: the language server (`listen`, `startServer`) and its pure
 * service functions, which take an analysed document and return LSP types.
 */
export { listen, startServer, type ServerSettings } from "./server.js";
export { analyze, type Analysis } from "./service/analysis.js";
export { toLspDiagnostics } from "./service/diagnostics.js";
export { hover } from "./service/hover.js";
export { complete } from "./service/complete.js";
export { definition } from "./service/definition.js";
export { references } from "./service/references.js";
export { prepareRename, rename } from "./service/rename.js";
export { documentSymbols, workspaceSymbols } from "./service/symbols.js";
export { codeLenses, resolveCodeLens, impactOfNode, SHOW_IMPACT_COMMAND } from "./service/code-lens.js";
export { codeActions } from "./service/code-actions.js";
export { impactOfEdit, graphOf } from "./service/impact-edit.js";
export * from "./protocol.js";
