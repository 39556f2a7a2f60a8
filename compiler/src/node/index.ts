/** Node-only helpers of the compiler package (file reading and contract search), apart from the pure compiler. */
export { decodeContractBytes, MAX_CONTRACT_BYTES, readContractText, readContractTextSync, type ReadOutcome } from "./read-contract.js";
export { classifyEntry, expandGlobSync, findContracts, findContractsSync, isContractPath, type WalkProblem } from "./find-contracts.js";
export { CONFIG_FILE, createConfigLookup, type ConfigLookup, type PolicyLookup } from "./config.js";
export { filesBeside } from "./contract-files.js";
export { mcpLockBeside, mcpLockPath } from "./mcp-lock-file.js";
