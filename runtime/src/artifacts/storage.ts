/**
 * Artifact storage: every attempt writes into its own immutable directory
 * `runs/<run>/<unit>/a<n>/`. Files are created exclusively (never
 * overwritten) and never outside the attempt directory; reads re-hash against
 * the manifest, so bytes that do not hash to it are corrupt on every backend.
 * This file holds the interface and the local-directory backend (never
 * through a symlink); `pg-blobs.ts` and `s3.ts` are the backends for hosts
 * without a shared disk, `open.ts` picks one by its location.
 */
import { constants } from "node:fs";
import { lstat, mkdir, open, readFile, readdir, realpath, rmdir, unlink } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { RuntimeError } from "../errors.js";
import { sha256 } from "../model/identity.js";

/** A write the runtime refuses: undeclared artifact or a path escaping the attempt directory. */
export class ArtifactPathError extends RuntimeError {
  override readonly name = "ArtifactPathError";
}

/** A committed artifact whose bytes no longer hash to its manifest. */
export class CorruptArtifactError extends RuntimeError {
  override readonly name = "CorruptArtifactError";
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly actual: string | undefined,
  ) {
    super(
      actual === undefined
        ? `artifact ${path} is missing (manifest sha256 ${expected.slice(0, 12)})`
        : `artifact ${path} is corrupt: manifest sha256 ${expected.slice(0, 12)}, file hashes to ${actual.slice(0, 12)}`,
    );
  }
}

export interface StoredFile {
  path: string;
  sha256: string;
  size: number;
}

export interface ArtifactStorage {
  /**
   * What the run records and every host opens again (`open.ts`): the artifact
   * root for the local backend, `pg:` or an `s3://` URL for the others.
   */
  readonly location: string;
  /**
   * A local directory: a handler process works in `<root>/<attempt dir>`. For
   * the local backend it is the artifact root itself; for the others a
   * scratch directory of this host, never recorded.
   */
  readonly root: string;
  /** Creates `<dir>/<name>` exclusively; the file is fsynced before this resolves. */
  write(dir: string, name: string, data: Uint8Array): Promise<StoredFile>;
  /** Reads and checks the hash; CorruptArtifactError on mismatch or absence. */
  read(path: string, expectedSha256: string): Promise<Uint8Array>;
  /** Size of the file, or undefined when it does not exist. */
  size(path: string): Promise<number | undefined>;
  /** Every file under `runs/<run>/` (relative paths), for the orphan report. */
  listRunFiles(run: string): Promise<string[]>;
  /**
   * Removes these files (`taskspec gc`); a file already gone is not an error,
   * so an interrupted collection is repeated by running it again. Bytes that
   * another path still names (content-addressed backends) stay.
   */
  remove(paths: readonly string[]): Promise<void>;
  /** Releases connections and scratch space (backends that hold any). */
  close?(): Promise<void>;
}

/** An artifact file name: one path segment, no traversal, no hidden tricks. */
export function checkArtifactName(name: string): string | undefined {
  if (name.length === 0) return "an artifact name cannot be empty";
  if (isAbsolute(name) || name.startsWith("/") || /^[A-Za-z]:/.test(name)) return `absolute path ${JSON.stringify(name)}`;
  if (name.split(/[\\/]/).some((s) => s === ".." || s === ".")) return `path traversal in ${JSON.stringify(name)}`;
  if (/[\\/]/.test(name)) return `${JSON.stringify(name)} is not a single file name inside the attempt directory`;
  if (name.includes("\0")) return "NUL byte in artifact name";
  return undefined;
}

/**
 * An attempt directory (`runs/<run>/<unit>/a<n>[/i<k>]`) as a key for a
 * backend without directories: relative, plain segments only.
 */
