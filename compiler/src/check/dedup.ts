/**
 * C033: a `dedup` tool needs a business `key` (stored with the remote id) and
 * a `lookup` (to resolve UNKNOWN by key instead of calling again blindly).
 */
import type { CheckContext } from "./context.js";
import { insertFirstKey } from "./fixes.js";

export function checkDedup(ctx: CheckContext): void {
  for (const [name, tool] of Object.entries(ctx.contract.tools ?? {})) {
    if (tool.class !== "dedup") continue;
    const decl = ctx.parsed.model.tools.get(name);
    const entries: [string, string][] = [];
    if (!tool.key) entries.push(["key", `"\${task.id}:\${unit.id}"`]);
    if (!tool.lookup) entries.push(["lookup", `find_${name}`]);
    if (entries.length === 0) continue;
    const missing = entries.map(([key]) => key);
    const edit = decl?.map ? insertFirstKey(ctx.sink.lines, decl.map, ...entries) : undefined;
    const why =
      "recovery stores the key with the remote id and, when an outcome is UNKNOWN, looks the effect up by key instead of calling again";
    ctx.sink.report(
      "C033",
      decl?.keySpan ?? ctx.keySpan(["tools", name]),
      `dedup tool '${name}' has no ${missing.map((m) => `'${m}'`).join(" and no ")}: ${why}`,
      edit ? { fixes: [{ title: `Add ${missing.join(" and ")}`, edits: [edit], safe: false }] } : {},
    );
  }
}
