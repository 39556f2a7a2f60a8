/**
 * Artifacts in S3-compatible object storage: each attempt's file is the
 * object `<prefix>/runs/<run>/<unit>/a<n>/<name>`. A write asks first whether
 * the key exists and then puts with `If-None-Match: *`, so a server that
 * honours conditional writes refuses a second writer atomically (one that
 * ignores it still has the first check); the body carries its SHA-256
 * checksum, so a server that verifies checksums rejects bytes damaged on the
 * way. Reads re-hash, as on disk (no local cache: a
 * cached copy could not tell whether the object still holds those bytes
 * without a request of its own). Credentials come from the AWS SDK's usual
 * sources (environment, profile) and are never part of the recorded location.
 */
import { rm } from "node:fs/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { RuntimeError } from "../errors.js";
import { parseS3Location, type S3Location } from "./s3-location.js";
import { sha256 } from "../model/identity.js";
import {
  ArtifactPathError,
  checkArtifactName,
  checkAttemptDir,
  CorruptArtifactError,
  runPrefix,
  type ArtifactStorage,
  type StoredFile,
} from "./storage.js";

export interface S3ArtifactOptions {
  location: string;
  /** The local directory handler processes work in (never recorded); this storage removes it on close. */
  scratch: string;
}

export class S3ArtifactStorage implements ArtifactStorage {
  readonly location: string;
  readonly root: string;
  private readonly where: S3Location;
  private readonly client: S3Client;

  constructor(o: S3ArtifactOptions) {
    const where = parseS3Location(o.location);
    if (typeof where === "string") throw new RuntimeError(`--artifacts: ${where}`);
    this.where = where;
    this.location = o.location;
    this.root = o.scratch;
    // the SDK warns on every process that its releases of next year need a newer Node; this one is pinned
    process.env["AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED"] ??= "true";
    this.client = new S3Client({
      region: where.region ?? process.env["AWS_REGION"] ?? "us-east-1",
      ...(where.endpoint ? { endpoint: where.endpoint, forcePathStyle: true } : {}),
    });
  }

  private key(path: string): string {
    return this.where.prefix ? `${this.where.prefix}/${path}` : path;
  }

  async write(dir: string, name: string, data: Uint8Array): Promise<StoredFile> {
    const problem = checkArtifactName(name) ?? checkAttemptDir(dir);
    if (problem) throw new ArtifactPathError(`refused artifact write: ${problem}`);
    const path = `${dir}/${name}`;
    const exists = new ArtifactPathError(`refused artifact write: ${path} already exists (attempt directories are immutable)`);
    if ((await this.size(path)) !== undefined) throw exists;
    const digest = sha256(data);
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.where.bucket,
          Key: this.key(path),
          Body: data,
          IfNoneMatch: "*",
          ChecksumSHA256: Buffer.from(digest, "hex").toString("base64"),
        }),
      );
    } catch (err) {
      if (statusOf(err) === 412) throw exists;
      throw err;
    }
    return { path, sha256: digest, size: data.byteLength };
  }

  async read(path: string, expectedSha256: string): Promise<Uint8Array> {
    let bytes: Uint8Array;
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.where.bucket, Key: this.key(path) }));
      if (!got.Body) throw new CorruptArtifactError(path, expectedSha256, undefined);
      bytes = await got.Body.transformToByteArray();
    } catch (err) {
      if (statusOf(err) === 404) throw new CorruptArtifactError(path, expectedSha256, undefined);
      throw err;
    }
    const actual = sha256(bytes);
    if (actual !== expectedSha256) throw new CorruptArtifactError(path, expectedSha256, actual);
    return bytes;
  }

  async size(path: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.where.bucket, Key: this.key(path) }));
      return head.ContentLength;
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw err;
    }
  }

  async listRunFiles(run: string): Promise<string[]> {
    const prefix = this.key(runPrefix(run));
    const strip = this.where.prefix ? this.where.prefix.length + 1 : 0;
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.where.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key.slice(strip));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }

  /** One request a file: DeleteObject of a missing key succeeds, as the interface asks. */
  async remove(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      const problem = checkAttemptDir(path);
      if (problem) throw new ArtifactPathError(`refused artifact removal: ${problem}`);
      await this.client.send(new DeleteObjectCommand({ Bucket: this.where.bucket, Key: this.key(path) }));
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
    await rm(this.root, { recursive: true, force: true });
  }
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof S3ServiceException) return err.$metadata.httpStatusCode;
  return (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}
