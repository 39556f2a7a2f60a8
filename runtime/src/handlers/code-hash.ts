/**
 * Handler code as data: a sha256 of each unit handler's source text and of
 * each tool adapter's (its functions' source, by name). A unit's record keeps
 * the digests of the code it ran with (its handler and every adapter its work
 * or recovery calls), so a later edit of that code is seen by `resume` and
 * `status`, and re-running is a decision (`rerun`), or automatic for a unit
 * that declares `on_code_change: rerun`.
 *
 * The digest covers the function's own text (what `Function.prototype.
 * toString` gives), not helpers it calls from elsewhere in the module: an
 * edit only inside such a helper is not seen (docs/runtime.md says so).
 */
import type { Plan, PlanUnit } from "@taskspec/compiler";
import type { HandlerModule } from "../handler-api.js";
import type { SourceDigests, UnitRecord } from "../model/facts.js";
import { ownEntry } from "../model/own.js";
import { adapterDigest, unitDigest, type CodeDigests } from "./digest.js";

export { digestsOf, type CodeDigests } from "./digest.js";

/** The key of a record's `sources` that holds the code digests (no need is named so: ids have no ':'). */
export const CODE_SOURCE = "code:handler";

const NO_UNIT = unitDigest(undefined);
const NO_ADAPTER = adapterDigest(undefined);

/** The tools whose adapters a unit's work or recovery calls: its uses plus their lookups and compensators. */
export function adaptersBehind(plan: Plan, unit: PlanUnit): string[] {
  const names = new Set(unit.uses);
  for (const name of unit.uses) {
    const tool = plan.tools.find((t) => t.name === name);
    if (tool?.lookup) names.add(tool.lookup);
    if (tool?.compensate) names.add(tool.compensate.tool);
  }
  return [...names].sort();
}

/**
 * `units.<id>` and `tools.<name>` digests of the code a unit runs with, as a
 * record's sources entry. Adapter digests are computed once per module.
 * `digests`, when given, are used instead of the module's own functions: the
 * handler module was not imported in this process (its probe reported them,
 * isolation/probe.ts) and the tools came from a tools module.
 */
export function codeDigester(
  plan: Plan,
  handlers: HandlerModule,
  digests?: CodeDigests,
): (unit: PlanUnit) => Array<{ name: string; sha256: string }> {
  const adapters = new Map<string, string>();
  const adapterSha = (tool: string) =>
    digests
      ? (ownEntry(digests.tools, tool) ?? NO_ADAPTER)
      : (adapters.get(tool) ?? adapters.set(tool, adapterDigest(ownEntry(handlers.tools, tool))).get(tool)!);
  return (unit) => {
    const out = [
      {
        name: `units.${unit.id}`,
        sha256: digests ? (ownEntry(digests.units, unit.id) ?? NO_UNIT) : unitDigest(ownEntry(handlers.units, unit.id)),
      },
    ];
    for (const tool of adaptersBehind(plan, unit)) out.push({ name: `tools.${tool}`, sha256: adapterSha(tool) });
    return out;
  };
}

export interface CodeChange {
  unit: string;
  attempt: number;
  /** `units.<id>` / `tools.<name>` whose code differs from what the committed result ran with. */
  changed: string[];
}

/**
 * Current records whose code digests differ from the code loaded now. A
 * record without digests (made before they were recorded) is not reported:
 * nothing is known about its code.
 */
export function codeChanges(plan: Plan, records: readonly UnitRecord[], handlers: HandlerModule, code?: CodeDigests): CodeChange[] {
  const digests = codeDigester(plan, handlers, code);
  const units = new Map(plan.units.map((u) => [u.id, u]));
  const out: CodeChange[] = [];
  for (const rec of records) {
    const ran = (rec.sources as SourceDigests)[CODE_SOURCE];
    const unit = units.get(rec.unit);
    if (rec.status !== "current" || !ran || !unit) continue;
    const now = new Map(digests(unit).map((d) => [d.name, d.sha256]));
    const was = new Map(ran.map((d) => [d.name, d.sha256]));
    const changed = [...new Set([...was.keys(), ...now.keys()])].filter((name) => was.get(name) !== now.get(name)).sort();
    if (changed.length > 0) out.push({ unit: rec.unit, attempt: rec.attempt, changed });
  }
  return out.sort((a, b) => (a.unit < b.unit ? -1 : 1));
}
