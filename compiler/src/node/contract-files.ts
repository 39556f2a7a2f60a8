/**
 * The file probe for a contract on disk (C013): a path the contract names is
 * resolved against the contract's folder, as the runtime resolves a schema
 * verifier's `schema:` (its baseDir is the contract's directory), and must be
 * a regular file (a directory of that name is not a schema).
 */
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
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
  };
}
