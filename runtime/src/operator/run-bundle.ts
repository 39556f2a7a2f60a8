/**
 * A run bundle: one self-contained file with everything a store keeps of one
 * run (store/run-rows.ts: the plan, units, attempts, effects with their
 * receipts, approvals, decisions, the event log), the contract's text, and
 * the artifacts' bytes beside their manifests and hashes; a format version
 * and a digest over all of it. `taskspec handoff --bundle` writes one,
 * `taskspec import` loads it into another store for offline reproduction.
 *
 * The imported run is a copy to read, not a second place to carry the work
 * on: its effects were made by the original store's workers, so its origin
 * records the import and `importedRunRefusal` keeps `resume`, `run` and the
 * workers from driving it (docs/operator.md, "Run bundles").
 */
import { RuntimeError } from "../errors.js";
import { canonicalJson, sha256 } from "../model/identity.js";
import type { RunRow } from "../model/facts.js";
import type { ArtifactStorage } from "../artifacts/storage.js";
import { RUN_TABLE_NAMES, type RunRows } from "../store/run-rows.js";
import type { Store } from "../store/types.js";

export const BUNDLE_FORMAT = "taskspec-run-bundle";
/** The newest bundle format this version writes and reads. */
export const BUNDLE_VERSION = 1;

export interface BundledArtifact {
  path: string;
  sha256: string;
  size: number;
  /** The bytes, base64; absent when the store had none to give (`missing` says why). */
  bytes?: string;
  missing?: string;
}

export interface RunBundle {
  format: typeof BUNDLE_FORMAT;
  version: number;
  run: string;
  exportedAt: string;
  /** The contract the run was driven with, when its file could be read at export. */
  contract?: { path: string; text: string };
  rows: RunRows;
  artifacts: BundledArtifact[];
  /** sha256 of the canonical JSON of every other field. */
  digest: string;
}

/** What the importing store records of where the run came from (in the run's origin). */
export interface ImportedFrom {
  digest: string;
  exportedAt: string;
  importedAt: string;
}

/** A bundle that cannot be imported: nothing was written. */
export class BundleError extends RuntimeError {
  override readonly name = "BundleError";
}

function digestOf(bundle: Omit<RunBundle, "digest">): string {
  return sha256(canonicalJson(bundle as unknown as Parameters<typeof canonicalJson>[0]));
}

/** Reads every row of `run` and the bytes of every file its manifests name. */
export async function bundleRun(
  store: Store,
  storage: ArtifactStorage,
  run: string,
  o: { now: string; contractText?: (path: string) => string | undefined },
): Promise<RunBundle> {
  const rows = await store.exportRunRows(run);
  if (!rows) throw new BundleError(`no run ${run} in this store`);
  const origin = JSON.parse(String(rows.runs[0]!.origin)) as RunRow["origin"];
  const artifacts: BundledArtifact[] = [];
  const seen = new Set<string>();
  for (const m of rows.artifacts) {
    const path = String(m.path);
    if (seen.has(path)) continue;
    seen.add(path);
    const entry = { path, sha256: String(m.sha256), size: Number(m.size) };
    try {
      artifacts.push({ ...entry, bytes: Buffer.from(await storage.read(path, entry.sha256)).toString("base64") });
    } catch (err) {
      // a corrupt or collected file is carried as the store knows it: its manifest, and why there are no bytes
      artifacts.push({ ...entry, missing: (err as Error).message });
    }
  }
  const text = origin.contract ? o.contractText?.(origin.contract) : undefined;
  const body: Omit<RunBundle, "digest"> = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    run,
    exportedAt: o.now,
    ...(origin.contract && text !== undefined ? { contract: { path: origin.contract, text } } : {}),
    rows,
    artifacts,
  };
  return { ...body, digest: digestOf(body) };
}

