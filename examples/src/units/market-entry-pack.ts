/**
 * The unit handlers of specs/market-entry-pack.task.yaml alone, for the split layout
 * (`--handlers` this, `--tools ../tools/market-entry-pack.js`): imported only in handler
 * processes. ../handlers/market-entry-pack.ts is the one-module layout the tests and
 * drills use (units, tools and inputs in one module).
 */
import type { UnitsModule } from "@taskspec/runtime";
import handlers from "../handlers/market-entry-pack.js";

const units: UnitsModule = { units: handlers.units };

export default units;
