/**
 * Marking a run as needing expert handling, and clearing the mark. The flag
 * is a run-level hold (`needs-expert`): the scheduler starts nothing while a
 * run holds, and the claim itself refuses a new attempt of a flagged run, so
 * a worker that decided before the flag cannot start one after it. Attempts
 * already in flight finish and commit. Both decisions preview first, record a
 * `decision` event in the same write as the hold, and are checked against the
 * preview the person confirmed (basis.ts).
 */
import { InvalidTransitionError, NotFoundError } from "../errors.js";
import type { Hold, RunRow } from "../model/facts.js";
import type { Store } from "../store/types.js";
import { actorOf, type Acting } from "./authority.js";
import { basisOf, checkBasis, type PreviewBasis } from "./basis.js";
import { decisionEvent, type Preview } from "./preview.js";

/** What a decision is checked against: the basis its preview printed, and that preview when the caller kept it. */
export type Expectation = { basis: PreviewBasis; seen?: Preview } | undefined;

/** Holds a flag replaces: a cancel under way or a failed compensation is finished first, never hidden. */
const KEEPS: ReadonlyArray<Hold["reason"]> = ["cancelling", "compensation-failed"];

async function runOf(store: Store, run: string): Promise<RunRow> {
  const r = await store.getRun(run);
  if (!r) throw new NotFoundError(`no run ${run} in this store`);
  return r;
}

async function inFlight(store: Store, run: string, now: string): Promise<string[]> {
  const facts = await store.loadFacts(run);
  return facts.leases.filter((l) => l.expiresAt > now).map((l) => `${l.unit} (${l.owner}, attempt ${l.attempt})`);
}

async function succeededUnits(store: Store, run: string): Promise<string[]> {
  return (await store.loadFacts(run)).units.filter((u) => u.state === "succeeded").map((u) => u.unit);
}

export async function previewFlag(
  store: Store,
  run: string,
  reason: string,
  now: string,
): Promise<{ preview: Preview; basis: PreviewBasis }> {
  const r = await runOf(store, run);
  if (r.status !== "active")
    throw new InvalidTransitionError(`run ${run} is ${r.status}: there is nothing left to stop; nothing was flagged`);
  if (r.hold?.reason === "needs-expert")
    throw new InvalidTransitionError(`run ${run} is already flagged as needing expert handling (${r.hold.detail}); nothing was changed`);
  if (r.hold && KEEPS.includes(r.hold.reason))
    throw new InvalidTransitionError(
      `run ${run} is held by ${r.hold.reason} (${r.hold.detail}); finish that first (\`taskspec cancel ${run}\`); nothing was flagged`,
    );
  const running = await inFlight(store, run, now);
  const notes = [
    `stops every worker from starting an attempt of run ${run} until \`taskspec unflag ${run}\``,
    `reason: ${reason}`,
    running.length ? `attempts in flight finish and commit: ${running.join(", ")}` : "no attempt is in flight",
    ...(r.hold ? [`replaces the run's ${r.hold.reason} hold (${r.hold.detail}); after unflag the scheduler judges it afresh`] : []),
  ];
  const preview: Preview = { action: "flag as needing expert handling", reuse: await succeededUnits(store, run), invalidate: [], notes };
  return { preview, basis: basisOf(preview, r.version) };
}

/** Flags the run; needs an operator key when the store has operator identities. */
export async function flag(
  store: Store,
  run: string,
  reason: string,
  acting: Acting,
  now: string,
  expected?: Expectation,
): Promise<{ preview: Preview; basis: PreviewBasis }> {
  if (!reason.trim()) throw new InvalidTransitionError(`flag ${run} needs a reason (--reason "..."): what the expert must look at`);
  const actor = await actorOf(store, acting, `flag ${run}`);
  const made = await previewFlag(store, run, reason, now);
  const r = await runOf(store, run);
  checkBasis(`flag ${run}`, expected, made.preview, r.version);
  await store.setRunHold(
    run,
    { reason: "needs-expert", detail: `flagged by ${actor.by}: ${reason}`, at: now, data: { by: actor.by, via: actor.via, reason } },
    decisionEvent(now, "flag", actor, { reason, ...(r.hold ? { replaced: r.hold.reason } : {}) }),
  );
  return made;
}

export async function previewUnflag(store: Store, run: string, now: string): Promise<{ preview: Preview; basis: PreviewBasis }> {
  const r = await runOf(store, run);
  if (r.hold?.reason !== "needs-expert") throw new InvalidTransitionError(`run ${run} is not flagged; nothing was changed`);
  const ready =
    r.status === "active" ? `workers may claim its units again (\`taskspec resume ${run}\` or a running \`taskspec worker\`)` : "";
  const preview: Preview = {
    action: "clear the needs-expert flag",
    reuse: await succeededUnits(store, run),
    invalidate: [],
    notes: [
      `clears: ${r.hold.detail} (since ${r.hold.at})`,
      ...(ready ? [ready] : []),
      ...(await inFlight(store, run, now)).map((u) => `in flight: ${u}`),
    ],
  };
  return { preview, basis: basisOf(preview, r.version) };
}

/** Clears the flag; needs an operator key when the store has operator identities. */
export async function unflag(
  store: Store,
  run: string,
  acting: Acting,
  now: string,
  reason?: string,
  expected?: Expectation,
): Promise<{ preview: Preview; basis: PreviewBasis }> {
  const actor = await actorOf(store, acting, `unflag ${run}`);
  const made = await previewUnflag(store, run, now);
  const r = await runOf(store, run);
  checkBasis(`unflag ${run}`, expected, made.preview, r.version);
  await store.setRunHold(run, null, decisionEvent(now, "unflag", actor, { ...(reason ? { reason } : {}), flagged: r.hold?.detail }));
  return made;
}
