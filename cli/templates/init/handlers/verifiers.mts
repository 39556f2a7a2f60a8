// The verifier module (`--verifiers dist/handlers/verifiers.mjs`): the
// verifiers the contract declares as `kind: model` or `kind: human`. A real
// one would ask a model or a person; this one checks the note itself, so the
// scaffold runs without either. It is loaded by the worker, apart from the
// handlers: a unit's handler never judges its own work, and the contract's
// `rule` verifiers decide exactly as declared.
import type { VerifierModule } from "@taskspec/runtime";

const verifiers: VerifierModule = {
  verifiers: {
    reads_well: (ctx) => {
      const text = (ctx.result as { text?: unknown }).text;
      const passed = typeof text === "string" && /^Hello, \S/.test(text);
      return passed ? { passed } : { passed, reason: "the note does not greet anyone by name" };
    },
  },
};

export default verifiers;
