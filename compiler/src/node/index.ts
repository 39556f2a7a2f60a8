/** Node-only helpers of the compiler package (file reading and contract search), apart from the pure compiler. */
export { decodeContractBytes, MAX_CONTRACT_BYTES, readContractText, readContractTextSync, type ReadOutcome } from "./read-contract.js";
export { classifyEntry, CONTRACT_SUFFIX, findContracts, findContractsSync, type WalkProblem } from "./find-contracts.js";
export { filesBeside } from "./contract-files.js";
