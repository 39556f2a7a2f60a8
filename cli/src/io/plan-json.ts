/**
 * A plan as the JSON `compile` writes: indented two spaces down to a depth
 * no real plan's data goes below (the three example plans print byte for
 * byte as `JSON.stringify(plan, null, 2)` would), compact beneath it. A
 * compiled expression is a tree as deep as the expression is long, and a
 * long legal check indented whole is mostly indentation.
 *
 * The text is written out in pieces of about a megabyte as it is made: a
 * large plan's JSON is many times its contract, and holding it whole (with
 * the pieces it was joined from) was most of a large compile's memory.
 */
import type { Output } from "./write-output.js";

const INDENTED_LEVELS = 12;
const PIECE = 1 << 20;

export function writePlanJson(plan: unknown, out: Pick<Output, "write">): void {
  let pending = "";
  const emit = (text: string) => {
    pending += text;
    if (pending.length >= PIECE) {
      out.write(pending);
      pending = "";
    }
  };
  indented(plan, INDENTED_LEVELS, "", emit);
  out.write(`${pending}\n`);
}

/** Whether `value` is written by JSON.stringify itself (a scalar, a toJSON, or below the indented levels). */
const isLeaf = (value: unknown, levels: number) =>
  levels === 0 || value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function";

/** Emits `value` as JSON, as `JSON.stringify(value, null, 2)` would down to `levels`; a left-out leaf becomes null. */
function indented(value: unknown, levels: number, indent: string, emit: (text: string) => void): void {
  if (isLeaf(value, levels)) {
    emit((JSON.stringify(value) as string | undefined) ?? "null");
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return emit("[]");
    value.forEach((v: unknown, i) => {
      emit(`${i > 0 ? "," : "["}\n${inner}`);
      indented(v, levels - 1, inner, emit);
    });
    return emit(`\n${indent}]`);
  }
  let first = true;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    // a key whose value JSON leaves out (undefined, a function) is left out
    const leaf = isLeaf(v, levels - 1) ? (JSON.stringify(v) as string | undefined) : null;
    if (leaf === undefined) continue;
    emit(`${first ? "{" : ","}\n${inner}${JSON.stringify(key)}: ${leaf ?? ""}`);
    first = false;
    if (leaf === null) indented(v, levels - 1, inner, emit);
  }
  emit(first ? "{}" : `\n${indent}}`);
}
