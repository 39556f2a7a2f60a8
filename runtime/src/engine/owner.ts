/**
 * Who holds a lease: a worker's identity (host:pid:nonce), and whether the
 * process behind one is known to be gone (same host, no such process), so
 * its leases can be broken at once instead of waiting out their expiry.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

export function newOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/** A lease held by a process of this host that no longer exists (or by an earlier worker of this very process). */
export function ownerIsDead(owner: string, self: string): boolean {
  const [host, pidText] = owner.split(":");
  if (host !== hostname() || owner === self) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
