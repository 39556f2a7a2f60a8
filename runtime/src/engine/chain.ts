/**
 * Parent-chain verification on resume: versions 0..n with no gap, each
 * checkpoint's parent is the one before, and each digest covers its parent's
 * digest and its own content. A torn or edited history stops the resume.
 */
import { RuntimeError } from "../errors.js";
import type { CheckpointHeader } from "../model/facts.js";
import { canonicalJson, sha256 } from "../model/identity.js";

export class BrokenChainError extends RuntimeError {
  override readonly name = "BrokenChainError";
}

export async function verifyChain(headers: readonly CheckpointHeader[]): Promise<void> {
  let parentDigest = "";
  for (const [i, h] of headers.entries()) {
    if (h.version !== i) throw new BrokenChainError(`checkpoint chain of run ${h.run} has a gap: expected version ${i}, found ${h.version}`);
    if (h.parent !== (i === 0 ? null : i - 1)) throw new BrokenChainError(`checkpoint ${h.version} of run ${h.run} names parent ${h.parent}`);
    const { digest, ...body } = h;
    if (sha256(parentDigest + canonicalJson(body)) !== digest) throw new BrokenChainError(`checkpoint ${h.version} of run ${h.run} does not match its digest (edited or torn)`);
    parentDigest = digest;
  }
}
