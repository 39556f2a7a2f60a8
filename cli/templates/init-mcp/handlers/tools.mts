// The tools module (`--tools dist/handlers/tools.mjs`): adapters of the tools
// hello.task.yaml does not bind to an MCP server. Both of its tools are bound
// (servers/notes-server.mjs), so there is none; the worker calls bound tools
// itself, through its ledger, and refuses a module that defines them too.
import type { ToolsModule } from "@taskspec/runtime";

const tools: ToolsModule = { tools: {} };

export default tools;