/** The bundle in `text` checked whole (format, version, digest, every artifact's hash, every row its run's); a BundleError saying what is wrong otherwise. */
export function readBundle(text: string, file: string): RunBundle {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BundleError(`${file}: not a run bundle (${(err as Error).message})`);
  }
  const b = value as Partial<RunBundle> | null;
  if (!b || typeof b !== "object" || b.format !== BUNDLE_FORMAT)
    throw new BundleError(
      `${file}: not a run bundle (no "format": "${BUNDLE_FORMAT}"); write one with taskspec handoff <run> --bundle <file>`,
    );
  if (typeof b.version !== "number" || !Number.isInteger(b.version) || b.version < 1)
    throw new BundleError(`${file}: bundle format version ${JSON.stringify(b.version)} is not one taskspec writes`);
  if (b.version > BUNDLE_VERSION)
    throw new BundleError(
      `${file}: bundle format ${b.version} is newer than this taskspec reads (${BUNDLE_VERSION}); import it with the taskspec that wrote it, or a newer one`,
    );
  if (typeof b.run !== "string" || !b.rows || typeof b.rows !== "object" || !Array.isArray(b.artifacts) || typeof b.digest !== "string")
    throw new BundleError(`${file}: bundle is missing its run, rows, artifacts or digest`);
  const { digest, ...body } = b as RunBundle;
  const actual = digestOf(body);
  if (actual !== digest)
    throw new BundleError(
      `${file}: bundle digest does not match its content (recorded ${digest.slice(0, 12)}, content ${actual.slice(0, 12)}): it was changed or cut short`,
    );
  for (const table of RUN_TABLE_NAMES) {
    const rows = b.rows[table];
    if (!Array.isArray(rows)) throw new BundleError(`${file}: bundle has no ${table} rows`);
    // a bundle writes one run: a row naming another could change a run this store already has
    if (table !== "plans" && rows.some((r) => r.run !== b.run))
      throw new BundleError(`${file}: bundle has ${table} rows of another run than ${b.run}`);
  }
  if (b.rows.runs.length !== 1) throw new BundleError(`${file}: bundle has ${b.rows.runs.length} run rows, not one`);
  const manifests = new Map(b.rows.artifacts.map((m) => [String(m.path), String(m.sha256)]));
  for (const a of b.artifacts) {
    if (manifests.get(a.path) !== a.sha256) throw new BundleError(`${file}: artifact ${a.path} is not the one its manifest names`);
    if (a.bytes === undefined) continue;
    const got = sha256(Buffer.from(a.bytes, "base64"));
    if (got !== a.sha256)
      throw new BundleError(`${file}: artifact ${a.path} hashes to ${got.slice(0, 12)}, its manifest says ${a.sha256.slice(0, 12)}`);
  }
  return b as RunBundle;
}

/**
 * Loads a checked bundle into `store`: the artifacts' bytes into `storage`
 * first (a file already there with the same hash is kept), then every row in
 * one transaction, the run's origin naming `storage` and the import.
 */
export async function importBundle(
  store: Store,
  storage: ArtifactStorage,
  bundle: RunBundle,
  now: string,
): Promise<{ run: string; artifacts: number }> {
  if (await store.getRun(bundle.run))
    throw new BundleError(
      `run ${bundle.run} already exists in this store; an import never merges into or overwrites a run: import the bundle into another store`,
    );
  let written = 0;
  for (const a of bundle.artifacts) {
    if (a.bytes === undefined) continue;
    const here = await storage.read(a.path, a.sha256).then(
      () => true,
      () => false,
    );
    if (here) continue;
    const cut = a.path.lastIndexOf("/");
    await storage.write(a.path.slice(0, cut), a.path.slice(cut + 1), Buffer.from(a.bytes, "base64"));
    written++;
  }
  const run = bundle.rows.runs[0]!;
  const origin = JSON.parse(String(run.origin)) as RunRow["origin"];
  const imported: ImportedFrom = { digest: bundle.digest, exportedAt: bundle.exportedAt, importedAt: now };
  const rows: RunRows = {
    ...bundle.rows,
    runs: [{ ...run, origin: JSON.stringify({ ...origin, artifactRoot: storage.location, imported }) }],
  };
  await store.importRunRows(rows);
  return { run: bundle.run, artifacts: written };
}

/** Why `resume`, `run` and the workers leave an imported run alone; undefined for any other run. */
export function importedRunRefusal(r: RunRow): string | undefined {
  const imported = r.origin.imported;
  if (!imported) return undefined;
  return (
    `run ${r.run} was imported from a run bundle (digest ${imported.digest.slice(0, 12)}, exported ${imported.exportedAt}) ` +
    "for offline reproduction: its effects were made from the original store, and driving it here could make them again. " +
    `Read it with status, show, events and handoff; carry the work on in the original store, or start a new run here (taskspec branch ${r.run} previews what it would reuse and what could fire again)`
  );
}
