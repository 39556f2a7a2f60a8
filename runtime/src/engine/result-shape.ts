/**
 * Handler results are data: plain JSON (null, booleans, finite numbers,
 * strings, arrays, plain objects), acyclic. Anything else is "garbage" and
 * fails the attempt with class `invalid-result` instead of reaching a checkpoint.
 */
export function resultProblem(value: unknown, path = "result", seen = new Set<object>()): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${path} is ${value}, not a finite number`;
  if (typeof value !== "object") return `${path} is a ${typeof value}, not JSON data`;
  if (seen.has(value)) return `${path} is a cycle`;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const p = resultProblem(v, `${path}[${i}]`, seen);
      if (p) return p;
    }
  } else {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null)
      return `${path} is a ${(value as object).constructor?.name ?? "class instance"}, not a plain object`;
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const p = resultProblem(v, `${path}.${k}`, seen);
      if (p) return p;
    }
  }
  seen.delete(value);
  return undefined;
}
