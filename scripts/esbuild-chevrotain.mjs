// An esbuild plugin for the CLI's and the extension's bundles: the compiler's
// compiler/src/expr/chevrotain.ts loads chevrotain's single-file build by path
// with a top-level await, which only an unbundled checkout needs (a bundle
// holds chevrotain already, and the extension's CommonJS bundle cannot await
// at the top level). In a bundle that module is a plain re-export.
import { dirname } from "node:path";

const SHIM = /[\\/]compiler[\\/]dist[\\/]expr[\\/]chevrotain\.js$/;

export const chevrotainReexport = {
  name: "chevrotain-reexport",
  setup(build) {
    let replaced = 0;
    build.onLoad({ filter: SHIM }, (args) => {
      replaced++;
      return {
        contents: 'export { createToken, CstParser, EOF, Lexer } from "chevrotain";',
        resolveDir: dirname(args.path),
        loader: "js",
      };
    });
    // a renamed shim would be bundled as it is and fail at load time in the CommonJS bundle: say so at build time
    build.onEnd((result) => {
      if (result.errors.length === 0 && replaced === 0) {
        result.errors.push({ text: "chevrotain-reexport: compiler/dist/expr/chevrotain.js was not in the bundle; was it moved?" });
      }
    });
  },
};
