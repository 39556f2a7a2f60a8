// The CLI as a function, main(argv) -> exit code. An installed package (no
// src/, see "files") runs the esbuild bundle that prepack built in
// dist/bundle; a repository checkout runs tsc's dist/, so a bundle left there
// by `npm pack` is never what the checkout runs.
import { existsSync } from "node:fs";
const checkout = existsSync(new URL("../src/", import.meta.url));
export const { main } = await import(checkout ? "../dist/main.js" : "../dist/bundle/main.js");
