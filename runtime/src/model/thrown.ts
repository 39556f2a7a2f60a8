/**
 * What a thrown value says, read without trusting it. A handler may throw
 * anything: an object without a prototype (String() of it throws), an Error
 * whose `message` is a getter that throws or a symbol, a value whose
 * `toString` throws. Reading such a value must never throw in turn: the
 * worker (or the handler process reporting it) would then record the attempt
 * as crashed instead of as the handler's failure with its message. Imports
 * nothing, so a handler process (isolation/child-entry.ts) can load it.
 */

export interface ThrownText {
  name: string;
  message: string;
  code?: string;
}

export function describeThrown(err: unknown): ThrownText {
  if ((typeof err === "object" && err !== null) || typeof err === "function") {
    const message = readSafely(() => (err as { message?: unknown }).message);
    const name = readSafely(() => (err as { name?: unknown }).name);
    const code = readSafely(() => (err as { code?: unknown }).code);
    const shownName = typeof name === "string" && name !== "" ? name : "Error";
    if (typeof message === "string") return { name: shownName, message, ...(typeof code === "string" ? { code } : {}) };
  }
  const text = readSafely(() => String(err));
  return {
    name: "Error",
    message: typeof text === "string" ? text : `a thrown ${err === null ? "null" : typeof err} that cannot be shown as text`,
  };
}

function readSafely(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return undefined;
  }
}
