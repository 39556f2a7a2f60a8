/**
 * The decisions the console's buttons make, as a table: each has a preview
 * (what it would reuse, invalidate, what runs next) with its basis, and a
 * decision that is refused unless the run is still as that preview showed.
 * Both call the runtime's operator functions, the same ones the CLI's
 * commands call; nothing here writes the store itself.
 */
import { NotFoundError, operator, type Store } from "@taskspec/runtime";

type Preview = operator.Preview;
export type Acting = { by: string; operatorKey?: string };
export type Args = Record<string, unknown>;
export interface Made {
  preview: Preview;
  basis: string;
}

interface Decision {
  /** What the person must give, checked before the store is read. */
  args(a: Args): Args;
  preview(store: Store, run: string, a: Args, now: string): Promise<Made>;
  decide(store: Store, run: string, a: Args, acting: Acting, now: string, expected: operator.Expectation): Promise<unknown>;
}

export class BadDecision extends Error {}

const text = (a: Args, key: string, required: boolean): string | undefined => {
  const v = a[key];
  if (v === undefined || v === "") {
    if (required) throw new BadDecision(`"${key}" is required`);
    return undefined;
  }
  if (typeof v !== "string" || v.length > 2000) throw new BadDecision(`"${key}" must be text of at most 2000 characters`);
  return v;
};

async function versionOf(store: Store, run: string): Promise<number> {
  const r = await store.getRun(run);
  if (!r) throw new NotFoundError(`no run ${run} in this store`);
  return r.version;
}

const withBasis = async (store: Store, run: string, preview: Preview): Promise<Made> => ({
  preview,
  basis: operator.basisOf(preview, await versionOf(store, run)),
});

export const DECISIONS: Readonly<Record<string, Decision>> = {
  flag: {
    args: (a) => ({ reason: text(a, "reason", true) }),
    preview: (store, run, a, now) => operator.previewFlag(store, run, String(a.reason), now),
    decide: (store, run, a, acting, now, expected) => operator.flag(store, run, String(a.reason), acting, now, expected),
  },
  unflag: {
    args: (a) => ({ reason: text(a, "reason", false) }),
    preview: (store, run, _a, now) => operator.previewUnflag(store, run, now),
    decide: (store, run, a, acting, now, expected) =>
      operator.unflag(store, run, acting, now, a.reason === undefined ? undefined : String(a.reason), expected),
  },
  rerun: {
    args: (a) => ({ unit: text(a, "unit", true), reason: text(a, "reason", false) }),
    preview: async (store, run, a) => withBasis(store, run, (await operator.previewRerun(store, run, String(a.unit))).preview),
    decide: (store, run, a, acting, now, expected) =>
      operator.rerun(store, run, String(a.unit), acting, now, a.reason === undefined ? undefined : String(a.reason), expected),
  },
  budget: {
    args: (a) => {
      const caps = text(a, "caps", true)!;
      try {
        operator.parseCaps(caps.split(/[\s,]+/).filter(Boolean));
      } catch (err) {
        throw new BadDecision((err as Error).message);
      }
      return { caps, reason: text(a, "reason", true) };
    },
    preview: async (store, run, a) => withBasis(store, run, await operator.previewBudget(store, run, capsOf(a))),
    decide: (store, run, a, acting, now, expected) => operator.setBudget(store, run, capsOf(a), acting, String(a.reason), now, expected),
  },
};

const capsOf = (a: Args) =>
  operator.parseCaps(
    String(a.caps)
      .split(/[\s,]+/)
      .filter(Boolean),
  );

/** The decision named `action` and its checked arguments, or a BadDecision saying what is wrong. */
export function decisionOf(action: unknown, args: unknown): { decision: Decision; args: Args } {
  if (typeof action !== "string" || !Object.hasOwn(DECISIONS, action))
    throw new BadDecision(`"action" must be one of ${Object.keys(DECISIONS).join(", ")}`);
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args)))
    throw new BadDecision(`"args" must be an object`);
  const decision = DECISIONS[action]!;
  return { decision, args: decision.args((args ?? {}) as Args) };
}
