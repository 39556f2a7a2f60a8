/**
 * Bindings judged against the MCP lock (plan/mcp-lock.ts), offline:
 * - C103: a bound tool the server does not have;
 * - C104: an `args:` marking or the `key_arg` that is not an argument of
 *   the tool's input schema (or a `key_arg` that does not take a string);
 * - C105: a `result:` field the tool's output schema does not have, or
 *   has with another type;
 * - C106: the recovery class against the server's annotations: a `read`
 *   tool the server does not mark read-only, an `idempotent` one it marks
 *   not idempotent, one it marks destructive declared `read`, `idempotent`
 *   or `dedup` and used by a unit without an approval gate;
 * - C107: no lock, an unreadable one, one without a bound server, or one
 *   made for other server declarations than the contract's (then C103 to
 *   C106 are not judged: the lock does not describe these servers).
 * Only judged when the caller passes the lock (`CompileOptions.mcp`). The
 * rules are functions over the plan's summary of a locked tool (PlanLocked),
 * shared by the contract adapter and the plan adapter.
 */
import type { DiagnosticCode } from "../diagnostics/types.js";
import { bindingsDigest, lockedSummary, type McpLock } from "../plan/mcp-lock.js";
import type { PlanLocked } from "../plan/schema.js";
import { planServers } from "../plan/servers.js";
import { closest, didYouMean } from "../source/suggest.js";
import type { CheckContext } from "./context.js";
import { pointerToken, type PlanView } from "./plan-view.js";

/** What the caller read beside the contract: the lock, or why there is none (absent file, unreadable). */
export interface McpLockInput {
  /** The lock file's name, for messages. */
  file: string;
  lock?: McpLock;
  /** Why there is no lock: `missing`, or what is wrong with the file. */
  problem?: string;
}

/** A bound tool as these rules see it. */
interface Judged {
  name: string;
  class: string;
  args: readonly string[];
  keyArg?: string | undefined;
  result: Readonly<Record<string, string>>;
  /** Units using the tool that have no approval gate. */
  ungated: readonly string[];
}

interface Finding {
  code: DiagnosticCode;
  /** Where, below the tool: `["args", "x"]`, `["mcp", "key_arg"]`, `["class"]`. */
  at: (string | number)[];
  message: string;
}

/** JSON Schema types each contract result type accepts. */
const ACCEPTS: Record<string, readonly string[]> = {
  string: ["string"],
  number: ["number", "integer"],
  boolean: ["boolean"],
  list: ["array"],
  object: ["object"],
};

export function lockFindings(tool: Judged, locked: PlanLocked): Finding[] {
  const out: Finding[] = [];
  const argNames = locked.args ? Object.keys(locked.args) : undefined;
  if (argNames) {
    for (const arg of tool.args)
      if (!argNames.includes(arg))
        out.push({
          code: "C104",
          at: ["args", arg],
          message: `argument '${arg}' of tool '${tool.name}' is not an argument of the server's tool (its input schema has ${list(argNames)})${didYouMean(closest(arg, argNames))}`,
        });
    if (tool.keyArg !== undefined && !argNames.includes(tool.keyArg))
      out.push({
        code: "C104",
        at: ["mcp", "key_arg"],
        message: `key_arg '${tool.keyArg}' of tool '${tool.name}' is not an argument of the server's tool (its input schema has ${list(argNames)}): the key would be sent where the server does not read it${didYouMean(closest(tool.keyArg, argNames))}`,
      });
    else if (tool.keyArg !== undefined && !["string", "any"].includes(locked.args![tool.keyArg]!))
      out.push({
        code: "C104",
        at: ["mcp", "key_arg"],
        message: `key_arg '${tool.keyArg}' of tool '${tool.name}' takes ${locked.args![tool.keyArg]} in the server's input schema, but a key is a string`,
      });
  }
  if (locked.output) {
    const fields = Object.keys(locked.output);
    for (const [field, type] of Object.entries(tool.result)) {
      const declared = locked.output[field];
      if (declared === undefined)
        out.push({
          code: "C105",
          at: ["result", field],
          message: `result field '${field}' of tool '${tool.name}' is not in the server's output schema (it has ${list(fields)})${didYouMean(closest(field, fields))}`,
        });
      else if (type !== "any" && declared !== "any" && !(ACCEPTS[type] ?? []).includes(declared))
        out.push({
          code: "C105",
          at: ["result", field],
          message: `result field '${field}' of tool '${tool.name}' is declared ${type}, but the server's output schema says ${declared}`,
        });
    }
  }
  const hint = (h: string) => `the server's annotations${h}`;
  if (tool.class === "read" && locked.readOnlyHint !== true)
    out.push({
      code: "C106",
      at: ["class"],
      message: `tool '${tool.name}' is declared read, but ${hint(locked.readOnlyHint === false ? " say readOnlyHint: false" : " do not mark it read-only")}: recovery repeats a read freely; declare the class of what it does to the world`,
    });
  if (tool.class === "idempotent" && locked.idempotentHint === false)
    out.push({
      code: "C106",
      at: ["class"],
      message: `tool '${tool.name}' is declared idempotent, but ${hint(" say idempotentHint: false")}: recovery repeats an idempotent call under the same key; declare it dedup (with a lookup) or irreversible`,
    });
  if (["read", "idempotent", "dedup"].includes(tool.class) && locked.destructiveHint === true && tool.ungated.length > 0)
    out.push({
      code: "C106",
      at: ["class"],
      message: `tool '${tool.name}' is declared ${tool.class}, but ${hint(" mark it destructive (destructiveHint: true)")}, and ${list(tool.ungated.map((u) => `unit '${u}'`))} ${tool.ungated.length === 1 ? "uses" : "use"} it without an approval gate: declare it compensable (with a compensator) or irreversible, or gate the units`,
    });
  return out;
}

