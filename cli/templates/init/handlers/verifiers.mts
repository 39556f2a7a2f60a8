// Verifiers the contract declares as `kind: model` or `kind: human` are
// implemented here: a real one would ask a model or a person. This one checks
// the note itself, so the scaffold runs without either.
import type { VerifierHandler } from "@taskspec/runtime";

export const verifiers: Record<string, VerifierHandler> = {
  reads_well: (ctx) => {
    const text = (ctx.result as { text?: unknown }).text;
    const passed = typeof text === "string" && /^Hello, \S/.test(text);
    return passed ? { passed } : { passed, reason: "the note does not greet anyone by name" };
  },
};
