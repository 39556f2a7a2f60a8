/**
 * readPlanJson / validatePlan / checkPlan: a compiled plan read back is
 * accepted; broken JSON says where (line:col); a plan that breaks the plan
 * schema (a field missing, of the wrong type, or not in the format) is
 * refused at its JSON pointer; a plan whose content does not hash to its
 * planHash is refused; and a plan edited by hand and hashed again is refused
 * by the compiler's own rules, under the compiler's codes (a table of edits,
 * one or more per code a plan is judged on).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile, compileTemplate, DiagnosticCodes, parseMcpLock, planHashOf, type DiagnosticCode, type Plan } from "../src/index.js";
import { NOT_JUDGED, PLAN_RULES, readPlanJson, SCHEMA_CODES, validatePlan, type PlanProblem } from "../src/plan-check.js";

const spec = (name: string): Plan => {
  const text = readFileSync(new URL(`../../specs/${name}.task.yaml`, import.meta.url), "utf8");
  return JSON.parse(JSON.stringify(compile(text).plan!)) as Plan;
};
const MARKET = spec("market-entry-pack");
const TRIP = spec("trip-booking");
const POST = spec("publish-post");
const json = JSON.stringify(MARKET, null, 2);
// the diagnostics page's C101 contract, fixed: a dedup tool and its lookup bound to a stdio MCP server
const MCP = ((): Plan => {
  const page = readFileSync(new URL("../../docs/diagnostics.md", import.meta.url), "utf8");
  const section = page.slice(page.indexOf("## C101"));
  const fixed = /<!-- fixed -->\s*```yaml\n([\s\S]*?)```/.exec(section)![1]!;
  return JSON.parse(JSON.stringify(compile(fixed).plan!)) as Plan;
})();
// the diagnostics page's C103 contract, fixed, compiled with the page's lock: each bound tool keeps its locked summary
const LOCKED = ((): Plan => {
  const page = readFileSync(new URL("../../docs/diagnostics.md", import.meta.url), "utf8");
  const section = page.slice(page.indexOf("## C103"));
  const fixed = /<!-- fixed -->\s*```yaml\n([\s\S]*?)```/.exec(section)![1]!;
  const read = parseMcpLock(/<!-- lock -->\s*```json\n([\s\S]*?)```/.exec(section)![1]!);
  if (!("lock" in read)) throw new Error(read.problem);
  return JSON.parse(JSON.stringify(compile(fixed, { mcp: { file: "l.json", lock: read.lock } }).plan!)) as Plan;
})();

const edited = (base: Plan, edit: (p: Plan) => void, rehash = true): Plan => {
  const p = structuredClone(base);
  edit(p);
  if (rehash) p.planHash = planHashOf(p);
  return p;
};
const problems = (value: unknown, files?: { exists(path: string): boolean }): PlanProblem[] => {
  const r = validatePlan(value, files ? { files } : {});
  return r.ok ? [] : r.problems;
};
const problem = (value: unknown) => problems(value)[0]?.message;
const unit = (p: Plan, id: string) => p.units.find((u) => u.id === id)!;
const unitAt = (p: Plan, id: string) => p.units.findIndex((u) => u.id === id);
const tool = (p: Plan, name: string) => p.tools.find((t) => t.name === name)!;
const toolAt = (p: Plan, name: string) => p.tools.findIndex((t) => t.name === name);

describe("readPlanJson", () => {
  it("accepts the compiler's plans, compact or pretty, and recomputes the same hash", () => {
    expect(planHashOf(MARKET)).toBe(MARKET.planHash);
    expect(readPlanJson(json)).toMatchObject({ ok: true, plan: { planHash: MARKET.planHash } });
    expect(readPlanJson(`\ufeff${JSON.stringify(MARKET)}`).ok).toBe(true);
    for (const plan of [TRIP, POST]) expect(problems(plan)).toEqual([]);
  });

  it("names line and column of broken JSON", () => {
    const cases: Array<[string, number, number, RegExp]> = [
      ['{\n  "a": }', 2, 8, /expected a value, found "}"/],
      ["{a:1}", 1, 2, /expected a property name in double quotes/],
      ["[1,2", 1, 5, /expected ',' or '\]', found the end of the file/],
      ['{"a":1} x', 1, 9, /unexpected text after the JSON value/],
      ["tru", 1, 1, /expected a value/],
      ['{"a": "x\ny"}', 1, 9, /control character/],
      ['{"a": "\\q"}', 1, 9, /bad escape/],
      ["", 1, 1, /found the end of the file/],
      ["[".repeat(5000), 1, 4098, /nesting deeper than 4096 levels/],
    ];
    for (const [input, line, column, message] of cases) {
      const r = readPlanJson(input);
      expect(r.ok, input).toBe(false);
      if (r.ok) continue;
      expect({ line: r.problems[0]!.line, column: r.problems[0]!.column }, input.slice(0, 20)).toEqual({ line, column });
      expect(r.problems[0]!.message).toMatch(message);
    }
  });

  it("refuses a plan whose content does not hash to its planHash", () => {
    expect(problem(edited(MARKET, (p) => (p.budgets.model_calls = 1), false))).toMatch(
      new RegExp(`content does not match its planHash \\(recorded ${MARKET.planHash.slice(0, 12)}…, content hashes to [0-9a-f]{12}…\\)`),
    );
    expect(problem(edited(MARKET, (p) => (p.planHash = "x"), false))).toMatch(/recorded "x"/);
    // the same edit with the hash recomputed is a plan the compiler could have made: accepted
    expect(problems(edited(MARKET, (p) => (p.budgets.model_calls = 1)))).toEqual([]);
  });

  it("refuses what breaks the plan schema, at its place: a field missing, of the wrong type, or not in the format", () => {
    expect(problem([])).toMatch(/not a compiled plan/);
    expect(problem({ units: [] })).toMatch(/no `format`/);
    expect(problem({ ...MARKET, format: 2 })).toMatch(/plan format 2, but this taskspec reads plan format 1/);
    const at = (p: Plan) => problems(p).map(({ code, path, message }) => ({ code, path, message }));
    expect(at(edited(MARKET, (p) => ((unit(p, "E01").timeoutMs as unknown) = "10m")))).toContainEqual({
      code: "C002",
      path: `/units/${unitAt(MARKET, "E01")}/timeoutMs`,
      message: "does not match the plan schema: must be integer",
    });
    expect(at(edited(MARKET, (p) => delete (p as Partial<Plan>).inputs))).toContainEqual({
      code: "C002",
      path: "/inputs",
      message: "does not match the plan schema: missing, and the plan format requires it",
    });
    // a misspelt field would be ignored by the runtime: refused, never silently dropped
    expect(at(edited(MARKET, (p) => Object.assign(unit(p, "E01"), { verfy: [] })))).toContainEqual({
      code: "C002",
      path: `/units/${unitAt(MARKET, "E01")}/verfy`,
      message: "does not match the plan schema: not a field of the plan format",
    });
  });
});

/** A hand edit, hashed again, and the compiler's code it must be refused with, at its place. */
interface Case {
  name: string;
  base: Plan;
  edit: (p: Plan) => void;
  code: DiagnosticCode;
  path: (p: Plan) => string;
  message?: RegExp;
  files?: { exists(path: string): boolean };
}

