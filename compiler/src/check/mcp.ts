/**
 * MCP servers and the tools bound to them (`servers:`, `tools.*.mcp`):
 * - C100: a binding names a server `servers` does not declare, or a server
 *   has not exactly one transport (`command` for stdio, `url` for
 *   Streamable HTTP) or carries the other transport's keys;
 * - C101: a key with nowhere to go: a bound `dedup`, `compensable` or
 *   `irreversible` tool with a `key` that neither passes it to the server
 *   (`key_arg`) nor has a `lookup` to find the effect by it, or a bound tool
 *   used as a lookup with no `key_arg` to pass the key it is asked with;
 * - C102: a secret in plain text in a server's declaration (a header value,
 *   the URL, a command argument, an `env` entry with a value): the contract
 *   is committed and the plan is stored; secrets come from named
 *   environment variables of the worker.
 * The rules are functions over plain values, shared by the contract adapter
 * (spans, fixes) and the plan adapter (JSON pointers).
 */
import { closest, didYouMean } from "../source/suggest.js";
import type { CheckContext } from "./context.js";
import { pointerToken, type PlanView } from "./plan-view.js";

/** A server as both callers see it: the contract's `servers.<name>` and the plan's `servers[]` entry. */
export interface ServerShape {
  command?: string | undefined;
  args?: readonly string[] | undefined;
  env?: readonly string[] | undefined;
  cwd?: string | undefined;
  url?: string | undefined;
  /** Header name -> its plain value, or undefined when it comes from an environment variable. */
  headers?: ReadonlyMap<string, string | undefined> | undefined;
}

/** A tool as these rules see it. */
export interface BoundTool {
  class: string;
  key?: unknown;
  lookup?: string | undefined;
  mcp?: { server: string; keyArg?: string | undefined } | undefined;
}

const STDIO_KEYS = ["args", "env", "cwd"] as const;

/** What is wrong with a server's transport, as messages about the key at fault (`undefined` for the server itself). */
export function transportProblems(name: string, server: ServerShape): { key?: string; message: string }[] {
  const hasCommand = server.command !== undefined;
  const hasUrl = server.url !== undefined;
  if (!hasCommand && !hasUrl)
    return [
      { message: `MCP server '${name}' has no transport: give \`command\` (a local process over stdio) or \`url\` (Streamable HTTP)` },
    ];
  if (hasCommand && hasUrl)
    return [
      {
        key: "url",
        message: `MCP server '${name}' has both \`command\` and \`url\`: a server is a local process over stdio or a Streamable HTTP endpoint, not both; declare two servers if you need both`,
      },
    ];
  if (hasUrl)
    return STDIO_KEYS.filter((k) => server[k] !== undefined).map((k) => ({
      key: k,
      message: `MCP server '${name}' is reached over Streamable HTTP (\`url\`): \`${k}\` is for a server started over stdio (\`command\`) and would be ignored`,
    }));
  return server.headers !== undefined
    ? [
        {
          key: "headers",
          message: `MCP server '${name}' is started over stdio (\`command\`): \`headers\` is for a Streamable HTTP server (\`url\`) and would be ignored; pass what it needs in \`env\``,
        },
      ]
    : [];
}

export function unknownServerMessage(tool: string, server: string, suggestion?: string): string {
  return `tool '${tool}' is bound to MCP server '${server}', which \`servers\` does not declare${didYouMean(suggestion)}`;
}

/** Why a bound tool's key reaches no server, or undefined when it does (or needs not). */
export function keyNowhere(name: string, tool: BoundTool, tools: (name: string) => BoundTool | undefined): string | undefined {
  if (!tool.mcp || tool.key === undefined || tool.mcp.keyArg !== undefined) return undefined;
  if (tool.class === "read" || tool.class === "idempotent") return undefined;
  if (tool.lookup !== undefined && tools(tool.lookup) !== undefined) return undefined;
  return `${tool.class} tool '${name}' has a \`key\` that never reaches its MCP server: its binding has no \`key_arg\` (the argument the server de-duplicates by) and it has no \`lookup\` that finds the effect by the key, so after a crash recovery cannot tell whether the effect happened; add \`key_arg\` to its \`mcp\` binding`;
}

/** Why a bound tool used as a lookup cannot be asked with the key, or undefined. */
export function lookupKeyNowhere(lookup: string, tool: BoundTool, by: readonly string[]): string | undefined {
  if (!tool.mcp || tool.mcp.keyArg !== undefined || by.length === 0) return undefined;
  const who = by.map((t) => `'${t}'`).join(", ");
  return `tool '${lookup}' is the lookup of ${who}: recovery asks it for the effect by key, but its MCP binding has no \`key_arg\` to pass the key in; add \`key_arg\` (the server tool's argument that takes the key)`;
}

