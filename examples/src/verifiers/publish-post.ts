/**
 * The verifier module of specs/publish-post.task.yaml (`--verifiers`): its
 * one code verifier, `reads_well` (kind model). It stands in for a model's
 * judgement, deterministically: a title, a source list and at least three
 * linked claims. Loaded by the worker, apart from the handler module.
 */
import type { VerifierModule } from "@taskspec/runtime";

const LINK = /\]\(([^)]+)\)/g;

const verifiers: VerifierModule = {
  verifiers: {
    reads_well: async (ctx) => {
      const draft = JSON.parse(new TextDecoder().decode(await ctx.read("draft"))) as { markdown: string };
      const ok = draft.markdown.startsWith("# ") && draft.markdown.includes("## Sources") && [...draft.markdown.matchAll(LINK)].length >= 3;
      return ok ? { passed: true } : { passed: false, reason: "needs a title, a source list and at least three linked claims" };
    },
  },
};

export default verifiers;
