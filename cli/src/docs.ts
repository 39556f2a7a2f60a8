/**
 * The diagnostics docs the CLI ships: docs/diagnostics.md two levels above
 * this module, which is the repository's docs/ from cli/dist/ in a checkout
 * and cli/docs/ (copied by prepack) from cli/dist/bundle/ once installed.
 * TASKSPEC_DOCS_URL overrides the base of the links (not what explain reads).
 */
import { fileURLToPath, pathToFileURL } from "node:url";

export function docsFile(): string {
  return fileURLToPath(new URL("../../docs/diagnostics.md", import.meta.url));
}

/** The base every docs link printed by the CLI (and its language server) starts with. */
export function docsBase(): string {
  return process.env.TASKSPEC_DOCS_URL || pathToFileURL(docsFile()).href;
}

/** Makes docsUrl() of the compiler, wherever it is called in this process, use the CLI's base. */
export function useCliDocs(): void {
  process.env.TASKSPEC_DOCS_URL = docsBase();
}
