/**
 * The decisions the console's buttons make, as a table: each has a preview
 * (what it would reuse, invalidate, what runs next) with its basis, and a
 * decision that is refused unless the run is still as that preview showed.
 * Both call the runtime's operator functions, the same ones the CLI's
 * commands call; nothing here writes the store itself.
 */
import { spawn } from "node:child_process";
import { NotFoundError, operator, type Store } from "@taskspec/runtime";
import { cancelRun } from "../commands/cancel.js";
import { statusParts } from "../commands/status.js";

type Preview = operator.Preview;
export type Acting = { by: string; operatorKey?: string };
export type Args = Record<string, unknown>;
export interface Made {
  preview: Preview;
  basis: string;
}

/** What a decision reaches: the store, and the `--store` the console was given (for artifacts and the processes it starts). */
export interface Where {
  store: Store;
  storeFlag: string | undefined;
}

interface Decision {
  /** What the person must give, checked before the store is read. */
  args(a: Args): Args;
  preview(store: Store, run: string, a: Args, now: string, where: Where): Promise<Made>;
  decide(store: Store, run: string, a: Args, acting: Acting, now: string, expected: operator.Expectation, where: Where): Promise<unknown>;
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

const choice = <T extends string>(a: Args, key: string, options: readonly T[]): T => {
  const v = a[key];
  if (typeof v !== "string" || !(options as readonly string[]).includes(v))
    throw new BadDecision(`"${key}" must be one of ${options.join(", ")}`);
  return v as T;
};

/** Checks the basis first, then does `act`: for runtime decisions that take no expectation of their own. */
async function onBasis<T>(
  action: string,
  store: Store,
  run: string,
  expected: operator.Expectation,
  fresh: operator.Preview,
  act: () => Promise<T>,
): Promise<T> {
  operator.checkBasis(action, expected, fresh, await versionOf(store, run));
  return act();
}

const toOf = (a: Args): string[] =>
  String(a.to)
    .split(/[\s,]+/)
    .filter(Boolean);

const branchArgs = (a: Args): operator.BranchOptions => ({
  ...(a.at !== undefined ? { at: Number(a.at) } : {}),
  ...(a.as !== undefined ? { as: String(a.as) } : {}),
});

async function resumePreview(where: Where, run: string): Promise<Preview> {
  const { status: s } = await statusParts(where.store, run, where.storeFlag);
  const ready = s.units.filter((u) => u.state === "ready").map((u) => u.unit);
  return {
    action: `resume ${run}`,
    reuse: s.units.filter((u) => u.state === "succeeded").map((u) => u.unit),
    invalidate: [],
    notes: [
      ready.length ? `runs next: ${ready.join(" ")}` : "no unit is ready to run",
      `the run's next safe action: ${s.nextSafeAction}`,
      `starts \`taskspec resume ${run}\` on the console's machine, with the run's recorded contract and modules; its progress shows in the timeline`,
    ],
  };
}

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
  narrow: {
    args: (a) => ({ to: text(a, "to", true), reason: text(a, "reason", false) }),
    preview: (store, run, a, now) => operator.previewNarrow(store, run, toOf(a), now),
    decide: (store, run, a, acting, now, expected) =>
      operator.narrow(store, run, toOf(a), acting, now, a.reason === undefined ? undefined : String(a.reason), expected),
  },
  branch: {
    args: (a) => {
      const at = text(a, "at", false);
      if (at !== undefined && !/^\d{1,15}$/.test(at)) throw new BadDecision(`"at" must be an event number`);
      return { at, as: text(a, "as", false), reason: text(a, "reason", false) };
    },
    preview: (store, run, a) => operator.previewBranch(store, run, branchArgs(a)),
    decide: (store, run, a, acting, now, expected) =>
      operator.branch(store, run, branchArgs(a), acting, now, a.reason === undefined ? undefined : String(a.reason), expected),
  },
  approve: {
    args: (a) => ({ unit: text(a, "unit", true), token: text(a, "token", false), scope: text(a, "scope", false) }),
    preview: async (store, run, a) => withBasis(store, run, await operator.previewApprove(store, run, String(a.unit))),
    decide: async (store, run, a, acting, now, expected) =>
      onBasis(`approve ${run} ${String(a.unit)}`, store, run, expected, await operator.previewApprove(store, run, String(a.unit)), () =>
        operator.approve(store, {
          run,
          unit: String(a.unit),
          by: acting.by,
          expiresInMs: 24 * 3_600_000,
          now,
          ...(a.token !== undefined
            ? { token: String(a.token) }
            : acting.operatorKey !== undefined
              ? { operatorKey: acting.operatorKey }
              : {}),
          ...(a.scope !== undefined ? { scope: String(a.scope) } : {}),
        }),
      ),
  },
  resolve: {
    args: (a) => ({
      effect: text(a, "effect", true),
      outcome: choice(a, "outcome", ["committed", "absent"] as const),
      remoteId: text(a, "remoteId", false),
    }),
    preview: async (store, run, a) =>
      withBasis(store, run, await operator.previewResolve(store, run, String(a.effect), a.outcome as "committed" | "absent")),
    decide: (store, run, a, acting, now, expected) =>
      operator.resolveEffect(
        store,
        run,
        String(a.effect),
        a.outcome as "committed" | "absent",
        acting,
        now,
        a.remoteId === undefined ? undefined : String(a.remoteId),
        expected,
      ),
  },
  cancel: {
    args: (a) => ({ reason: text(a, "reason", false) }),
    preview: async (store, run) => withBasis(store, run, await operator.previewCancel(store, run)),
    decide: async (store, run, a, acting, _now, expected) =>
      onBasis(`cancel ${run}`, store, run, expected, await operator.previewCancel(store, run), async () => {
        const { report } = await cancelRun(store, run, acting, a.reason === undefined ? "cancelled by an operator" : String(a.reason), {});
        return report;
      }),
  },
  resume: {
    args: () => ({}),
    preview: async (store, run, _a, _now, where) => withBasis(store, run, await resumePreview(where, run)),
    decide: async (store, run, _a, _acting, _now, expected, where) =>
      onBasis(`resume ${run}`, store, run, expected, await resumePreview(where, run), async () => {
        // as on the command line, driving a run is not a decision: the resume records its own events (claims, commits)
        return { started: `taskspec resume ${run}`, pid: startResume(run, where.storeFlag) };
      }),
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

/** `taskspec resume <run>` as a process of its own, the command the CLI runs, left to finish after the request. */
function startResume(run: string, storeFlag: string | undefined): number {
  const cli = process.argv[1];
  if (!cli) throw new Error("cannot find the taskspec command this console runs as");
  const child = spawn(process.execPath, [cli, "resume", run, ...(storeFlag ? ["--store", storeFlag] : [])], {
    detached: true,
    stdio: "ignore",
  });
  child.unref();
  return child.pid ?? 0;
}
