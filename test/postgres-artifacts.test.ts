/**
 * Every artifact backend keeps the same promises (runtime/src/artifacts/):
 * the local directory, content-addressed blobs in PostgreSQL and
 * S3-compatible object storage (a real s3rver that scripts/with-postgres.sh
 * starts). One table of cases, run against each: exclusive writes, no path
 * outside the attempt directory, bytes that no longer hash to the manifest
 * are corrupt, a missing file is missing, a run's files are its own, and a
 * second process ("another host") reads what the first wrote. Needs
 * TASKSPEC_PG_URL and TASKSPEC_S3_URL; skips loudly without them.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openArtifactStorage } from "../runtime/src/artifacts/open.js";
import { parseS3Location } from "../runtime/src/artifacts/s3-location.js";
import { ArtifactPathError, CorruptArtifactError, type ArtifactStorage } from "../runtime/src/artifacts/storage.js";
import { sha256 } from "../runtime/src/model/identity.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

const pgUrl = process.env["TASKSPEC_PG_URL"];
const s3Url = process.env["TASKSPEC_S3_URL"];
const s3Missing = s3Url ? undefined : "TASKSPEC_S3_URL is not set (scripts/with-postgres.sh starts an S3 server)";
const bytes = (s: string) => new Uint8Array(Buffer.from(s));

/** How a test reaches behind a backend: damage a file's bytes, remove it. */
interface Backend {
  name: string;
  /** The location a run would record, opened as a fresh process would. */
  location: string;
  storeUrl: string;
  tamper(path: string, data: Uint8Array): Promise<void>;
  remove(path: string): Promise<void>;
  close(): Promise<void>;
}

function dirBackend(): Backend {
  const root = mkdtempSync(join(tmpdir(), "taskspec-art-"));
  return {
    name: "directory",
    location: root,
    storeUrl: "sqlite::memory:",
    tamper: async (path, data) => {
      chmodSync(join(root, path), 0o644);
      writeFileSync(join(root, path), data);
    },
    remove: async (path) => rmSync(join(root, path)),
    close: async () => rmSync(root, { recursive: true, force: true }),
  };
}

function pgBackend(url: string): Backend {
  const schema = `art_${process.pid}_${Date.now()}`;
  const pool = new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` });
  return {
    name: "PostgreSQL blobs",
    location: "pg:",
    storeUrl: `${url}?schema=${schema}`,
    tamper: async (path, data) => {
      await pool.query("UPDATE artifact_blobs SET data = $2 WHERE sha256 = (SELECT sha256 FROM artifact_files WHERE path = $1)", [
        path,
        Buffer.from(data),
      ]);
    },
    remove: async (path) => void (await pool.query("DELETE FROM artifact_files WHERE path = $1", [path])),
    close: () => pool.end(),
  };
}

function s3Backend(url: string): Backend {
  const where = parseS3Location(url);
  if (typeof where === "string") throw new Error(where);
  const prefix = `t${process.pid}-${Date.now()}`;
  const client = new S3Client({ region: "us-east-1", endpoint: where.endpoint!, forcePathStyle: true });
  const key = (path: string) => `${prefix}/${path}`;
  const location = url.replace("s3://taskspec", `s3://taskspec/${prefix}`);
  return {
    name: "S3 (s3rver)",
    location,
    storeUrl: "sqlite::memory:",
    tamper: async (path, data) => void (await client.send(new PutObjectCommand({ Bucket: where.bucket, Key: key(path), Body: data }))),
    remove: async (path) => void (await client.send(new DeleteObjectCommand({ Bucket: where.bucket, Key: key(path) }))),
    close: async () => client.destroy(),
  };
}

