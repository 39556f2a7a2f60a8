/**
 * Artifact locations: a directory (the default, beside a SQLite store),
 * `pg:` (content-addressed blobs in the store's own PostgreSQL database) or
 * `s3://bucket/prefix?endpoint=...` (S3-compatible object storage). The run
 * records the location, never a host's scratch path, so every host and every
 * command (status, show, handoff, the drill) opens the same artifacts again.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RuntimeError } from "../errors.js";
import { parseS3Location } from "./s3-location.js";
import { FsArtifactStorage, type ArtifactStorage } from "./storage.js";

export type ArtifactLocation = { kind: "dir"; location: string } | { kind: "pg"; location: "pg:" } | { kind: "s3"; location: string };

/** What `--artifacts` names, normalised to what the run records; a RuntimeError saying what is wrong otherwise. */
export function artifactLocationOf(spec: string, cwd: string = process.cwd()): ArtifactLocation {
  if (spec === "pg:" || spec === "pg") return { kind: "pg", location: "pg:" };
  if (spec.startsWith("pg:"))
    throw new RuntimeError(`--artifacts ${spec}: write pg: alone (the blobs live in the store's own PostgreSQL database)`);
  if (spec.startsWith("s3:")) {
    const problem = parseS3Location(spec);
    if (typeof problem === "string") throw new RuntimeError(`--artifacts ${spec}: ${problem}`);
    return { kind: "s3", location: spec };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec))
    throw new RuntimeError(`--artifacts ${spec}: unknown location; use a directory, pg: or s3://bucket/prefix?endpoint=`);
  return { kind: "dir", location: resolve(cwd, spec) };
}

export interface OpenArtifactsOptions {
  /** The store's URL: `pg:` needs a postgres:// store. */
  storeUrl: string;
  /** Bound of the local read cache of the backends that keep one. */
  cacheBytes?: number;
}

/** Opens the backend a location names; close() it when done. */
export async function openArtifactStorage(location: string, o: OpenArtifactsOptions): Promise<ArtifactStorage> {
  const where = artifactLocationOf(location);
  if (where.kind === "dir") return new FsArtifactStorage(where.location);
  const scratch = await mkdtemp(join(tmpdir(), "taskspec-scratch-")).catch((err: unknown) => {
    throw new RuntimeError(`no scratch directory for handler processes under ${tmpdir()} (TMPDIR): ${(err as Error).message}`);
  });
  const removeScratch = () => rm(scratch, { recursive: true, force: true });
  let storage: ArtifactStorage & { init?(): Promise<void> };
  if (where.kind === "pg") {
    if (!/^postgres(ql)?:\/\//.test(o.storeUrl)) {
      await removeScratch();
      throw new RuntimeError("--artifacts pg: keeps artifacts in the store's PostgreSQL database, and this store is not PostgreSQL");
    }
    const { PgArtifactStorage } = await import("./pg-blobs.js");
    storage = new PgArtifactStorage({ url: o.storeUrl, scratch, ...(o.cacheBytes !== undefined ? { cacheBytes: o.cacheBytes } : {}) });
  } else {
    // loaded only when asked for: the SDK is large and most runs keep artifacts on disk
    const { S3ArtifactStorage } = await import("./s3.js");
    try {
      storage = new S3ArtifactStorage({ location: where.location, scratch });
    } catch (err) {
      await removeScratch();
      throw err;
    }
  }
  try {
    await storage.init?.();
  } catch (err) {
    await storage.close?.().catch(() => undefined);
    throw err;
  }
  return storage;
}
