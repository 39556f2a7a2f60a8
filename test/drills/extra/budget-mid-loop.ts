/**
 * A budget exhausted mid-loop: S04 (generate -> claims check -> revise, max
 * 3) is refused its second iteration's model calls by the cap. The run blocks
 * with reason `budget` (no retry spin); an operator raises the cap (a recorded
 * decision); the resume redoes S04 and nothing else, and the spend recorded
 * before the stop is kept, never reset.
 */
import { planHashOf } from "@taskspec/compiler";
import { drill, operator } from "@taskspec/runtime";
import { extraCase, joinDrives } from "../support.js";
import { caseOf, drive, manual, type ExtraContext } from "./context.js";

export async function budgetMidLoop(x: ExtraContext): Promise<drill.CaseResult> {
  const setup = x.setups["market-entry-pack"];
  const plan = structuredClone(setup.plan!);
  // Concurrency 1 runs units in plan order: every unit before S04, then S04's first iteration, fit; its second does not.
  const at = plan.units.findIndex((u) => u.id === "S04");
  const before = plan.units.slice(0, at).reduce((s, u) => s + (u.cost.model_calls ?? 0), 0);
  const cap = before + (plan.units[at]!.cost.model_calls ?? 0) + 1;
  plan.budgets.model_calls = cap;
  plan.planHash = planHashOf(plan); // a changed plan is a new plan: the drill's child checks the hash
  const c = caseOf(
    "market-entry-pack/budget-mid-loop/S04",
    "market-entry-pack",
    "idempotent",
    ["S04"],
    `staleness: model_calls cap ${cap} runs out in S04's second loop iteration; blocked with reason budget, cap raised, S04 redone, spend kept`,
    `model_calls cap ${cap}, then raised to 110`,
  );
  return extraCase(x, { ...setup, plan }, c, x.baselines["market-entry-pack"].complete, async (sb) => {
    const first = await drive(sb, { crashes: [], scenario: "complete" });
    const usedAtStop = await drill.withStore(sb, async (store) => (await store.getRun(sb.run))!.budgetUsed.model_calls ?? 0);
    const raisedAt = new Date().toISOString();
    await drill.withStore(sb, (store) =>
      operator.setBudget(store, sb.run, { model_calls: 110 }, "drill", "budget stop in S04: raise the cap", raisedAt),
    );
    const rest = await drive(sb, { crashes: [], scenario: "complete" });
    const { used, chargedAfter } = await drill.withStore(sb, async (store) => {
      const events = await store.listEvents(sb.run, { type: "budget-charged" });
      return {
        used: (await store.getRun(sb.run))!.budgetUsed.model_calls ?? 0,
        chargedAfter: events
          .filter((e) => e.at >= raisedAt)
          .reduce((s, e) => s + Number((e.data as { model_calls?: number }).model_calls ?? 0), 0),
      };
    });
    const s04 = drill.readInvocationLog(sb.log).filter((i) => i.unit === "S04" && i.attempt === 1);
    return {
      driven: joinDrives(first, manual([{ action: "budget", note: `model_calls ${cap} -> 110` }], ""), rest),
      checks: [
        [`the run stopped blocked with reason budget (${first.finalStatus})`, first.finalStatus.startsWith("blocked (budget")],
        ["it stopped inside S04's loop (its first attempt reached iteration 2)", s04.some((i) => i.iteration === 2)],
        ["the spend at the stop is one iteration short of the cap", usedAtStop === cap - 1],
        ["the spend is kept across the stop (final = at the stop + charged after the raise)", used === usedAtStop + chargedAfter],
      ],
    };
  });
}
