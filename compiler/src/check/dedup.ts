/**
 * C033: a `dedup` tool needs a business `key` (stored with the remote id) and
 * a `lookup` (to resolve UNKNOWN by key instead of calling again blindly).
 */
import type { CheckContext } from "./context.js";
import { insertFirstKey } from "./fixes.js";
import type { PlanView } from "./plan-view.js";

/** What a tool of class `dedup` lacks of the key and the lookup recovery needs (empty for any other tool). */
export function dedupMissing(tool: { class: string; key?: unknown; lookup?: unknown }): ("key" | "lookup")[] {
  if (tool.class !== "dedup") return [];
  const missing: ("key" | "lookup")[] = [];
  if (!tool.key) missing.push("key");
  if (!tool.lookup) missing.push("lookup");
  return missing;
}

export function dedupMessage(name: string, missing: readonly string[]): string {
  const why =
    "recovery stores the key with the remote id and, when an outcome is UNKNOWN, looks the effect up by key instead of calling again";
  return `dedup tool '${name}' has no ${missing.map((m) => `'${m}'`).join(" and no ")}: ${why}`;
}

export function checkDedup(ctx: CheckContext): void {
  for (const [name, tool] of Object.entries(ctx.contract.tools ?? {})) {
    const missing = dedupMissing(tool);
    if (missing.length === 0) continue;
    const decl = ctx.parsed.model.tools.get(name);
    const entries = missing.map((m): [string, string] => (m === "key" ? ["key", `"\${task.id}:\${unit.id}"`] : ["lookup", `find_${name}`]));
    const edit = decl?.map ? insertFirstKey(ctx.sink.lines, decl.map, ...entries) : undefined;
    ctx.sink.report(
      "C033",
      decl?.keySpan ?? ctx.keySpan(["tools", name]),
      dedupMessage(name, missing),
      edit ? { fixes: [{ title: `Add ${missing.join(" and ")}`, edits: [edit], safe: false }] } : {},
    );
  }
}

/** C033 on a plan. */
export function planDedup(view: PlanView): void {
  view.plan.tools.forEach((tool, i) => {
    const missing = dedupMissing(tool);
    if (missing.length > 0) view.report("C033", `/tools/${i}/${missing[0]}`, dedupMessage(tool.name, missing));
  });
}
