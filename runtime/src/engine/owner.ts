/**
 * Who holds a lease: a worker's identity, unique per process start
 * (`host:pid:nonce:space`: the nonce is random, so neither a reused pid nor
 * a hostname that two containers share makes two workers one), and whether
 * the process behind one is known to be gone, so its leases can be broken
 * at once instead of waiting out their expiry (the rule: engine/owner-verdict.ts).
 *
 * A process is one worker in the store's workers table
 * (engine/worker-heartbeat.ts), its id `host:pid:nonce:space`; each engine it
 * runs holds leases as `host:pid:nonce.N:space`, so a lease names both the
 * engine (two engines of one process never take each other's leases for
 * their own) and the process's worker row (whose heartbeat says if it lives).
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
import { judgeOwner, type OwnerVerdict, type WorkerBeat } from "./owner-verdict.js";

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

const processNonce = randomBytes(8).toString("hex");
let engines = 0;

/** This process's id in the store's workers table. */
export function processWorkerId(): string {
  return `${hostname()}:${process.pid}:${processNonce}:${pidSpace()}`;
}

/** A new lease owner for one engine of this process. */
export function newOwner(): string {
  return `${hostname()}:${process.pid}:${processNonce}.${++engines}:${pidSpace()}`;
}

/** The worker (process) id of a lease owner; an owner written before workers registered is its own id. */
export function workerIdOf(owner: string): string {
  const parts = owner.split(":");
  if (parts.length !== 4) return owner;
  parts[2] = parts[2]!.split(".")[0]!;
  return parts.join(":");
}

/** What an asker knows of the workers: its last snapshot of their heartbeats (engine/worker-heartbeat.ts). */
export interface Liveness {
  /** Store time of the snapshot, and since when the asker's own beats have come without a gap. */
  at: string;
  beatingSince: string;
  workers: ReadonlyMap<string, WorkerBeat>;
  staleMs: number;
}

/**
 * A lease whose owner is gone: a process of this pid space that is gone (or
 * an earlier engine of this very process), or a worker whose heartbeat
 * stopped or who stopped (judged with `liveness` at the store time `now`).
 */
export function ownerIsDead(owner: string, self: string, liveness?: Liveness, now?: string): boolean {
  return ownerVerdict(owner, self, liveness, now).dead;
}

export function ownerVerdict(owner: string, self: string, liveness?: Liveness, now?: string): OwnerVerdict {
  const parts = owner.split(":");
  const pid = Number(parts[1]);
  const sameSpace = parts.length === 4 && parts[3] === pidSpace() && Number.isInteger(pid) && pid > 0;
  const samePid = sameSpace && pid === process.pid;
  const worker = liveness?.workers.get(workerIdOf(owner));
  return judgeOwner({
    self: owner === self,
    sameSpace,
    samePid,
    ...(sameSpace && !samePid && owner !== self ? { pid: probe(pid) } : {}),
    ...(worker ? { worker } : {}),
    ...(liveness && now ? { snapshot: { at: liveness.at, beatingSince: liveness.beatingSince, now } } : {}),
    staleMs: liveness?.staleMs ?? 0,
  });
}

function probe(pid: number): "alive" | "gone" {
  try {
    process.kill(pid, 0);
    return "alive";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH" ? "gone" : "alive";
  }
}
