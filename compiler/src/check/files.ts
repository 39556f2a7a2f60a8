/**
 * C013: a file the contract names must exist (and C014 when a symlink takes it
 * out of the contract's folder). Today that is a schema
 * verifier's `schema:` path, which the runtime reads when it verifies (relative
 * to the contract's folder); a typo there would otherwise pass every check and
 * fail only when the unit has already run. The compiler stays pure: whether a
 * path exists is asked of a probe the caller passes in.
 */
import type { CheckContext } from "./context.js";
import { escapeMessage, pathEscape } from "./file-paths.js";
import type { PlanView } from "./plan-view.js";

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

/** C014 or C013 for a schema verifier's file, asked of the probe (a path that escapes as written is C014 of file-paths.ts). */
export function schemaFileProblem(
  verifier: string,
  path: string,
  files: FileProbe,
): { code: "C013" | "C014"; message: string } | undefined {
  // a path outside the contract's folder is C014 (file-paths.ts) and is never probed
  if (path.trim() === "" || pathEscape(path)) return undefined;
  if (files.escapes?.(path))
    return {
      code: "C014",
      message: `verifier '${verifier}' names schema file '${path}', which resolves outside the contract's folder through a symlink; put the schema itself in the contract's folder or below it`,
    };
  if (files.exists(path)) return undefined;
  return {
    code: "C013",
    message: `schema file '${path}' of verifier '${verifier}' does not exist (paths are relative to the contract's folder)`,
  };
}

export function checkFileReferences(ctx: CheckContext, files: FileProbe): void {
  for (const [name, verifier] of Object.entries(ctx.contract.verifiers ?? {})) {
    if (verifier.kind !== "schema" || typeof verifier.schema !== "string") continue;
    const problem = schemaFileProblem(name, verifier.schema, files);
    if (problem) ctx.sink.report(problem.code, ctx.valueSpan(["verifiers", name, "schema"]), problem.message);
  }
}

/**
 * C014, and with a probe C013, on a plan: its schema verifiers' files, as
 * the runtime resolves them (beside the contract it ran, here the plan file).
 */
export function planFiles(view: PlanView): void {
  view.plan.verifiers.forEach((v, i) => {
    if (v.schema === undefined) return;
    const path = `/verifiers/${i}/schema`;
    const why = pathEscape(v.schema);
    if (why) view.report("C014", path, escapeMessage(v.name, v.schema, why));
    const problem = view.files && schemaFileProblem(v.name, v.schema, view.files);
    if (problem) view.report(problem.code, path, problem.message);
  });
}
