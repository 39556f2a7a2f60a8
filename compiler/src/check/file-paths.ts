/**
 * C014: a file the contract names (a `schema:` verifier's JSON Schema) lies in
 * the contract's folder or below it. An absolute path, or one whose `..`
 * segments climb out of the folder, would let a contract read any file the
 * runtime can (`../secret-file.txt`) and put its first characters in a stored
 * failure. The runtime refuses the same paths, and symlinks out of the
 * folder, when it loads the file.
 */
import type { CheckContext } from "./context.js";

/** Why `path` is not inside the contract's folder, or undefined when it is. */
export function pathEscape(path: string): string | undefined {
  if (/^([/\\]|[A-Za-z]:)/.test(path)) return "an absolute path";
  let depth = 0;
  for (const segment of path.split(/[/\\]/)) {
    if (segment === "..") depth--;
    else if (segment !== "." && segment !== "") depth++;
    if (depth < 0) return "its `..` climbs above it";
  }
  return depth === 0 ? "it names the folder itself, not a file" : undefined;
}

export function escapeMessage(verifier: string, path: string, why: string): string {
  return `verifier '${verifier}' names schema file '${path}' outside the contract's folder (${why}); put the schema in the contract's folder or below it and name it relative to the contract`;
}

export function checkFilePaths(ctx: CheckContext): void {
  for (const [name, v] of Object.entries(ctx.contract.verifiers ?? {})) {
    if (v.kind !== "schema" || typeof v.schema !== "string") continue;
    const why = pathEscape(v.schema);
    if (why) ctx.sink.report("C014", ctx.valueSpan(["verifiers", name, "schema"]), escapeMessage(name, v.schema, why));
  }
}
