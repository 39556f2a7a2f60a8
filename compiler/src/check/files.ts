/**
 * C013: a file the contract names must exist (and C014 when a symlink takes it
 * out of the contract's folder). Today that is a schema
 * verifier's `schema:` path, which the runtime reads when it verifies (relative
 * to the contract's folder); a typo there would otherwise pass every check and
 * fail only when the unit has already run. The compiler stays pure: whether a
 * path exists is asked of a probe the caller passes in.
 */
import type { CheckContext } from "./context.js";
import { pathEscape } from "./file-paths.js";

/** Whether a path, as written in the contract, names an existing file (the probe resolves it). */
export interface FileProbe {
  exists(path: string): boolean;
  /**
   * Whether the path, its symlinks resolved, lies outside the contract's
   * folder. A schema linked to `../secret-file.txt` passed `check` and was
   * refused only when the unit had run; optional, for probes without a disk.
   */
  escapes?(path: string): boolean;
}

export function checkFileReferences(ctx: CheckContext, files: FileProbe): void {
  for (const [name, verifier] of Object.entries(ctx.contract.verifiers ?? {})) {
    if (verifier.kind !== "schema" || typeof verifier.schema !== "string" || verifier.schema.trim() === "") continue;
    // a path outside the contract's folder is C014 (file-paths.ts) and is never probed
    if (pathEscape(verifier.schema)) continue;
    if (files.escapes?.(verifier.schema)) {
      ctx.sink.report(
        "C014",
        ctx.valueSpan(["verifiers", name, "schema"]),
        `verifier '${name}' names schema file '${verifier.schema}', which resolves outside the contract's folder through a symlink; put the schema itself in the contract's folder or below it`,
      );
      continue;
    }
    if (files.exists(verifier.schema)) continue;
    ctx.sink.report(
      "C013",
      ctx.valueSpan(["verifiers", name, "schema"]),
      `schema file '${verifier.schema}' of verifier '${name}' does not exist (paths are relative to the contract's folder)`,
    );
  }
}
