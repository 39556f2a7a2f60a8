/**
 * Which contract, handler module, tools module and verifier module a run uses, for `run` and `resume`. A
 * contract or module given on the command line that differs from the
 * recorded one becomes the run's own from then on (a recorded decision), so
 * the next plain `resume` and every `worker` use it too instead of going back
 * to the original file and superseding the work again.
 */
import { resolve } from "node:path";
import { operator, PlanVersionChangedError, type RunRow, type Store } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import type { operatorActing } from "./run-support.js";
import { storeNow } from "./store-clock.js";

export interface RunFiles {
  contract: string;
  handlers: string;
  /** The tools module (tool adapters, lookups, compensators, input readers; `--tools`), when the run has one. */
  tools?: string;
  /** The verifier module (model/human verifiers), when the run has one. */
  verifiers?: string;
}

const ORIGIN_NAMES = { contract: "contract", handlers: "handler module", tools: "tools module", verifiers: "verifier module" } as const;

/** The files given (absolute), else the recorded ones; a usage error when neither exists. */
export function runFiles(
  r: RunRow,
  given: { contract?: string | undefined; handlers?: string | undefined; tools?: string | undefined; verifiers?: string | undefined },
): RunFiles {
  const contract = given.contract ? resolve(given.contract) : r.origin.contract;
  const handlers = given.handlers ? resolve(given.handlers) : r.origin.handlers;
  const tools = given.tools ? resolve(given.tools) : r.origin.tools;
  const verifiers = given.verifiers ? resolve(given.verifiers) : r.origin.verifiers;
  if (!contract || !handlers) throw new UserError(`run ${r.run} has no recorded contract/handlers: pass --contract and --handlers`, 2);
  return { contract, handlers, ...(tools ? { tools } : {}), ...(verifiers ? { verifiers } : {}) };
}

/**
 * Records the files as the run's from now on when they differ from its
 * origin; call it after they compiled and loaded, so a broken file is never
 * recorded. Says what changed on stderr. A change is an operator decision:
 * on a store with operator identities it needs a key (`--operator-key-file`).
 */
export async function adoptRunFiles(store: Store, run: string, files: RunFiles, acting: ReturnType<typeof operatorActing>): Promise<void> {
  const changed = await operator.setOrigin(store, run, files, acting, await storeNow(store));
  for (const c of changed)
    process.stderr.write(
      `taskspec: run ${run} uses ${ORIGIN_NAMES[c.key]} ${c.to} from now on${c.from ? ` (was ${c.from})` : ""}; recorded as a decision\n`,
    );
}

/**
 * `run`/`resume` drive the plan they compiled; when another `resume
 * --contract` moves the run to a newer plan meanwhile, the worker discards
 * what it had in flight and stops: said as a user error (exit 1), not a crash.
 */
export function planMoved(run: string, err: unknown): unknown {
  if (!(err instanceof PlanVersionChangedError)) return err;
  return new UserError(
    `run ${run} moved to plan ${err.current} while this command held ${err.held} (another \`resume --contract\`); ` +
      `its attempts in flight were discarded; \`taskspec resume ${run}\` continues with the run's contract`,
    1,
  );
}
