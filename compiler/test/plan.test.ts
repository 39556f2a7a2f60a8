/** The plan: order and levels, hashes that depend on meaning only, recovery policies, schema validity. */
import { createHash } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { checkContract, compile, diffPlans, impactOfEdit, invalidatedBy, PlanSchema, type Plan } from "../src/index.js";

const validate = new Ajv2020({ strict: false }).compile(PlanSchema);

const text = `contract: 1
task: { id: demo, goal: g, outputs: [r], done: [ok] }
budgets: { model_calls: 100, wall_clock: 36h, retries: 1 }
inputs:
  audience: { kind: decision, value: committee }
  site: { kind: external }
tools:
  post: { class: dedup, key: "\${task.id}:\${unit.id}", lookup: find }
  find: { class: read }
  book: { class: compensable, result: { id: string }, compensate: { tool: cancel, with: { id: "\${result.id}" } } }
  cancel: { class: idempotent }
  mail: { class: irreversible }
verifiers:
  ok: { kind: rule, check: "result.ok" }
units:
  z:
    needs: { audience: audience }
    produces: [zz]
    verify: [ok]
  b:
    needs: { z: [content, structure], site: content }
    uses: [post, book]
    timeout: 45m
    produces: [bb]
    verify: [ok]
  a:
    needs: { z: content }
    produces: [aa]
    verify: [ok]
  end:
    needs: { a: content, b: content }
    uses: [mail]
    approval: human
    timeout: 5m
    produces: [r]
    verify: [ok]
`;

function plan(source: string): Plan {
  const result = compile(source);
  expect(result.diagnostics).toEqual([]);
  return result.plan!;
}

