/** Test helpers: fixtures with a cursor marker, analysed documents, the example contracts. */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LineIndex } from "@taskspec/compiler";
import type { Position } from "vscode-languageserver";
import { analyze, type Analysis } from "../src/service/analysis.js";

export const CURSOR = "‸";
export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const URI = "file:///work/example.task.yaml";

/** Splits `text` at its one cursor marker. */
export function withCursor(marked: string): { text: string; offset: number; position: Position } {
  const offset = marked.indexOf(CURSOR);
  if (offset < 0 || marked.indexOf(CURSOR, offset + 1) >= 0) throw new Error("fixture needs exactly one cursor marker");
  const text = marked.slice(0, offset) + marked.slice(offset + CURSOR.length);
  return { text, offset, position: new LineIndex(text).offsetToPosition(offset) };
}

export function analyzeText(text: string, version = 1, previous?: Analysis): Analysis {
  return analyze(URI, version, text, previous);
}

/** Analyses a marked fixture; returns the analysis and the cursor position. */
export function at(marked: string): { analysis: Analysis; position: Position; offset: number; text: string } {
  const { text, offset, position } = withCursor(marked);
  return { analysis: analyzeText(text), position, offset, text };
}

export function spec(name: string): string {
  return readFileSync(join(REPO, "specs", name), "utf8");
}

export function exampleSpecs(): string[] {
  return readdirSync(join(REPO, "specs")).filter((f) => f.endsWith(".task.yaml"));
}

export function invalidSpecs(): string[] {
  return readdirSync(join(REPO, "specs", "invalid")).filter((f) => f.endsWith(".task.yaml"));
}

/** The position of the n-th (0-based) occurrence of `needle` in `text`, plus `delta` characters. */
export function positionOf(text: string, needle: string, nth = 0, delta = 0): Position {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' occurs fewer than ${nth + 1} times`);
  }
  return new LineIndex(text).offsetToPosition(at + delta);
}
