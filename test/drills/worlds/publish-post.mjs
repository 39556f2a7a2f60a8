// Drill world for specs/publish-post.task.yaml: the blog, the pages, the workspace.
import { exampleWorld } from "./example-world.mjs";

export default exampleWorld(["blog"]);
