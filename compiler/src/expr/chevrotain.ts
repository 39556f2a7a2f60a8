/**
 * chevrotain, loaded from the single-file build its package ships
 * (lib/chevrotain.mjs: the same version and code as its entry). The package's
 * entry imports lodash-es module by module, several hundred files, which makes
 * every process that compiles a contract from this checkout spend most of its
 * start-up resolving them (bench/RESULTS.md, "process start-up of a checkout"); the tests
 * and drills start thousands of such processes. The package's exports map
 * does not name the single file, so it is found beside the entry.
 *
 * The CLI's and the extension's bundles replace this module with a plain
 * re-export (scripts/esbuild-chevrotain.mjs): a bundle holds chevrotain
 * already, and the extension's CommonJS bundle cannot await at the top level.
 * Every runtime use of chevrotain goes through here, so there is one copy of
 * its classes in a process.
 */
import type * as Chevrotain from "chevrotain";

async function load(): Promise<typeof Chevrotain> {
  if (typeof import.meta.resolve === "function") {
    try {
      return (await import(new URL("../chevrotain.mjs", import.meta.resolve("chevrotain")).href)) as typeof Chevrotain;
    } catch {
      // a layout without the single file (another chevrotain release): the entry below works everywhere
    }
  }
  return import("chevrotain");
}

const chevrotain = await load();

export const { createToken, CstParser, EOF, Lexer } = chevrotain;
