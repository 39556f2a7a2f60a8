// A notes service as an MCP server over stdio (the official SDK:
// `npm i @modelcontextprotocol/sdk`), standing in for a real one: `publish`
// (a second publish under the same key returns the first) and `find` (the
// note under a key, or nothing), kept in notes.json in its folder.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const db = "notes.json";
const load = () => (existsSync(db) ? JSON.parse(readFileSync(db, "utf8")) : { notes: [] });
const answer = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });
const url = (key) => `https://notes.example/${encodeURIComponent(key)}`;

const server = new Server({ name: "notes", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: "publish",
      description: "Publish a note; a second publish under the same key returns the first.",
      inputSchema: { type: "object", properties: { text: { type: "string" }, key: { type: "string" } }, required: ["text", "key"] },
      outputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    {
      name: "find",
      description: "The note under a key, or nothing.",
      inputSchema: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
      annotations: { readOnlyHint: true },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async ({ params: { name, arguments: args = {} } }) => {
  const state = load();
  const found = state.notes.find((n) => n.key === args.key);
  if (name === "find") return found ? answer({ url: url(found.key) }) : { content: [{ type: "text", text: "null" }] };
  if (name !== "publish") return { isError: true, content: [{ type: "text", text: `no tool ${name}` }] };
  if (!found) {
    state.notes.push({ key: args.key, text: args.text });
    writeFileSync(db, JSON.stringify(state));
  }
  return answer({ url: url(args.key) });
});
process.stdin.on("end", () => process.exit(0)); // the worker is gone: so is this server
await server.connect(new StdioServerTransport());
