/**
 * The verifier module of specs/market-entry-pack.task.yaml (`--verifiers`):
 * its one code verifier, `tone_ok` (kind model). It stands in for a model's
 * judgement of tone, deterministically: the framed text uses the audience's
 * framing. The contract's rule and schema verifiers are not here: they decide
 * exactly as the contract declares them.
 */
import type { VerifierContext, VerifierModule } from "@taskspec/runtime";
import { AUDIENCES } from "../handlers/market-evidence.js";

async function toneOk(ctx: VerifierContext) {
  const result = ctx.result as { audience?: string; artifact?: string } | undefined;
  const framing = result?.audience ? AUDIENCES[result.audience] : undefined;
  if (!framing || !result?.artifact) return { passed: false, reason: "the result names no known audience or artifact" };
  const text = new TextDecoder().decode(await ctx.read(result.artifact));
  return text.includes(`for the ${result.audience}`)
    ? { passed: true }
    : { passed: false, reason: `${result.artifact} is not framed for the ${result.audience}` };
}

const verifiers: VerifierModule = { verifiers: { tone_ok: toneOk } };

export default verifiers;
