/**
 * Run bundles end to end on SQLite: `handoff --bundle` of a run that
 * committed effects against the local services and waits at an approval,
 * `import` into another store, and the imported run reads as the original
 * (status, show, events, handoff: the same JSON). A bundle that was changed,
 * is of a newer format, or names a run the store has is refused with its
 * reason and writes nothing; `resume` of the imported run is refused and
 * calls no service.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { canonicalJson, sha256, SqliteStore, type RunBundle } from "@taskspec/runtime";
import { harness, runArgs, runCli, type Harness } from "./runtime-harness.js";
import { viewsOf } from "./run-bundle-views.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let h: Harness;
let bundle: string;
let copy: string;
const inCopy = (args: string[]) => runCli(args, h.env, copy);

beforeAll(async () => {
  h = await harness();
  const ran = await h.cli(runArgs("B1"));
  // post, note and trip committed their effects; mail waits for a person
  expect(ran.code, ran.stderr).toBe(3);
  bundle = join(h.dir, "b1.bundle.json");
  copy = `sqlite:${join(h.dir, "copy", "store.db")}`;
  const wrote = await h.cli(["handoff", "B1", "--bundle", bundle]);
  expect(wrote.code, wrote.stderr).toBe(0);
  expect(wrote.stderr).toMatch(/wrote run bundle .*b1\.bundle\.json \(run B1, \d+ events, \d+ artifacts; digest [0-9a-f]{12}\)/);
});
afterAll(async () => h?.stop());

/** The bundle with `change` applied and its digest made to match again: only the check under test can refuse it. */
function rewritten(change: (b: RunBundle) => void): string {
  const b = JSON.parse(readFileSync(bundle, "utf8")) as RunBundle;
  change(b);
  const { digest: _d, ...body } = b;
  b.digest = sha256(canonicalJson(body));
  const file = join(h.dir, `changed-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(b));
  return file;
}

describe("handoff --bundle and import", () => {
  it("the bundle holds the run's rows, effects with receipts, approvals and the artifacts' bytes", () => {
    const b = JSON.parse(readFileSync(bundle, "utf8"));
    expect([b.format, b.version, b.run]).toEqual(["taskspec-run-bundle", 1, "B1"]);
    expect(b.contract.text).toContain("id: remote");
    expect(b.rows.effects.filter((e: { receipt: string | null }) => e.receipt !== null).length).toBeGreaterThanOrEqual(3);
    expect(b.rows.resume_tokens).toHaveLength(1);
    expect(b.artifacts.length).toBeGreaterThan(0);
    for (const a of b.artifacts) expect(sha256(Buffer.from(a.bytes, "base64"))).toBe(a.sha256);
  });

  it("the imported run reads as the original: status, show, events and handoff print the same JSON", async () => {
    const imported = await inCopy(["import", bundle]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain("imported run B1");
    const original = await viewsOf(h.cli, "B1");
    expect(await viewsOf(inCopy, "B1")).toEqual(original);
    // the bytes came with it: the copy's artifact root (beside its store) holds every file
    const b = JSON.parse(readFileSync(bundle, "utf8")) as { artifacts: Array<{ path: string; sha256: string }> };
    for (const a of b.artifacts) expect(sha256(readFileSync(join(h.dir, "copy", "artifacts", a.path)))).toBe(a.sha256);
  });

  it("refuses a run id the store has, a changed bundle, a changed artifact and a newer format, writing nothing", async () => {
    const eventsBefore = (await inCopy(["events", "B1", "--format", "json"])).stdout;
    const again = await inCopy(["import", bundle]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("run B1 already exists in this store; an import never merges into or overwrites a run");

    const text = readFileSync(bundle, "utf8");
    const cut = join(h.dir, "cut.json");
    writeFileSync(cut, text.replace('"status":"active"', '"status":"done"'));
    const tampered = await runCli(["import", cut], h.env, `sqlite:${join(h.dir, "other1.db")}`);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/bundle digest does not match its content \(recorded [0-9a-f]{12}, content [0-9a-f]{12}\)/);

    const badBytes = rewritten((b) => (b.artifacts[0]!.bytes = Buffer.from("not the bytes").toString("base64")));
    const bytes = await runCli(["import", badBytes], h.env, `sqlite:${join(h.dir, "other2.db")}`);
    expect(bytes.code).toBe(1);
    expect(bytes.stderr).toMatch(/artifact runs\/B1\/\S+ hashes to [0-9a-f]{12}, its manifest says [0-9a-f]{12}/);

    const newer = await runCli(["import", rewritten((b) => (b.version = 2))], h.env, `sqlite:${join(h.dir, "other3.db")}`);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toContain("bundle format 2 is newer than this taskspec reads (1)");

    const foreign = rewritten((b) => (b.rows.events[0]!.run = "OTHER"));
    const other = await runCli(["import", foreign], h.env, `sqlite:${join(h.dir, "other4.db")}`);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("bundle has events rows of another run than B1");

    for (const n of [1, 2, 3, 4]) {
      const other = new SqliteStore({ path: join(h.dir, `other${n}.db`) });
      await other.init();
      expect(await other.listRuns()).toEqual([]);
      await other.close();
    }
    expect((await inCopy(["events", "B1", "--format", "json"])).stdout).toBe(eventsBefore);
  });

  it("resume of the imported run is refused, records nothing and makes no call", async () => {
    const calls = async () => Object.values((await h.stats("blog")).counters).reduce((a, b) => a + b, 0);
    const before = await calls();
    const eventsBefore = (await inCopy(["events", "B1", "--format", "json"])).stdout;
    const resumed = await inCopy(["resume", "B1"]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain("was imported from a run bundle");
    expect(resumed.stderr).toContain("nothing was run");
    const again = await inCopy(runArgs("B1"));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("was imported from a run bundle");
    expect((await inCopy(["events", "B1", "--format", "json"])).stdout).toBe(eventsBefore);
    expect(await calls()).toBe(before);
  });

  it("a branch of the imported run is this store's own run: it reuses the copy's results and may be resumed", async () => {
    const made = await inCopy(["branch", "B1", "--by", "ada"]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^decision: branch B1 as B1\.b1\n {2}reuses 3 unit\(s\)/);
    // post, note and trip are reused; mail waits at its gate again, as in the original
    const resumed = await inCopy(["resume", "B1.b1"]);
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(resumed.stdout).toContain("approval requested for mail");
  });
});