/** Names like the ones credentials go by, in a header, a flag, a URL parameter. */
const SECRET_NAME = /(pass(word|wd)?|secret|token|api[_-]?key|apikey|auth|cookie|session|credential|private[_-]?key|signature|sig)$/i;
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|(token|secret|api[_-]?key|password|auth|session|credential)/i;
/** Credential-shaped text: auth schemes, `name=value` pairs named like secrets, JWTs, provider key prefixes, long random tokens. */
const CREDENTIAL_TEXT: readonly RegExp[] = [
  /\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/i,
  /\b[A-Za-z_-]*(pass(word|wd)?|secret|token|api[_-]?key|auth\w*|cookie|session|credential)s?\s*[=:]\s*\S+/i,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/,
  /\b(sk|pk|rk)[-_][A-Za-z0-9_-]{16,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bxox[abposr]-[A-Za-z0-9-]{10,}|\bAKIA[A-Z0-9]{16}\b/,
  /\b[A-Za-z0-9_=-]{32,}/,
];

export function credentialShaped(text: string): boolean {
  return CREDENTIAL_TEXT.some((pattern) => pattern.test(text));
}

/** A secret written in a server's declaration: where (the key path below the server) and why. */
export interface PlainSecret {
  at: (string | number)[];
  message: string;
}

const envName = (server: string, what: string) => `${server}_${what}`.toUpperCase().replace(/[^A-Z0-9_]/g, "_");

export function plainSecrets(name: string, server: ServerShape): PlainSecret[] {
  const found: PlainSecret[] = [];
  const stored = "the contract is committed and the plan is stored with every run";
  for (const [header, value] of server.headers ?? []) {
    if (value === undefined) continue;
    if (!SECRET_HEADER.test(header) && !credentialShaped(value)) continue;
    found.push({
      at: ["headers", header],
      message: `header '${header}' of MCP server '${name}' is written in plain text: ${stored}; take it from an environment variable of the worker: \`${header}: { env: ${envName(name, header)}${/^bearer\s/i.test(value) ? ', prefix: "Bearer "' : ""} }\``,
    });
  }
  if (server.url !== undefined) {
    const why = urlSecret(server.url);
    if (why)
      found.push({
        at: ["url"],
        message: `the URL of MCP server '${name}' holds ${why}: ${stored}; send it in a header taken from an environment variable (\`headers: { Authorization: { env: ${envName(name, "token")}, prefix: "Bearer " } }\`)`,
      });
  }
  (server.args ?? []).forEach((arg, i) => {
    const previous = i > 0 ? server.args![i - 1]! : undefined;
    const afterFlag = previous !== undefined && /^--?[A-Za-z]/.test(previous) && SECRET_NAME.test(previous.replace(/^-+/, ""));
    const flag = /^--?([A-Za-z][\w-]*)=(.+)$/.exec(arg);
    if (!afterFlag && !(flag && SECRET_NAME.test(flag[1]!)) && !credentialShaped(arg)) return;
    found.push({
      at: ["args", i],
      message: `argument ${i + 1} of MCP server '${name}' looks like a secret written in plain text: ${stored}, and a process's arguments are visible to every user of the machine; pass it in \`env\` (a name of the worker's environment the server reads)`,
    });
  });
  (server.env ?? []).forEach((entry, i) => {
    if (!entry.includes("=")) return;
    found.push({
      at: ["env", i],
      message: `\`env\` of MCP server '${name}' lists names, not values: '${entry.slice(0, entry.indexOf("="))}=…' writes the value in plain text (${stored}); list the name and set the variable in the worker's environment`,
    });
  });
  return found;
}

function urlSecret(url: string): string | undefined {
  const userinfo = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#@]*)@/.exec(url);
  if (userinfo) return userinfo[1]!.includes(":") ? "a user name and password" : "credentials before '@'";
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1).split("#")[0]! : "";
  for (const pair of query.split("&")) {
    const [key = "", value = ""] = pair.split("=");
    if (value !== "" && (SECRET_NAME.test(key) || credentialShaped(value))) return `a secret in its query ('${key}=…')`;
  }
  return undefined;
}

/** The tools that name `lookup` as theirs, by lookup name. */
function lookupsOf(tools: Iterable<[string, BoundTool]>): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const [name, tool] of tools) if (tool.lookup !== undefined) by.set(tool.lookup, [...(by.get(tool.lookup) ?? []), name]);
  return by;
}

