/**
 * C012: each artifact has exactly one producer, and every task output is
 * produced by some unit. The second producer is reported, with the first as a
 * related location.
 */
import { closest, didYouMean } from "../source/suggest.js";
import type { CheckContext } from "./context.js";
import type { PlanView } from "./plan-view.js";

/** The second producer of an artifact (C012): the same unit twice, or another unit. */
export function secondProducerMessage(artifact: string, first: string, other: string): string {
  return other === first
    ? `unit '${other}' lists artifact '${artifact}' twice in produces`
    : `artifact '${artifact}' is produced by both '${first}' and '${other}'; each artifact needs exactly one producer`;
}

export function unproducedOutputMessage(output: string): string {
  return `task output '${output}' is produced by no unit`;
}

export function checkArtifacts(ctx: CheckContext): void {
  const { model } = ctx.parsed;
  for (const artifact of model.artifacts.values()) {
    const [first, ...others] = artifact.producers;
    for (const other of others) {
      const message = secondProducerMessage(artifact.name, first!.unit, other.unit);
      if (other.unit === first!.unit) {
        ctx.sink.report("C012", other.span, message);
        continue;
      }
      ctx.sink.report("C012", other.span, message, {
        related: [{ message: `also produced by unit '${first!.unit}'`, span: first!.span }],
      });
    }
  }
  for (const site of model.references) {
    if (site.kind !== "outputs" || model.artifacts.has(site.name)) continue;
    const suggestion = closest(site.name, model.artifacts.keys(), ctx.suggestions);
    ctx.sink.report(
      "C012",
      site.span,
      `${unproducedOutputMessage(site.name)}${didYouMean(suggestion)}`,
      suggestion ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span: site.span, newText: suggestion }], safe: false }] } : {},
    );
  }
}

/** C012 on a plan. */
export function planArtifacts(view: PlanView): void {
  const producer = new Map<string, string>();
  view.plan.units.forEach((unit, i) =>
    unit.produces.forEach((artifact, j) => {
      const first = producer.get(artifact);
      if (first === undefined) producer.set(artifact, unit.id);
      else view.report("C012", `/units/${i}/produces/${j}`, secondProducerMessage(artifact, first, unit.id));
    }),
  );
  view.plan.task.outputs.forEach((output, i) => {
    if (!producer.has(output)) view.report("C012", `/task/outputs/${i}`, unproducedOutputMessage(output));
  });
}
