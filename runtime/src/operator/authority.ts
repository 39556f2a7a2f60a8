/**
 * Who may make an operator decision. Reaching the store is not authority (on
 * PostgreSQL everyone with the URL reaches it; on `--isolation none` so does
 * a handler). Once a store has an operator identity (`taskspec store
 * init-operator`: the first one turns protection on), every state-changing
 * operator action (resolve, budget, rerun, cancel, a change of a run's
 * contract or modules) needs the key of one of them, and the decision records
 * that identity's name, whatever `--by` says. A store without one stays open:
 * the name given is recorded (`via: open-store`) and `status` says "operator
 * actions: not protected". Approving is stricter still: it needs the gate's
 * resume token or a key even on an open store (engine/approvals.ts).
 */
import { OperatorKeyError } from "../errors.js";
import { operatorOfKey } from "../engine/approvals.js";
import type { Store } from "../store/types.js";

/** Who acts: a name alone (enough only on a store without operator identities), or a name and an operator key. */
export type Acting = string | { by: string; operatorKey?: string | undefined };

/** Who a decision is recorded as, and on what authority. */
export interface Actor {
  by: string;
  /**
   * `operator`: an operator key of the store; `open-store`: the store has no
   * operator identity, the name as given; `policy`: the contract decided
   * (`on_code_change: rerun`), no person.
   */
  via: "operator" | "open-store" | "policy";
}

export const KEY_HINT =
  "give an operator key (--operator-key-file F, or $TASKSPEC_OPERATOR_KEY_FILE; `taskspec store init-operator` makes one)";

/**
 * The actor of `action` (e.g. `resolve R/e1`), or an OperatorKeyError:
 * a key the store does not know, or no key on a store that has operator identities.
 */
export async function actorOf(store: Store, acting: Acting, action: string): Promise<Actor> {
  const { by, operatorKey } = typeof acting === "string" ? { by: acting, operatorKey: undefined } : acting;
  if (operatorKey !== undefined) {
    const op = await operatorOfKey(store, operatorKey);
    if (!op)
      throw new OperatorKeyError(
        `${action} refused: the operator key is not one this store knows (\`taskspec store init-operator\` makes one); nothing was changed`,
      );
    return { by: op.name, via: "operator" };
  }
  if ((await store.countOperators()) > 0)
    throw new OperatorKeyError(
      `${action} refused: this store's operator actions are protected (it has operator identities) and no operator key was given; ${KEY_HINT}; nothing was changed`,
    );
  return { by, via: "open-store" };
}

/** Whether the store's operator actions need a key, and how many identities it has. */
export async function protectionOf(store: Store): Promise<{ protected: boolean; identities: number }> {
  const identities = await store.countOperators();
  return { protected: identities > 0, identities };
}
