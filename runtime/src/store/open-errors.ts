/**
 * Store failures as user errors: a file that is not SQLite, a directory, a
 * read-only or permission-less place, a full disk, a damaged file, a
 * PostgreSQL server that refuses or rejects the credentials. Each becomes one
 * StoreError naming the store (password redacted) and what to do, instead of
 * a driver error with a stack. The mapping is data (codes to problems), kept
 * apart from the backends so both share it.
 */
import { accessSync, constants, lstatSync, mkdirSync, statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { RuntimeError } from "../errors.js";

export const STORE_PROBLEMS = [
  "not-a-database",
  "directory",
  "not-a-file",
  "permission",
  "read-only",
  "full",
  "corrupt",
  "io",
  "busy",
  "unreachable",
  "credentials",
  "no-database",
  "no-folder",
  "connection-lost",
] as const;
export type StoreProblem = (typeof STORE_PROBLEMS)[number];

/** What the user reads after "the store X": the cause and the way out, per problem. */
const ADVICE: Record<StoreProblem, string> = {
  "not-a-database": "is not an SQLite database; point --store at a taskspec store file, or move this file away",
  directory: "is a directory; name a file in it, e.g. sqlite:<dir>/store.db",
  "not-a-file": "is not a regular file (a device, FIFO or socket); name a regular file",
  permission: "cannot be opened or written: permission denied; fix the permissions or choose another --store",
  "read-only": "is on a read-only location; choose a writable --store",
  full: "is out of space: the change in progress was not written and everything committed before it is kept; free space, then resume",
  corrupt: "is damaged (its pages do not read back); restore it from a backup (the sqlite3 shell's .recover may save what is left)",
  io: "could not be read or written (an I/O error); check the disk, then retry",
  busy: "is locked by another process for longer than the busy timeout; retry when it is done",
  unreachable: "is unreachable; check the host and port, then retry (nothing was written)",
  credentials: "refused the credentials; check the user and password in the URL (or PGPASSWORD)",
  "no-database": "has no such database; create it first (createdb) or fix the name in the URL",
  "no-folder": "cannot be created: its folder cannot be made; choose another --store",
  "connection-lost":
    "lost its connection during a write: that write was not made, and everything committed before it is kept; repeat the command once the server is reachable",
};

/** A store that cannot be opened or written; `store` is the URL as shown (password redacted). */
export class StoreError extends RuntimeError {
  override readonly name = "StoreError";
  constructor(
    readonly store: string,
    readonly problem: StoreProblem,
    readonly detail: string,
  ) {
    super(`the store ${store} ${ADVICE[problem]}${detail ? ` (${oneLine(detail)})` : ""}`);
  }
}

const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim().slice(0, 200);

/** `postgres://user:secret@host/db` -> `postgres://user:***@host/db`; anything unparsable is shown without credentials. */
export function redactStoreUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//***@");
  }
}

/** SQLite result codes (better-sqlite3's `code`, extended codes included), POSIX and PostgreSQL codes. */
const BY_CODE: ReadonlyArray<readonly [RegExp, StoreProblem]> = [
  [/^SQLITE_NOTADB/, "not-a-database"],
  [/^SQLITE_CORRUPT/, "corrupt"],
  [/^SQLITE_FULL|^ENOSPC$|^EDQUOT$|^53100$/, "full"],
  [/^SQLITE_READONLY|^EROFS$/, "read-only"],
  [/^SQLITE_PERM|^SQLITE_AUTH|^EACCES$|^EPERM$|^42501$/, "permission"],
  [/^SQLITE_IOERR|^EIO$/, "io"],
  [/^SQLITE_BUSY|^SQLITE_LOCKED/, "busy"],
  [/^EISDIR$/, "directory"],
  [/^28P01$|^28000$/, "credentials"],
  [/^3D000$/, "no-database"],
  [/^ECONNREFUSED$|^ENOTFOUND$|^EHOSTUNREACH$|^ETIMEDOUT$|^EAI_AGAIN$/, "unreachable"],
];

/** The problem a driver or file-system error stands for, or undefined when it is not a store failure (a bug). */
export function storeProblemOf(err: unknown): StoreProblem | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  return BY_CODE.find(([re]) => re.test(code))?.[1];
}

/**
 * `err` as a StoreError for `url` when it is a store failure; SQLITE_CANTOPEN
 * is refined by looking at the path (a directory, a missing folder, no access).
 */
export function storeErrorOf(err: unknown, url: string, path?: string): StoreError | undefined {
  if (err instanceof StoreError) return err;
  const shown = redactStoreUrl(url);
  const detail = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "SQLITE_CANTOPEN" || (path && /directory does not exist|unable to open database/.test(detail))) {
    return new StoreError(shown, path ? cantOpenProblem(path) : "permission", detail);
  }
  const problem = storeProblemOf(err);
  if (!problem) return undefined;
  // SQLite reports a full disk while growing its shared-memory file as an I/O error
  return new StoreError(
    shown,
    problem === "io" && path && diskIsFull(path) ? "full" : problem,
    detail.startsWith(String(code)) ? detail : `${String(code)}: ${detail}`,
  );
}

/** No block left for an unprivileged writer on the file system holding `path`. */
function diskIsFull(path: string): boolean {
  try {
    return statfsSync(dirname(path)).bavail === 0;
  } catch {
    return false;
  }
}

/** Why SQLite could not open `path`: a directory, a read-only file system, or no access to the file or its folder. */
function cantOpenProblem(path: string): StoreProblem {
  if (statOrUndefined(path)?.isDirectory()) return "directory";
  for (const p of [path, dirname(path)]) {
    try {
      accessSync(p, constants.R_OK | constants.W_OK);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === "EROFS") return "read-only";
      if (code === "EACCES" || code === "EPERM") return "permission";
    }
  }
  return "permission";
}

/**
 * Checks an SQLite store path before the driver opens it, and creates its
 * folder one level at a time. Node's recursive mkdir never returns under
 * /proc (`sqlite:/proc/x/y.db` spun at 100 % CPU), and a FIFO or device given
 * as the store would block or stream forever inside the driver.
 */
export function prepareSqlitePath(url: string, path: string): void {
  const shown = redactStoreUrl(url);
  const existing = lstatOrUndefined(path);
  if (existing) {
    const target = existing.isSymbolicLink() ? statOrUndefined(path) : existing;
    if (target?.isDirectory()) throw new StoreError(shown, "directory", "");
    if (target && !target.isFile()) throw new StoreError(shown, "not-a-file", "");
    return;
  }
  const missing: string[] = [];
  let dir = dirname(path);
  for (;;) {
    const st = statOrUndefined(dir);
    if (st) {
      if (!st.isDirectory()) throw new StoreError(shown, "no-folder", `${dir} is not a directory`);
      break;
    }
    missing.unshift(dir);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (err) {
      if ((err as { code?: unknown }).code === "EEXIST") continue;
      throw storeErrorOf(err, url) ?? new StoreError(shown, "no-folder", (err as Error).message);
    }
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
