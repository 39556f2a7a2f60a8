/**
 * "The store could not be reached" as a fact any layer can ask about, by the
 * error's name at any depth of `cause`: the PostgreSQL backend throws
 * StoreUnavailableError, and an error that crossed a handler's IPC channel or
 * was wrapped by a caller still counts. The worker uses it to tell a store
 * hiccup from a handler's failure; `taskspec worker` to back off and carry on.
 */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e.name === "StoreUnavailableError") return true;
  return false;
}