const list = (names: readonly string[]) =>
  names.length === 0 ? "none" : names.map((n) => (n.startsWith("unit ") ? n : `'${n}'`)).join(", ");

export function unknownToolMessage(tool: string, server: string, name: string, known: readonly string[]): string {
  return `tool '${tool}' is bound to '${name}' of MCP server '${server}', which the server does not have (the lock lists ${list(known)})${didYouMean(closest(name, known))}; run \`taskspec mcp lock\` if the server changed`;
}

export function staleMessage(file: string, why: string): string {
  return `the MCP lock ${file} ${why}: the bindings are not checked against what the servers declare; run \`taskspec mcp lock\` and commit the lock`;
}

/** Why the lock does not describe these bindings, or undefined when it does. */
export function staleness(input: McpLockInput, digest: string, boundServers: readonly string[]): string | undefined {
  if (!input.lock) return input.problem === "missing" || input.problem === undefined ? "is missing" : `cannot be read (${input.problem})`;
  const absent = boundServers.filter((s) => !Object.hasOwn(input.lock!.servers, s));
  if (absent.length > 0) return `has no entry for server ${list(absent)}`;
  if (input.lock.bindings !== digest) return "was made for other server declarations than the contract's (it is older than them)";
  return undefined;
}

const ungatedUsers = (users: Iterable<[string, { uses?: readonly string[]; approval?: unknown }]>, tool: string) =>
  [...users].filter(([, u]) => (u.uses ?? []).includes(tool) && u.approval === undefined).map(([id]) => id);

export function checkMcpLock(ctx: CheckContext, given: McpLockInput | (() => McpLockInput) | undefined): McpLock | undefined {
  if (!given) return undefined;
  const { contract, sink } = ctx;
  const tools = Object.entries(contract.tools ?? {}).filter(([, t]) => t.mcp !== undefined);
  if (tools.length === 0) return undefined;
  const input = typeof given === "function" ? given() : given;
  const servers = planServers(contract.servers ?? {});
  const digest = bindingsDigest(
    servers,
    tools.map(([name, t]) => ({ name, mcp: t.mcp! })),
  );
  const why = staleness(
    input,
    digest,
    [...new Set(tools.map(([, t]) => t.mcp!.server))].filter((s) => Object.hasOwn(contract.servers ?? {}, s)),
  );
  if (why) {
    // at the first binding: that is what the lock fails to describe
    sink.report("C107", ctx.keySpan(["tools", tools[0]![0], "mcp"]), staleMessage(input.file, why));
    return undefined;
  }
  const lock = input.lock!;
  for (const [name, tool] of tools) {
    const server = lock.servers[tool.mcp!.server];
    if (!server) continue; // an undeclared server: C100
    const known = Object.keys(server.tools);
    if (!Object.hasOwn(server.tools, tool.mcp!.tool)) {
      const suggestion = closest(tool.mcp!.tool, known);
      const span = ctx.valueSpan(["tools", name, "mcp", "tool"]);
      sink.report(
        "C103",
        span,
        unknownToolMessage(name, tool.mcp!.server, tool.mcp!.tool, known),
        suggestion ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span, newText: suggestion }], safe: false }] } : {},
      );
      continue;
    }
    const judged: Judged = {
      name,
      class: tool.class,
      args: Object.keys(tool.args ?? {}),
      keyArg: tool.mcp!.key_arg,
      result: Object.fromEntries(Object.entries(tool.result ?? {}).map(([f, t]) => [f, typeof t === "string" ? t : t.type])),
      ungated: ungatedUsers(Object.entries(contract.units), name),
    };
    for (const f of lockFindings(judged, lockedSummary(server.tools[tool.mcp!.tool]!)))
      sink.report(f.code, f.at[0] === "class" ? ctx.valueSpan(["tools", name, "class"]) : ctx.keySpan(["tools", name, ...f.at]), f.message);
  }
  return sink.diagnostics.some((d) => d.severity === "error") ? undefined : lock;
}

/** C103 to C107 on a plan compiled with a lock (`mcpLock`): the plan holds each bound tool's locked summary. */
export function planMcpLock(view: PlanView): void {
  const { plan } = view;
  if (!plan.mcpLock) return;
  if (plan.mcpLock.bindings !== bindingsDigest(plan.servers ?? [], plan.tools))
    view.report(
      "C107",
      "/mcpLock/bindings",
      staleMessage("the plan was compiled with", "was made for other server declarations than the plan's"),
    );
  plan.tools.forEach((tool, i) => {
    if (!tool.mcp) return;
    if (!tool.mcp.locked) {
      view.report("C103", `/tools/${i}/mcp/tool`, unknownToolMessage(tool.name, tool.mcp.server, tool.mcp.tool, []));
      return;
    }
    const judged: Judged = {
      name: tool.name,
      class: tool.class,
      args: [...(tool.secretArgs ?? []), ...(tool.safeArgs ?? [])],
      keyArg: tool.mcp.keyArg,
      result: tool.result ?? {},
      ungated: plan.units.filter((u) => u.uses.includes(tool.name) && u.approval === undefined).map((u) => u.id),
    };
    for (const f of lockFindings(judged, tool.mcp.locked)) {
      const path =
        f.at[0] === "class"
          ? `/tools/${i}/class`
          : f.at[0] === "mcp"
            ? `/tools/${i}/mcp/keyArg`
            : f.at[0] === "result"
              ? `/tools/${i}/result/${pointerToken(String(f.at[1]))}`
              : `/tools/${i}/${(tool.secretArgs ?? []).includes(String(f.at[1])) ? "secretArgs" : "safeArgs"}`;
      view.report(f.code, path, f.message);
    }
  });
}
