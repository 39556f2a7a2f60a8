/**
 * The file probe for a contract on disk (C013): a path the contract names is
 * resolved against the contract's folder, as the runtime resolves a schema
 * verifier's `schema:` (its baseDir is the contract's directory), and must be
 * a regular file (a directory of that name is not a schema).
 */
import { realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { FileProbe } from "../check/files.js";

export function filesBeside(contractPath: string): FileProbe {
  const folder = dirname(resolve(contractPath));
  return {
    exists: (path) => {
      try {
        return statSync(resolve(folder, path), { throwIfNoEntry: false })?.isFile() === true;
      } catch {
        // a path no file can have (a NUL byte, a file used as a folder): nothing is there
        return false;
      }
    },
    // as the runtime decides (runtime/src/engine/verify.ts): both real paths, one relative to the other
    escapes: (path) => {
      try {
        const rel = relative(realpathSync(folder), realpathSync(resolve(folder, path)));
        return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
      } catch {
        // nothing there (C013 says so) or unreadable: no escape to report
        return false;
      }
    },
  };
}
