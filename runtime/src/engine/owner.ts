/**
 * Who holds a lease: a worker's identity, unique per process start
 * (`host:pid:nonce:space`: the nonce is random, so neither a reused pid nor
 * a hostname that two containers share makes two workers one), and whether
 * the process behind one is known to be gone, so its leases can be broken
 * at once instead of waiting out their expiry.
 *
 * A pid means a process only in the pid namespace of one kernel boot (the
 * `space`: boot id and pid namespace, hashed). Any other owner, on another
 * host, in another container, or written before the space was part of the
 * identity, is never judged by pid: it is dead only when its lease expires
 * by the store's clock.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

let space: string | undefined;

/** This process's pid space: the same for two processes exactly when a pid of one names a process the other can signal. */
export function pidSpace(): string {
  space ??= createHash("sha256").update(pidSpaceSource()).digest("hex").slice(0, 12);
  return space;
}

function pidSpaceSource(): string {
  try {
    return `${readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()} ${readlinkSync("/proc/self/ns/pid")}`;
  } catch {
    // no /proc (macOS): no pid namespaces either; the host is the space
    return `host ${hostname()}`;
  }
}

export function newOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(8).toString("hex")}:${pidSpace()}`;
}

/** A lease held by a gone process of this pid space (or by an earlier worker of this very process). */
export function ownerIsDead(owner: string, self: string): boolean {
  const parts = owner.split(":");
  if (parts.length !== 4 || owner === self || parts[3] !== pidSpace()) return false;
  const pid = Number(parts[1]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
