// Drill world for specs/market-entry-pack.task.yaml: the 48 approved sources and the workspace (no remote service).
import { exampleWorld } from "./example-world.mjs";

export default exampleWorld([]);