const contractTool = (spec: { class: string; key?: string; lookup?: string; mcp?: { server: string; key_arg?: string } }): BoundTool => ({
  class: spec.class,
  key: spec.key,
  lookup: spec.lookup,
  mcp: spec.mcp ? { server: spec.mcp.server, keyArg: spec.mcp.key_arg } : undefined,
});

export function checkMcp(ctx: CheckContext): void {
  const { contract, sink } = ctx;
  const servers = contract.servers ?? {};
  const serverNames = Object.keys(servers);
  for (const [name, server] of Object.entries(servers)) {
    const shape: ServerShape = {
      ...server,
      headers: server.headers
        ? new Map(Object.entries(server.headers).map(([h, v]) => [h, typeof v === "string" ? v : undefined]))
        : undefined,
    };
    for (const problem of transportProblems(name, shape))
      sink.report("C100", problem.key ? ctx.keySpan(["servers", name, problem.key]) : ctx.keySpan(["servers", name]), problem.message);
    for (const secret of plainSecrets(name, shape)) sink.report("C102", ctx.valueSpan(["servers", name, ...secret.at]), secret.message);
  }
  const specs = contract.tools ?? {};
  const tools = new Map(Object.entries(specs).map(([name, spec]) => [name, contractTool(spec)]));
  const find = (name: string) => (Object.hasOwn(specs, name) ? tools.get(name) : undefined);
  const lookups = lookupsOf(tools);
  for (const [name, tool] of tools) {
    if (!tool.mcp) continue;
    if (!Object.hasOwn(servers, tool.mcp.server)) {
      const suggestion = closest(tool.mcp.server, serverNames, ctx.suggestions);
      const span = ctx.valueSpan(["tools", name, "mcp", "server"]);
      sink.report(
        "C100",
        span,
        unknownServerMessage(name, tool.mcp.server, suggestion),
        suggestion ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span, newText: suggestion }], safe: false }] } : {},
      );
    }
    const nowhere = keyNowhere(name, tool, find);
    if (nowhere) sink.report("C101", ctx.valueSpan(["tools", name, "key"]), nowhere);
    const lookupNowhere = lookupKeyNowhere(name, tool, lookups.get(name) ?? []);
    if (lookupNowhere) sink.report("C101", ctx.keySpan(["tools", name, "mcp"]), lookupNowhere);
  }
}

/** C100, C101 and C102 on a plan. */
export function planMcp(view: PlanView): void {
  const { plan } = view;
  const servers = new Map<string, number>();
  (plan.servers ?? []).forEach((server, i) => {
    if (!servers.has(server.name)) servers.set(server.name, i);
    const shape: ServerShape = {
      ...server,
      headers: server.headers ? new Map(server.headers.map((h) => [h.name, h.env === undefined ? h.value : undefined])) : undefined,
    };
    for (const problem of transportProblems(server.name, shape))
      view.report("C100", problem.key ? `/servers/${i}/${problem.key}` : `/servers/${i}`, problem.message);
    for (const secret of plainSecrets(server.name, shape)) {
      const [first, second] = secret.at;
      // a plan keeps headers as a list: point at the header's entry
      const j = first === "headers" ? (server.headers ?? []).findIndex((h) => h.name === second) : -1;
      view.report(
        "C102",
        first === "headers" ? `/servers/${i}/headers/${j}/value` : `/servers/${i}/${secret.at.map(String).map(pointerToken).join("/")}`,
        secret.message,
      );
    }
  });
  const tools = new Map(
    plan.tools.map((t) => [t.name, { class: t.class, key: t.key, lookup: t.lookup, mcp: t.mcp } satisfies BoundTool] as const),
  );
  const lookups = lookupsOf(tools);
  plan.tools.forEach((tool, i) => {
    if (!tool.mcp) return;
    const bound = tools.get(tool.name)!;
    if (!servers.has(tool.mcp.server)) view.report("C100", `/tools/${i}/mcp/server`, unknownServerMessage(tool.name, tool.mcp.server));
    const nowhere = keyNowhere(tool.name, bound, (n) => tools.get(n));
    if (nowhere) view.report("C101", `/tools/${i}/key`, nowhere);
    const lookupNowhere = lookupKeyNowhere(tool.name, bound, lookups.get(tool.name) ?? []);
    if (lookupNowhere) view.report("C101", `/tools/${i}/mcp`, lookupNowhere);
  });
}
