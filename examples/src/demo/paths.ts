/** Where the demo finds the repository's pieces, from its built location (examples/dist/demo/). */
import { fileURLToPath } from "node:url";

const root = new URL("../../../", import.meta.url);

export const REPO_ROOT = fileURLToPath(root);
export const TASKSPEC_BIN = fileURLToPath(new URL("cli/bin/taskspec.js", root));
export const SPEC = (name: string): string => fileURLToPath(new URL(`specs/${name}.task.yaml`, root));
export const HANDLERS = (name: string): string => fileURLToPath(new URL(`examples/dist/handlers/${name}.js`, root));
/** The verifier module of an example with model verifiers (`--verifiers`): loaded by the worker, apart from the handlers. */
export const VERIFIERS = (name: string): string => fileURLToPath(new URL(`examples/dist/verifiers/${name}.js`, root));
/** An example's tools module (`--tools`): its tool adapters and input readers, loaded by the worker, apart from the handlers. */
export const TOOLS = (name: string): string => fileURLToPath(new URL(`examples/dist/tools/${name}.js`, root));
/** An example's unit handlers alone (`--handlers` beside `--tools`): imported only in handler processes. */
export const UNITS = (name: string): string => fileURLToPath(new URL(`examples/dist/units/${name}.js`, root));
