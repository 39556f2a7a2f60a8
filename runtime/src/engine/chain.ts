/**
 * Parent-chain verification on resume: versions 0..n with no gap, each
 * checkpoint's parent is the one before, and each digest covers its parent's
 * digest and its own stored content. A torn or edited history stops the resume.
 */
import { RuntimeError } from "../errors.js";
import { checkpointDigest, type ChainLink } from "../model/checkpoint-digest.js";

export class BrokenChainError extends RuntimeError {
  override readonly name = "BrokenChainError";
}

export function verifyChain(links: readonly ChainLink[]): void {
  let parentDigest = "";
  for (const [i, { material: m, digest }] of links.entries()) {
    if (m.version !== i)
      throw new BrokenChainError(`checkpoint chain of run ${m.run} has a gap: expected version ${i}, found ${m.version}`);
    if (m.parent !== (i === 0 ? null : i - 1))
      throw new BrokenChainError(`checkpoint ${m.version} of run ${m.run} names parent ${m.parent}`);
    if (checkpointDigest(parentDigest, m) !== digest)
      throw new BrokenChainError(`checkpoint ${m.version} of run ${m.run} does not match its digest (edited or torn)`);
    parentDigest = digest;
  }
}
