/**
 * C012: each artifact has exactly one producer, and every task output is
 * produced by some unit. The second producer is reported, with the first as a
 * related location.
 */
import { closest, didYouMean } from "../source/suggest.js";
import type { CheckContext } from "./context.js";

export function checkArtifacts(ctx: CheckContext): void {
  const { model } = ctx.parsed;
  for (const artifact of model.artifacts.values()) {
    const [first, ...others] = artifact.producers;
    for (const other of others) {
      if (other.unit === first!.unit) {
        ctx.sink.report("C012", other.span, `unit '${other.unit}' lists artifact '${artifact.name}' twice in produces`);
        continue;
      }
      ctx.sink.report(
        "C012",
        other.span,
        `artifact '${artifact.name}' is produced by both '${first!.unit}' and '${other.unit}'; each artifact needs exactly one producer`,
        { related: [{ message: `also produced by unit '${first!.unit}'`, span: first!.span }] },
      );
    }
  }
  for (const site of model.references) {
    if (site.kind !== "outputs" || model.artifacts.has(site.name)) continue;
    const suggestion = closest(site.name, model.artifacts.keys(), ctx.suggestions);
    ctx.sink.report(
      "C012",
      site.span,
      `task output '${site.name}' is produced by no unit${didYouMean(suggestion)}`,
      suggestion ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span: site.span, newText: suggestion }], safe: false }] } : {},
    );
  }
}
