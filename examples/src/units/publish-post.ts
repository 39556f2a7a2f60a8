/**
 * The unit handlers of specs/publish-post.task.yaml alone, for the split layout
 * (`--handlers` this, `--tools ../tools/publish-post.js`): imported only in handler
 * processes. ../handlers/publish-post.ts is the one-module layout the tests and
 * drills use (units, tools and inputs in one module).
 */
import type { UnitsModule } from "@taskspec/runtime";
import handlers from "../handlers/publish-post.js";

const units: UnitsModule = { units: handlers.units };

export default units;