const CASES: Case[] = [
  {
    name: "a unit's verifiers removed",
    base: TRIP,
    edit: (p) => (unit(p, "flight").verify = []),
    code: "C050",
    path: (p) => `/units/${unitAt(p, "flight")}/verify`,
    message: /unit 'flight' uses side-effecting tool 'book_flight' but has no verifier/,
  },
  { name: "task.done emptied", base: TRIP, edit: (p) => (p.task.done = []), code: "C051", path: () => "/task/done" },
  {
    name: "task.done removed",
    base: TRIP,
    edit: (p) => delete (p.task as Partial<Plan["task"]>).done,
    code: "C051",
    path: () => "/task/done",
  },
  {
    name: "the gate in front of an irreversible tool removed",
    base: TRIP,
    edit: (p) => delete unit(p, "confirm").approval,
    code: "C034",
    path: (p) => `/units/${unitAt(p, "confirm")}/uses/0`,
    message: /unit 'confirm' uses irreversible tool 'send_confirmation' without an approval gate/,
  },
  {
    name: "a dedup tool's key removed",
    base: POST,
    edit: (p) => delete tool(p, "create_post").key,
    code: "C033",
    path: (p) => `/tools/${toolAt(p, "create_post")}/key`,
    message: /dedup tool 'create_post' has no 'key'/,
  },
  {
    name: "a dedup tool's lookup removed",
    base: POST,
    edit: (p) => delete tool(p, "create_post").lookup,
    code: "C033",
    path: (p) => `/tools/${toolAt(p, "create_post")}/lookup`,
  },
  {
    name: "a compensable tool's compensator removed",
    base: TRIP,
    edit: (p) => {
      delete tool(p, "book_flight").compensate;
      delete p.compensation.book_flight;
    },
    code: "C030",
    path: (p) => `/tools/${toolAt(p, "book_flight")}/compensate`,
  },
  {
    name: "a compensator that is a read",
    base: TRIP,
    edit: (p) => {
      tool(p, "book_flight").compensate!.tool = "search_flights";
      p.compensation.book_flight = "search_flights";
    },
    code: "C031",
    path: (p) => `/tools/${toolAt(p, "book_flight")}/compensate/tool`,
  },
  {
    name: "a lookup that is not a read",
    base: TRIP,
    edit: (p) => (tool(p, "book_flight").lookup = "cancel_flight"),
    code: "C031",
    path: (p) => `/tools/${toolAt(p, "book_flight")}/lookup`,
  },
  {
    name: "the compensation table out of step with the tools",
    base: TRIP,
    edit: (p) => (p.compensation.book_flight = "cancel_hotel"),
    code: "C031",
    path: () => "/compensation/book_flight",
  },
  {
    name: "a loop bound too large to bound anything",
    base: MARKET,
    edit: (p) => (unit(p, "S04").loop!.max = 10_000_000),
    code: "C021",
    path: (p) => `/units/${unitAt(p, "S04")}/loop/max`,
  },
  {
    name: "a loop without max",
    base: MARKET,
    edit: (p) => delete (unit(p, "S04").loop as { max?: number }).max,
    code: "C021",
    path: (p) => `/units/${unitAt(p, "S04")}/loop/max`,
  },
  {
    name: "a retry bound too large",
    base: TRIP,
    edit: (p) => (unit(p, "flight").retry.max = 10_000_000),
    code: "C021",
    path: (p) => `/units/${unitAt(p, "flight")}/retry/max`,
  },
  {
    name: "a retry bound that is not a number",
    base: TRIP,
    edit: (p) => ((unit(p, "flight").retry as { max: unknown }).max = "unlimited"),
    code: "C021",
    path: (p) => `/units/${unitAt(p, "flight")}/retry/max`,
  },
  {
    name: "budgets removed",
    base: TRIP,
    edit: (p) => delete (p as Partial<Plan>).budgets,
    code: "C041",
    path: () => "/budgets",
  },
  {
    name: "a cycle made of needs",
    base: TRIP,
    edit: (p) => unit(p, "options").needs.push({ node: "hotel", nodeType: "unit", kinds: ["content"] }),
    code: "C020",
    path: (p) => `/units/${unitAt(p, "options")}/needs/2`,
    message: /dependency cycle: options -> hotel -> options/,
  },
  {
    name: "a use of an undeclared tool",
    base: TRIP,
    edit: (p) => unit(p, "itinerary").uses.push("ghost"),
    code: "C010",
    path: (p) => `/units/${unitAt(p, "itinerary")}/uses/0`,
  },
  {
    name: "a need of an undeclared unit",
    base: TRIP,
    edit: (p) => unit(p, "hotel").needs.push({ node: "gone", nodeType: "unit", kinds: ["content"] }),
    code: "C010",
    path: (p) => `/units/${unitAt(p, "hotel")}/needs/2/node`,
  },
  {
    name: "task.done naming an undeclared verifier",
    base: TRIP,
    edit: (p) => p.task.done.push({ ref: "ghost" }),
    code: "C010",
    path: () => "/task/done/2/ref",
  },
  {
    name: "levels naming an undeclared unit",
    base: TRIP,
    edit: (p) => p.levels[0]!.push("phantom"),
    code: "C010",
    path: (p) => `/levels/0/${p.levels[0]!.length - 1}`,
  },
  {
    name: "a unit declared twice",
    base: TRIP,
    edit: (p) => p.units.push(structuredClone(unit(p, "options"))),
    code: "C011",
    path: (p) => `/units/${p.units.length - 1}`,
  },
  {
    name: "a name both a unit and an input",
    base: TRIP,
    edit: (p) => p.inputs.push({ ...p.inputs[0]!, name: "flight" }),
    code: "C011",
    path: (p) => `/inputs/${p.inputs.length - 1}/name`,
  },
  {
    name: "an artifact with two producers",
    base: TRIP,
    edit: (p) => unit(p, "hotel").produces.push("flight-booking"),
    code: "C012",
    path: (p) => `/units/${unitAt(p, "hotel")}/produces/1`,
  },
  {
    name: "a task output no unit produces",
    base: TRIP,
    edit: (p) => p.task.outputs.push("ghost"),
    code: "C012",
    path: () => "/task/outputs/2",
  },
  {
    name: "a schema file outside the folder",
    base: MARKET,
    edit: (p) => (p.verifiers.find((v) => v.name === "evidence_schema")!.schema = "../secret-file.txt"),
    code: "C014",
    path: (p) => `/verifiers/${p.verifiers.findIndex((v) => v.name === "evidence_schema")}/schema`,
  },
  {
    name: "a schema file that does not exist (with a probe)",
    base: MARKET,
    edit: (p) => (p.verifiers.find((v) => v.name === "evidence_schema")!.schema = "schemas/gone.json"),
    code: "C013",
    path: (p) => `/verifiers/${p.verifiers.findIndex((v) => v.name === "evidence_schema")}/schema`,
    files: { exists: (path) => path !== "schemas/gone.json" },
  },
  {
    name: "a timeout past what the runtime can time",
    base: TRIP,
    edit: (p) => (unit(p, "flight").timeoutMs = 2 ** 31),
    code: "C002",
    path: (p) => `/units/${unitAt(p, "flight")}/timeoutMs`,
  },
  {
    name: "a backoff factor out of range",
    base: TRIP,
    edit: (p) => (unit(p, "flight").retry.backoff!.factor = 1000),
    code: "C002",
    path: (p) => `/units/${unitAt(p, "flight")}/retry/backoff/factor`,
  },
  {
    name: "a cap that cannot be counted exactly",
    base: TRIP,
    edit: (p) => (p.budgets.tokens = 2 ** 60),
    code: "C002",
    path: () => "/budgets/tokens",
  },
  {
    name: "a secret input with its value in the plan",
    base: TRIP,
    edit: (p) => (p.inputs.find((i) => i.name === "traveller")!.secret = true),
    code: "C037",
    path: (p) => `/inputs/${p.inputs.findIndex((i) => i.name === "traveller")}/value`,
  },
  {
    name: "a key that reads a secret argument",
    base: POST,
    edit: (p) => {
      const t = tool(p, "create_post");
      t.key = compileTemplate("post:${args.title}", { args: { type: "any" } }).template!;
      t.secretArgs = ["title"];
    },
    code: "C037",
    path: (p) => `/tools/${toolAt(p, "create_post")}/key`,
  },
  {
    name: "a dedup key the handler can vary (it reads args) without a declared bound",
    base: POST,
    edit: (p) => (tool(p, "create_post").key = compileTemplate("post:${args.title}", { args: { type: "any" } }).template!),
    code: "C039",
    path: (p) => `/units/${unitAt(p, "publish")}/uses/0`,
  },
  {
    name: "a bound on a tool the unit does not use",
    base: POST,
    edit: (p) => (unit(p, "publish").effects = { find_post: { max: 2 } }),
    code: "C010",
    path: (p) => `/units/${unitAt(p, "publish")}/effects/find_post`,
  },
  {
    name: "a check whose compiled form says something else than its source",
    base: TRIP,
    edit: (p) =>
      (p.verifiers.find((v) => v.name === "flight_booked")!.check!.ast = { type: "literal", value: true, span: { start: 0, end: 4 } }),
    code: "C060",
    path: (p) => `/verifiers/${p.verifiers.findIndex((v) => v.name === "flight_booked")}/check`,
    message: /check in verifier 'flight_booked': the compiled form in the plan is not what its source/,
  },
  {
    name: "a check whose source names what no scope has",
    base: TRIP,
    edit: (p) => (p.verifiers.find((v) => v.name === "flight_booked")!.check!.source = "nope == 1"),
    code: "C060",
    path: (p) => `/verifiers/${p.verifiers.findIndex((v) => v.name === "flight_booked")}/check`,
  },
  {
    name: "a compensation argument naming an undeclared result field",
    base: TRIP,
    edit: (p) => (tool(p, "book_flight").compensate!.with.booking_id!.source = "${result.nope}"),
    code: "C032",
    path: (p) => `/tools/${toolAt(p, "book_flight")}/compensate/with/booking_id`,
  },
  {
    name: "a tool bound to an MCP server the plan does not declare",
    base: MCP,
    edit: (p) => (tool(p, "create_post").mcp!.server = "elsewhere"),
    code: "C100",
    path: (p) => `/tools/${toolAt(p, "create_post")}/mcp/server`,
  },
  {
    name: "an MCP server with both transports",
    base: MCP,
    edit: (p) => (p.servers![0]!.url = "http://localhost:1/mcp"),
    code: "C100",
    path: () => "/servers/0/url",
  },
  {
    name: "a bound lookup with nowhere to pass the key",
    base: MCP,
    edit: (p) => delete tool(p, "find_post").mcp!.keyArg,
    code: "C101",
    path: (p) => `/tools/${toolAt(p, "find_post")}/mcp`,
  },
  {
    name: "a secret in an MCP server's arguments",
    base: MCP,
    edit: (p) => p.servers![0]!.args!.push("--api-key=8f3a77c1"),
    code: "C102",
    path: () => "/servers/0/args/1",
  },
  {
    name: "a secret in an MCP server's header",
    base: MCP,
    edit: (p) =>
      Object.assign(
        p.servers![0]!,
        { transport: "http", url: "https://x.example/mcp", headers: [{ name: "Authorization", value: "Bearer 8f3a77c1" }] },
        { command: undefined, args: undefined, env: undefined },
      ),
    code: "C102",
    path: () => "/servers/0/headers/0/value",
  },
  {
    name: "a bound tool the lock does not describe",
    base: LOCKED,
    edit: (p) => delete tool(p, "create_post").mcp!.locked,
    code: "C103",
    path: (p) => `/tools/${toolAt(p, "create_post")}/mcp/tool`,
  },
  {
    name: "a key_arg the locked input schema does not list",
    base: LOCKED,
    edit: (p) => (tool(p, "create_post").mcp!.keyArg = "idem"),
    code: "C104",
    path: (p) => `/tools/${toolAt(p, "create_post")}/mcp/keyArg`,
  },
  {
    name: "a result field the locked output schema does not have",
    base: LOCKED,
    edit: (p) => (tool(p, "create_post").result!.slug = "string"),
    code: "C105",
    path: (p) => `/tools/${toolAt(p, "create_post")}/result/slug`,
  },
  {
    name: "a read tool the locked annotations do not mark read-only",
    base: LOCKED,
    edit: (p) => (tool(p, "find_post").mcp!.locked!.readOnlyHint = false),
    code: "C106",
    path: (p) => `/tools/${toolAt(p, "find_post")}/class`,
  },
  {
    name: "a server declaration changed after the lock was made",
    base: LOCKED,
    edit: (p) => (p.servers![0]!.args = ["blog-mcp-v2.mjs"]),
    code: "C107",
    path: () => "/mcpLock/bindings",
  },
  {
    name: "a need without an edge kind",
    base: TRIP,
    edit: (p) => (unit(p, "flight").needs[0]!.kinds = []),
    code: "C070",
    path: (p) => `/units/${unitAt(p, "flight")}/needs/0/kinds`,
  },
  {
    name: "an unknown edge kind",
    base: TRIP,
    edit: (p) => ((unit(p, "flight").needs[0]!.kinds as string[]) = ["contnt"]),
    code: "C070",
    path: (p) => `/units/${unitAt(p, "flight")}/needs/0/kinds/0`,
  },
];