describe("plan", () => {
  it("orders units topologically by level, ties by id, and lists the levels", () => {
    const p = plan(text);
    expect(p.units.map((u) => `${u.id}@${u.level}`)).toEqual(["z@0", "a@1", "b@1", "end@2"]);
    expect(p.levels).toEqual([["z"], ["a", "b"], ["end"]]);
    expect(p.edges.filter((e) => e.to === "b")).toEqual([
      { from: "site", to: "b", kinds: ["content"] },
      { from: "z", to: "b", kinds: ["content", "structure"] },
    ]);
    expect(validate(p), JSON.stringify(validate.errors)).toBe(true);
  });

  it("resolves recovery policies and the compensation map", () => {
    const p = plan(text);
    const policy = Object.fromEntries(p.tools.map((t) => [t.name, [t.recovery.onRetry, t.recovery.onUnknown, t.recovery.onAbort]]));
    expect(policy).toEqual({
      book: ["never", "block", "compensate"],
      cancel: ["retry-same-key", "retry-same-key", "nothing"],
      find: ["retry", "retry", "nothing"],
      mail: ["never", "block", "block"],
      post: ["lookup-then-retry", "lookup", "nothing"],
    });
    expect(p.compensation).toEqual({ book: "cancel" });
    expect(p.budgets).toEqual({ model_calls: 100, wall_clock_ms: 36 * 3_600_000, retries: 1 });
    expect(p.units.find((u) => u.id === "b")!.timeoutMs).toBe(45 * 60_000);
    expect(p.inputs.map((i) => [i.name, i.volatile])).toEqual([
      ["audience", false],
      ["site", true],
    ]);
  });

  it("keeps every hash when only comments, layout and key order change", () => {
    const edited = text
      .replace("units:\n", "# the work\nunits:\n")
      .replace("    produces: [aa]\n    verify: [ok]", "    verify: [ok]   # checked\n    produces: [aa]")
      .replace("needs: { z: [content, structure], site: content }", "needs: { site: [content], z: [structure, content] }");
    const before = plan(text);
    const after = plan(edited);
    expect(after.planHash).toBe(before.planHash);
    expect(after.units.map((u) => u.definitionHash)).toEqual(before.units.map((u) => u.definitionHash));
  });

  it("counts a used tool's lookup and compensator as part of the unit's definition", () => {
    const before = plan(text);
    const after = plan(text.replace("cancel: { class: idempotent }", 'cancel: { class: idempotent, key: "${task.id}" }'));
    expect(after.units.filter((u, i) => u.definitionHash !== before.units[i]!.definitionHash).map((u) => u.id)).toEqual(["b"]);
  });

  it("changes the definition hash of exactly the units whose definition or tools changed", () => {
    const before = plan(text);
    const after = plan(
      text
        .replace("find: { class: read }", "find: { class: read, result: { id: string } }")
        .replace('key: "${task.id}:${unit.id}"', 'key: "${task.id}/${unit.id}"'),
    );
    const changed = after.units.filter((u, i) => u.definitionHash !== before.units[i]!.definitionHash).map((u) => u.id);
    expect(changed).toEqual(["b"]);
    expect(after.planHash).not.toBe(before.planHash);
    const input = plan(text.replace("value: committee", "value: board"));
    expect(input.inputs[0]!.definitionHash).not.toBe(before.inputs[0]!.definitionHash);
    expect(input.units.map((u) => u.definitionHash)).toEqual(before.units.map((u) => u.definitionHash));
  });

  it("keeps every definition hash when only prose and attempt policy change", () => {
    const edited = text
      .replace(
        "    timeout: 45m\n",
        "    timeout: 2h\n    describe: books and posts\n    phase: later\n    retry: { max: 4 }\n    cost: { model_calls: 3 }\n",
      )
      .replace("mail: { class: irreversible }", "mail: { class: irreversible, describe: sends it, cost: { tokens: 9 } }")
      .replace('ok: { kind: rule, check: "result.ok" }', 'ok: { kind: rule, check: "result.ok", describe: fine }');
    const before = plan(text);
    const after = plan(edited);
    expect(after.units.find((u) => u.id === "b")!.retry.max).toBe(4);
    expect(after.units.map((u) => u.definitionHash)).toEqual(before.units.map((u) => u.definitionHash));
    const diff = diffPlans(before, after);
    expect(diff.units.changed).toEqual([]);
    expect(diff.changes).toEqual([]);
    expect(diff.keys).toEqual({ b: { behaviour: [], policy: ["retry", "timeout", "cost", "phase"] } });
  });

  it("names the behavioural keys of a changed unit", () => {
    const before = plan(text);
    const after = plan(
      text
        .replace("    produces: [bb]\n", "    produces: [bb]\n    retry: { max: 2 }\n")
        .replace("book: { class: compensable, result: { id: string }", "book: { class: compensable, result: { id: string, at: string }")
        .replace("needs: { z: content }", "needs: { z: [content, policy] }"),
    );
    const diff = diffPlans(before, after);
    expect(diff.units.changed.sort()).toEqual(["a", "b"]);
    expect(diff.keys.b).toEqual({ behaviour: ["tools.book"], policy: ["retry"] });
    expect(diff.keys.a).toEqual({ behaviour: ["needs"], policy: [] });
  });

  it("offers the plan's impact graph without building the plan: the same arrays, the same answers", () => {
    const withRules = `${text}impact:\n  - { on: policy, at: site, invalidate: [a] }\n  - { on: audience, invalidate: [end] }\n`;
    const checked = checkContract(withRules);
    expect(checked.diagnostics).toEqual([]);
    const graph = checked.impactGraph!();
    const built = checked.buildPlan!();
    // one computation of the plan's shape, not a second one that could disagree
    expect(graph.edges).toBe(built.edges);
    expect(graph.impactRules).toBe(built.impactRules);
    expect(graph.impactRules).toHaveLength(2);
    expect(graph.units).toEqual(built.units.map(({ id, phase }) => ({ id, phase })));
    expect(graph.inputs).toEqual(built.inputs.map(({ name }) => ({ name })));
    for (const origin of ["audience", "site", "z", "a", "b", "end"])
      for (const kinds of ["all", ["content"], ["structure"], ["policy"], ["audience"]] as const)
        expect(invalidatedBy(graph, [{ origin, kinds }])).toEqual(invalidatedBy(built, [{ origin, kinds }]));
    // the plan is byte-identical whichever was asked for first
    expect(JSON.stringify(built)).toBe(JSON.stringify(compile(withRules).plan));
    // offered exactly when the plan is: not for a contract with an error
    const broken = checkContract(text.replace("needs: { a: content, b: content }", "needs: { nowhere: content }"));
    expect(broken.buildPlan).toBeUndefined();
    expect(broken.impactGraph).toBeUndefined();
  });

  it("offers the plan without its hash for a diff: the same plan, key for key, and the same edit impact", () => {
    const { planHash, ...rest } = plan(text);
    const checked = checkContract(text);
    expect(checked.unhashedPlan!()).toEqual(rest);
    expect(Object.keys(checked.unhashedPlan!())).toEqual(Object.keys(rest));
    const edited = text
      .replace("timeout: 45m", "timeout: 50m")
      .replace("audience: { kind: decision, value: committee }", "audience: { kind: decision, value: board }");
    expect(impactOfEdit(checked.unhashedPlan!(), checkContract(edited).unhashedPlan!())).toEqual(impactOfEdit(plan(text), plan(edited)));
    expect(planHash).toMatch(/^[0-9a-f]{64}$/);
    // offered exactly when the plan is
    expect(checkContract(text.replace("verify: [ok]", "verify: [nothing]")).unhashedPlan).toBeUndefined();
  });

  it("has planHash as a plain data property, the last key", () => {
    const built = plan(text);
    const descriptor = Object.getOwnPropertyDescriptor(built, "planHash")!;
    expect(descriptor).toMatchObject({ value: built.planHash, enumerable: true });
    expect("get" in descriptor).toBe(false);
    expect(Object.keys(built).at(-1)).toBe("planHash");
  });

  it("hashes the plan's canonical JSON (sorted keys, planHash left out)", () => {
    const { planHash, ...rest } = plan(text);
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sorted)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
            )
          : v;
    expect(planHash).toBe(
      createHash("sha256")
        .update(JSON.stringify(sorted(rest)))
        .digest("hex"),
    );
  });
});
