/**
 * DOT -> SVG through Graphviz compiled to WebAssembly (@hpcc-js/wasm-graphviz):
 * a real Graphviz layout, no native binary, no hand-written layout. Kept in
 * its own module (the `@taskspec/compiler/svg` subpath) so importing the
 * compiler core never loads the WebAssembly build.
 */
import { Graphviz } from "@hpcc-js/wasm-graphviz";

let graphviz: Promise<Graphviz> | undefined;

export async function renderSvg(dot: string): Promise<string> {
  graphviz ??= Graphviz.load();
  return (await graphviz).dot(dot);
}
