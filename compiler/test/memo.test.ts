/**
 * The compiler's incremental state lives in one registry (src/memo.ts): no
 * other module makes a cache of its own; emptying every memo never changes a
 * result (a cold compile equals a warm or incremental one); and in the test
 * build the values the compiler hands out are deep-frozen, so code that
 * mutates a contract value or a plan throws instead of corrupting the memos.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { checkContract, compile, type Plan } from "../src/index.js";
import { FREEZE_PLAIN, IdentityMemo, clearMemos, keepAcrossCompiles, memoOwners } from "../src/memo.js";

const SRC = join(import.meta.dirname, "..", "src");
const REPO = join(import.meta.dirname, "..", "..");
const MARKET = readFileSync(join(REPO, "specs", "market-entry-pack.task.yaml"), "utf8");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("the compiler's memos", () => {
  it("are all made through the registry: no module-level WeakMap, WeakSet or empty Map/Set elsewhere", () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      if (file.endsWith("memo.ts")) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          // top level only: a cache is state that outlives a call; constant tables have constructor arguments
          if (
            /^(export )?(const|let) \w+(: [^=]+)? = new (WeakMap|WeakSet)\b/.test(line) ||
            /^(export )?(const|let) \w+(: [^=]+)? = new (Map|Set)(<[^>]*>)?\(\);/.test(line)
          ) {
            offenders.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    expect(offenders).toEqual([]);
  });

  it("are listed by owner", () => {
    compile(MARKET);
    expect(
      memoOwners()
        .map((o) => o.split(":")[0])
        .sort(),
    ).toEqual([
      "check/expressions",
      "check/scopes",
      "check/scopes",
      "check/scopes",
      "check/site-scope",
      "check/site-scope",
      "compile",
      "expr/syntax",
      "impact/count",
      "impact/plan-index",
      "impact/plan-index",
      "impact/scratch",
      "parse/parse-yaml",
      "parse/to-plain",
      "parse/yaml-nodes",
      "plan/build-plan",
      "plan/need-list",
      "schema/accept",
    ]);
  });

  it("never change a result: a compile from emptied memos equals a warm and an incremental one", () => {
    const at = MARKET.indexOf("model_calls: ", MARKET.indexOf("  S02:")) + "model_calls: ".length;
    const edited = MARKET.slice(0, at) + "9" + MARKET.slice(at);
    const first = checkContract(MARKET);
    const incremental = compile(edited, { previous: first.parsed.reusable! });
    const warm = compile(edited);
    clearMemos();
    const cold = compile(edited);
    expect(cold.plan).toBeDefined();
    for (const other of [warm, incremental]) {
      expect(JSON.stringify(other.plan)).toBe(JSON.stringify(cold.plan));
      expect(other.diagnostics).toEqual(cold.diagnostics);
    }
  });
});

describe("a process that compiles each text once (keepAcrossCompiles(false), as the CLI does)", () => {
  it("keeps nothing that only a later compile reads, and still what one compile reads twice", () => {
    const across = new IdentityMemo<object, number>("test: across compiles only", true);
    const within = new IdentityMemo<object, number>("test: within a compile");
    const key = {};
    try {
      keepAcrossCompiles(false);
      expect(across.set(key, 1)).toBe(1);
      within.set(key, 2);
      expect(across.get(key)).toBeUndefined();
      expect(within.get(key)).toBe(2);
    } finally {
      keepAcrossCompiles(true);
    }
    across.set(key, 3);
    expect(across.get(key)).toBe(3);
  });

  it("gives the same plan, without handing an editor's next compile this one's contract values", () => {
    const at = MARKET.indexOf("model_calls: ", MARKET.indexOf("  S02:")) + "model_calls: ".length;
    const edited = MARKET.slice(0, at) + "9" + MARKET.slice(at);
    // the plan of `edited` compiled from the parse of MARKET, and a unit the edit did not touch
    const incremental = () => {
      const first = checkContract(MARKET);
      const before = first.buildPlan!();
      const after = compile(edited, { previous: first.parsed.reusable! }).plan!;
      const untouched = (plan: Plan) => plan.units.find((u) => u.id !== "S02" && u.uses.length > 0)!.uses;
      return { before: untouched(before), after: untouched(after), plan: after };
    };
    const warm = incremental();
    // an editor's next compile takes the untouched definitions' plain values over
    expect(warm.after).toBe(warm.before);
    let once: ReturnType<typeof incremental>;
    try {
      keepAcrossCompiles(false);
      once = incremental();
    } finally {
      keepAcrossCompiles(true);
    }
    expect(once.after).not.toBe(once.before);
    expect(JSON.stringify(once.plan)).toBe(JSON.stringify(warm.plan));
  });
});

describe.runIf(FREEZE_PLAIN)("the immutability rule in the test build (TASKSPEC_FREEZE_PLAIN=1)", () => {
  it("deep-freezes plans and the contract values they share, so a mutation throws", () => {
    const { plan } = compile(MARKET);
    const unit = plan!.units.find((u) => u.uses.length > 0)!;
    expect(Object.isFrozen(plan)).toBe(true);
    // `uses` is the contract value's own array, shared with the next compile through the memos
    expect(() => unit.uses.push("sneaky")).toThrow(TypeError);
    expect(() => {
      (unit as { phase: string }).phase = "moved";
    }).toThrow(TypeError);
    expect(() => {
      plan!.task.forbid.length = 0;
    }).toThrow(TypeError);
    // the next compile of the same text is unaffected
    expect(compile(MARKET).plan!.units.find((u) => u.id === unit.id)!.uses).toEqual(unit.uses);
  });
});