describe("a plan edited by hand and hashed again is refused with the compiler's code", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
    expect(problems(c.base, c.files)).toEqual([]);
    const plan = edited(c.base, c.edit);
    const found = problems(plan, c.files);
    // re-hashed: the hash is consistent, so every problem is a rule's, with its code and place
    expect(found.every((p) => p.code !== undefined && p.path !== undefined)).toBe(true);
    expect(found.map((p) => ({ code: p.code, path: p.path }))).toContainEqual({ code: c.code, path: c.path(plan) });
    if (c.message) expect(found.find((p) => p.code === c.code)!.message).toMatch(c.message);
  });

  it("every compiler code is judged on a plan, or listed with the reason it cannot be", () => {
    const judged = new Set<DiagnosticCode>([...PLAN_RULES.flatMap((r) => r.codes), ...SCHEMA_CODES.map((s) => s.code)]);
    for (const code of Object.keys(DiagnosticCodes) as DiagnosticCode[]) {
      const reason = NOT_JUDGED[code];
      expect(judged.has(code) !== (reason !== undefined), `${code}: judged, or listed in NOT_JUDGED with a reason (not both)`).toBe(true);
      // only warnings and what a plan has no trace of go unjudged: an error that stops a compile stops a plan
      if (reason !== undefined && DiagnosticCodes[code].severity === "error") expect(["C001", "C091"]).toContain(code);
    }
  });

  it("every code judged on a plan has a case above", () => {
    const cased = new Set(CASES.map((c) => c.code));
    const judged = [...PLAN_RULES.flatMap((r) => r.codes), ...SCHEMA_CODES.map((s) => s.code)];
    expect(judged.filter((code) => !cased.has(code))).toEqual([]);
  });
});

describe("docs/runtime.md", () => {
  it("lists every code once, judged on a plan exactly when a rule or the plan schema judges it", () => {
    const page = readFileSync(new URL("../../docs/runtime.md", import.meta.url), "utf8");
    const rows = [...page.matchAll(/^\| (C\d{3}) \| (yes|no) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]] as const);
    expect(rows.map(([code]) => code)).toEqual(Object.keys(DiagnosticCodes));
    const judged = new Set<string>([...PLAN_RULES.flatMap((r) => r.codes), ...SCHEMA_CODES.map((s) => s.code)]);
    for (const [code, said, how] of rows) {
      expect(said, code).toBe(judged.has(code) ? "yes" : "no");
      if (said === "no") expect(how, code).toBe(NOT_JUDGED[code as DiagnosticCode]);
    }
  });
});