export function checkAttemptDir(dir: string): string | undefined {
  const segments = dir.split("/");
  if (isAbsolute(dir) || segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\\") || s.includes("\0")))
    return `${JSON.stringify(dir)} is not a plain path inside the artifact root`;
  return undefined;
}

/** The run's files are everything under this prefix, on every backend. */
export function runPrefix(run: string): string {
  return `runs/${run}/`;
}

export class FsArtifactStorage implements ArtifactStorage {
  readonly location: string;
  constructor(
    readonly root: string,
    private readonly fsync = true,
  ) {
    this.location = resolve(root);
  }

  async write(dir: string, name: string, data: Uint8Array): Promise<StoredFile> {
    const problem = checkArtifactName(name);
    if (problem) throw new ArtifactPathError(`refused artifact write: ${problem}`);
    // containment is checked on the path before anything is created: a `..` in a run or unit id once made folders outside the root
    const lexical = relative(resolve(this.root), resolve(this.root, dir));
    if (lexical.startsWith("..") || isAbsolute(lexical) || lexical.split(sep).join("/") !== dir) {
      throw new ArtifactPathError(`refused artifact write: ${JSON.stringify(dir)} is not a plain path inside the artifact root`);
    }
    const absDir = join(this.root, dir);
    await mkdir(absDir, { recursive: true });
    await this.checkInsideRoot(absDir, dir);
    const rel = `${dir}/${name}`;
    const abs = join(absDir, name);
    let handle;
    try {
      handle = await open(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o444);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EEXIST")
        throw new ArtifactPathError(`refused artifact write: ${rel} already exists (attempt directories are immutable)`);
      if (code === "ELOOP") throw new ArtifactPathError(`refused artifact write: ${rel} is a symlink`);
      throw err;
    }
    try {
      await handle.writeFile(data);
      if (this.fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    return { path: rel, sha256: sha256(data), size: data.byteLength };
  }

  /** The attempt directory must resolve inside the root: no symlinked directory on the way. */
  private async checkInsideRoot(absDir: string, dir: string): Promise<void> {
    const [realRoot, realDir] = await Promise.all([realpath(this.root), realpath(absDir)]);
    const rel = relative(realRoot, realDir);
    if (rel.startsWith("..") || isAbsolute(rel) || rel.split(sep).join("/") !== dir) {
      throw new ArtifactPathError(`refused artifact write: ${dir} resolves outside its attempt directory (symlink)`);
    }
  }

  async read(path: string, expectedSha256: string): Promise<Uint8Array> {
    let data: Buffer;
    try {
      const st = await lstat(join(this.root, path));
      if (st.isSymbolicLink()) throw new CorruptArtifactError(path, expectedSha256, "symlink");
      data = await readFile(join(this.root, path));
    } catch (err) {
      if (err instanceof CorruptArtifactError) throw err;
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new CorruptArtifactError(path, expectedSha256, undefined);
      throw err;
    }
    const actual = sha256(data);
    if (actual !== expectedSha256) throw new CorruptArtifactError(path, expectedSha256, actual);
    return new Uint8Array(data);
  }

  async size(path: string): Promise<number | undefined> {
    try {
      return (await lstat(join(this.root, path))).size;
    } catch {
      return undefined;
    }
  }

  async remove(paths: readonly string[]): Promise<void> {
    const dirs = new Set<string>();
    for (const path of paths) {
      const problem = checkAttemptDir(path);
      if (problem) throw new ArtifactPathError(`refused artifact removal: ${problem}`);
      try {
        // never through a symlinked directory: what is unlinked lies inside the root
        await this.checkInsideRoot(join(this.root, dirname(path)), dirname(path));
        await unlink(join(this.root, path));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
      for (let d = dirname(path); d.split("/").length > 2; d = dirname(d)) dirs.add(d);
    }
    // attempt directories left empty go too, deepest first; one still holding a file stays
    for (const d of [...dirs].sort((a, b) => b.length - a.length))
      await rmdir(join(this.root, d)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOTEMPTY" && err.code !== "EEXIST" && err.code !== "ENOENT") throw err;
      });
  }

  async listRunFiles(run: string): Promise<string[]> {
    const base = join(this.root, "runs", run);
    try {
      const entries = await readdir(base, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => !e.isDirectory())
        .map((e) => relative(this.root, join(e.parentPath, e.name)).split(sep).join("/"))
        .sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
  }
}