function conformance(make: () => Backend): void {
  const b = make();
  const opened: ArtifactStorage[] = [];
  const open = async () => {
    const s = await openArtifactStorage(b.location, { storeUrl: b.storeUrl });
    opened.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of opened) await s.close?.();
    await b.close();
  });

  it("records its location, and reads back what it wrote with its hash and size", async () => {
    const s = await open();
    expect(s.location).toBe(b.location);
    const data = bytes('{"a":1}');
    const stored = await s.write("runs/r1/u/a1", "out.json", data);
    expect(stored).toEqual({ path: "runs/r1/u/a1/out.json", sha256: sha256(data), size: data.byteLength });
    expect(Buffer.from(await s.read(stored.path, stored.sha256)).toString()).toBe('{"a":1}');
    expect(await s.size(stored.path)).toBe(data.byteLength);
    expect(await s.size("runs/r1/u/a1/none.json")).toBeUndefined();
  });

  it("a second process (another host, no shared disk) reads the same bytes", async () => {
    const [w, r] = [await open(), await open()];
    const stored = await w.write("runs/r2/u/a1", "x.txt", bytes("hello"));
    expect(Buffer.from(await r.read(stored.path, stored.sha256)).toString()).toBe("hello");
  });

  it("refuses a second write of a file: attempt directories are immutable", async () => {
    const s = await open();
    await s.write("runs/r3/u/a1", "x.txt", bytes("one"));
    await expect(s.write("runs/r3/u/a1", "x.txt", bytes("two"))).rejects.toThrow(/already exists \(attempt directories are immutable\)/);
    const again = await open();
    expect(Buffer.from(await again.read("runs/r3/u/a1/x.txt", sha256(bytes("one")))).toString()).toBe("one");
  });

  it.each([
    ["runs/r4/u/a1", "../escape.txt", /path traversal/],
    ["runs/r4/u/a1", "sub/x.txt", /not a single file name/],
    ["runs/r4/../../etc", "x.txt", /not a plain path inside the artifact root/],
    ["/tmp/abs", "x.txt", /not a plain path inside the artifact root/],
  ])("refuses dir %s name %s", async (dir, name, message) => {
    const s = await open();
    const err = await s.write(dir, name, bytes("x")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArtifactPathError);
    expect((err as Error).message).toMatch(message);
  });

  it("bytes that no longer hash to the manifest are corrupt, also for a process that read them before", async () => {
    const [s, early] = [await open(), await open()];
    const stored = await s.write("runs/r5/u/a1", "x.txt", bytes("good"));
    await early.read(stored.path, stored.sha256);
    await b.tamper(stored.path, bytes("evil"));
    for (const reader of [early, await open()]) {
      const err = await reader.read(stored.path, stored.sha256).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CorruptArtifactError);
      expect((err as CorruptArtifactError).actual).toBe(sha256(bytes("evil")));
    }
  });

  it("a removed file is missing", async () => {
    const s = await open();
    const stored = await s.write("runs/r6/u/a1", "x.txt", bytes("here"));
    await b.remove(stored.path);
    const err = await s.read(stored.path, stored.sha256).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CorruptArtifactError);
    expect((err as CorruptArtifactError).actual).toBeUndefined();
    expect(await s.size(stored.path)).toBeUndefined();
  });

  it("lists a run's files (the orphan report), and only that run's", async () => {
    const s = await open();
    await s.write("runs/r7/u/a1", "b.txt", bytes("b"));
    await s.write("runs/r7/u/a1/i1", "a.txt", bytes("a"));
    await s.write("runs/r7/v/a2", "c.txt", bytes("c"));
    await s.write("runs/r70/u/a1", "other.txt", bytes("o"));
    expect(await (await open()).listRunFiles("r7")).toEqual(["runs/r7/u/a1/b.txt", "runs/r7/u/a1/i1/a.txt", "runs/r7/v/a2/c.txt"]);
    expect(await s.listRunFiles("nothing")).toEqual([]);
  });

  it("gc removes files for every reader; a file already gone is no error; the run's other files stay", async () => {
    const [s, other] = [await open(), await open()];
    const gone = await s.write("runs/r8/u/a1", "old.txt", bytes("superseded"));
    await s.write("runs/r8/u/a1/i1", "draft.txt", bytes("rejected"));
    const kept = await s.write("runs/r8/u/a2", "new.txt", bytes("current"));
    await s.remove([gone.path, "runs/r8/u/a1/i1/draft.txt", "runs/r8/u/a9/never-written.txt"]);
    await other.remove([gone.path]);
    expect(await other.listRunFiles("r8")).toEqual([kept.path]);
    expect(await other.size(gone.path)).toBeUndefined();
    expect((await s.read(gone.path, gone.sha256).catch((e: unknown) => e)) instanceof CorruptArtifactError).toBe(true);
    expect(Buffer.from(await other.read(kept.path, kept.sha256)).toString()).toBe("current");
  });

  it("gc refuses a path outside the artifact root", async () => {
    const s = await open();
    await expect(s.remove(["runs/r9/../../etc/passwd"])).rejects.toThrow(/not a plain path inside the artifact root/);
  });
}

describe("artifacts in a directory", () => conformance(dirBackend));

describeIfAvailable("artifacts as blobs in PostgreSQL", postgresMissing(), () => {
  conformance(() => pgBackend(pgUrl!));

  it("keeps one blob for the same bytes under any path, written once", async () => {
    const b = pgBackend(pgUrl!);
    const s = await openArtifactStorage("pg:", { storeUrl: b.storeUrl });
    try {
      const data = bytes("same bytes");
      await s.write("runs/d1/u/a1", "x.txt", data);
      await s.write("runs/d2/v/a3", "y.txt", data);
      const pool = new pg.Pool({
        connectionString: b.storeUrl.replace(/\?schema=(.*)$/, ""),
        options: `-c search_path=${/schema=(.*)$/.exec(b.storeUrl)![1]}`,
      });
      const counts = (
        await pool.query("SELECT (SELECT count(*) FROM artifact_blobs)::int AS blobs, (SELECT count(*) FROM artifact_files)::int AS files")
      ).rows[0];
      await pool.end();
      expect(counts).toEqual({ blobs: 1, files: 2 });
    } finally {
      await s.close?.();
      await b.close();
    }
  });

  it("gc keeps a blob another path still names, and removes it with the last path", async () => {
    const b = pgBackend(pgUrl!);
    const s = await openArtifactStorage("pg:", { storeUrl: b.storeUrl });
    const pool = new pg.Pool({
      connectionString: b.storeUrl.replace(/\?schema=(.*)$/, ""),
      options: `-c search_path=${/schema=(.*)$/.exec(b.storeUrl)![1]}`,
    });
    const blobs = async () => (await pool.query("SELECT count(*)::int AS n FROM artifact_blobs")).rows[0].n as number;
    try {
      const data = bytes("shared bytes");
      const first = await s.write("runs/g1/u/a1", "x.txt", data);
      const second = await s.write("runs/g2/v/a1", "y.txt", data);
      await s.remove([first.path]);
      expect(await blobs()).toBe(1);
      expect(Buffer.from(await s.read(second.path, second.sha256)).toString()).toBe("shared bytes");
      await s.remove([second.path]);
      expect(await blobs()).toBe(0);
    } finally {
      await pool.end();
      await s.close?.();
      await b.close();
    }
  });

  it("pg: needs a PostgreSQL store", async () => {
    await expect(openArtifactStorage("pg:", { storeUrl: "sqlite:x.db" })).rejects.toThrow(
      /store's PostgreSQL database, and this store is not PostgreSQL/,
    );
  });
});

describeIfAvailable("artifacts in S3-compatible storage", s3Missing, () => conformance(() => s3Backend(s3Url!)));
