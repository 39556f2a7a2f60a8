/**
 * The tools module of specs/market-entry-pack.task.yaml (`--tools`): the
 * tool adapters, which run in the worker, apart from the unit handlers
 * (../handlers/market-entry-pack.ts), which run in handler processes.
 */
import type { ToolsModule } from "@taskspec/runtime";
import { workspaceTools } from "../handlers/workspace-tools.js";

const tools: ToolsModule = {
  tools: { fetch_page: workspaceTools.fetch_page!, write_file: workspaceTools.write_file! },
};

export default tools;
