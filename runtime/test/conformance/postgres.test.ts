/**
 * The PostgreSQL store against a real server: the shared conformance suite
 * unchanged, plus what only a shared server has (concurrent claimers and
 * committers, schema refusal, connection loss). Each store gets its own
 * schema, dropped afterwards, so files run in parallel. The root `npm test`
 * runs under scripts/with-postgres.sh, which sets TASKSPEC_PG_URL; without it
 * this file skips loudly (and fails under TASKSPEC_REQUIRE_ALL=1, as in CI).
 */
import { randomUUID } from "node:crypto";
import { createServer, connect, type Server, type Socket } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeaseHeldError, SchemaVersionError, VersionConflictError } from "../../src/errors.js";
import { runPlan } from "../../src/engine/run-plan.js";
import type { HandlerModule } from "../../src/handler-api.js";
import { PostgresStore, StoreUnavailableError } from "../../src/store/postgres.js";
import { PG_MIGRATIONS } from "../../src/store/postgres-migrations.js";
import type { CheckpointCommit, Store } from "../../src/store/types.js";
import { openStore } from "../../src/store/open.js";
import { FIXTURES, fixturePlan, tempDir } from "../fixtures/load.js";
import { runConformance } from "./suite.js";
import { postgresMissing, reportMissing } from "../../../test/skip-loudly.js";

const url = process.env.TASKSPEC_PG_URL;

if (!url) {
  reportMissing("postgres store", postgresMissing() ?? "TASKSPEC_PG_URL is not set");
} else {
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  const schemas = new WeakMap<object, string>();
  const newSchema = () => `t_${randomUUID().replace(/-/g, "")}`;
  const dropSchema = async (schema: string) => void (await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  afterAll(async () => admin.end());

  runConformance({
    name: "postgres",
    createStore: async () => {
      const schema = newSchema();
      // the suite drives time by hand (T0 + seconds); the server's clock is tested below
      const store = new PostgresStore({ connectionString: url, schema, leaseClock: "caller" });
      schemas.set(store, schema);
      return store;
    },
    destroyStore: async (store) => {
      await store.close();
      await dropSchema(schemas.get(store)!);
    },
  });

  const T0 = "2026-01-01T00:00:00.000Z";
  const completion = (unit: string, attempt: number, token: number): CheckpointCommit => ({
    kind: "unit",
    fence: { unit, token },
    changes: [{ kind: "complete", unit, attempt, result: {}, sources: {}, artifacts: [] }],
    approvals: [],
    nextAction: { kind: "run", units: [] },
    events: [],
    now: T0,
  });

  /** `n` stores (separate pools, as on separate hosts) on one fresh schema with run R of `units`. */
  async function hosts(n: number, units: string[]): Promise<{ stores: PostgresStore[]; done: () => Promise<void> }> {
    const schema = newSchema();
    const stores = Array.from({ length: n }, () => new PostgresStore({ connectionString: url!, schema, poolSize: 2 }));
    await Promise.all(stores.map((s) => s.init()));
    await stores[0]!.createRun({
      run: "R",
      taskId: "t",
      planVersion: "p1",
      inputVersion: "i1",
      plan: {},
      caps: {},
      units,
      origin: { artifactRoot: "/x" },
      now: T0,
    });
    return { stores, done: async () => (await Promise.all(stores.map((s) => s.close())), await dropSchema(schema)) };
  }

  describe("postgres store: several workers on one server", () => {
    it("migrations run once when workers start together; a newer schema is refused", async () => {
      const { stores, done } = await hosts(4, ["a"]);
      expect(await Promise.all(stores.map((s) => s.schemaVersion()))).toEqual(stores.map(() => PG_MIGRATIONS.length));
      const schema = newSchema();
      const s = new PostgresStore({ connectionString: url, schema });
      await s.init();
      await admin.query(`INSERT INTO ${schema}.schema_version (version) VALUES (${PG_MIGRATIONS.length + 1})`);
      const err = await s.init().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SchemaVersionError);
      expect(String((err as Error).message)).toMatch(/schema version \d+, but this taskspec understands versions up to \d+/);
      await s.close();
      await dropSchema(schema);
      await done();
    });

    it("eight claimers racing for one unit: exactly one lease, the rest told it is held", async () => {
      const { stores, done } = await hosts(8, ["a"]);
      const results = await Promise.allSettled(stores.map((s, i) => s.claimUnit("R", "a", `w${i}`, 60_000, T0)));
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(LeaseHeldError);
      expect((await stores[0]!.loadFacts("R")).units[0]!.attempts).toBe(1);
      await done();
    });

    it("workers claiming different units in parallel all get distinct increasing tokens; concurrent commits are compare-and-set", async () => {
      const units = Array.from({ length: 16 }, (_, i) => `u${i}`);
      const { stores, done } = await hosts(4, units);
      const claims = await Promise.all(units.map((u, i) => stores[i % 4]!.claimUnit("R", u, `w${i % 4}`, 60_000, T0)));
      expect(new Set(claims.map((c) => c.token)).size).toBe(16);
      const results = await Promise.allSettled(
        units.map((u, i) => stores[i % 4]!.commitCheckpoint("R", 0, completion(u, claims[i]!.attempt, claims[i]!.token))),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(VersionConflictError);
      expect((await stores[0]!.latestCheckpoint("R")).version).toBe(1);
      await done();
    });
  });

  describe("postgres store: leases by the server's clock", () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const near = (a: string, b: number) => Math.abs(Date.parse(a) - b) < 2_000;

    it("a claimer whose clock is 60 s ahead cannot take a live lease; one 60 s behind gets a lease that ends by the server's time", async () => {
      const { stores, done } = await hosts(2, ["a", "b"]);
      const [a, b] = [stores[0]!, stores[1]!];
      const held = await a.claimUnit("R", "a", "w1", 5_000, iso(Date.now()));
      await expect(b.claimUnit("R", "a", "w2", 5_000, iso(Date.now() + 60_000))).rejects.toBeInstanceOf(LeaseHeldError);
      const behind = await b.claimUnit("R", "b", "w2", 5_000, iso(Date.now() - 60_000));
      const server = Date.parse(await b.clock());
      expect(near(behind.lease.expiresAt, server + 5_000), behind.lease.expiresAt).toBe(true);
      expect(near(held.lease.expiresAt, server + 5_000), held.lease.expiresAt).toBe(true);
      await done();
    });

    it("a renewal from a clock 60 s behind extends the lease from the server's time", async () => {
      const { stores, done } = await hosts(1, ["a"]);
      const s = stores[0]!;
      const c = await s.claimUnit("R", "a", "w1", 5_000, iso(Date.now()));
      const renewed = await s.renewLease("R", "a", c.token, 30_000, iso(Date.now() - 60_000));
      expect(near(renewed.expiresAt, Date.parse(await s.clock()) + 30_000), renewed.expiresAt).toBe(true);
      expect((await s.loadFacts("R")).leases[0]!.expiresAt).toBe(renewed.expiresAt);
      await done();
    });
  });

  describe("postgres store: work announced to listening workers", () => {
    it("work announced from one host wakes a listener on another, and not one listening on another schema", async () => {
      const { stores, done } = await hosts(2, ["a"]);
      const other = await hosts(1, ["a"]);
      let woken = 0;
      let elsewhere = 0;
      const stop = await stores[1]!.onWork(() => woken++);
      const stopOther = await other.stores[0]!.onWork(() => elsewhere++);
      await stores[0]!.announceWork();
      for (let i = 0; i < 100 && woken === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(woken).toBe(1);
      await stop();
      await stores[0]!.announceWork();
      await other.stores[0]!.clock(); // a round trip on the other schema's pool after both notifications
      await new Promise((r) => setTimeout(r, 100));
      expect([woken, elsewhere]).toEqual([1, 0]);
      await stopOther();
      await other.done();
      await done();
    });
  });

  describe("postgres store under the engine", () => {
    it("openStore(postgres://...?schema=) runs the 3-unit chain; two workers on one run commit each unit once", async () => {
      const schema = newSchema();
      const storeUrl = `${url}?schema=${schema}`;
      const [s1, s2] = [await openStore(storeUrl), await openStore(storeUrl)];
      const handlers = (await import(join(FIXTURES, "chain-handlers.mjs"))).default as HandlerModule;
      const artifacts = join(tempDir(), "artifacts");
      const plan = fixturePlan("chain.task.yaml");
      const outs = await Promise.all(
        [s1, s2].map((store, i) =>
          runPlan({ store, plan, handlers, run: "R1", artifacts, owner: `w${i}`, crash: () => {}, log: () => {} }),
        ),
      );
      expect(outs.map((o) => o.status)).toEqual(["done", "done"]);
      expect((await s1.listCheckpoints("R1")).map((c) => c.kind)).toEqual(["start", "unit", "unit", "unit"]);
      expect((await s2.getRecords("R1")).map((r) => [r.unit, r.status, r.result])).toEqual([
        ["a", "current", { value: "s1>a" }],
        ["b", "current", { value: "s1>a>b" }],
        ["c", "current", { value: "s1>a>b>c" }],
      ]);
      await s1.close();
      await s2.close();
      await dropSchema(schema);
    });
  });

  describe("postgres store: connection loss", () => {
    /** A TCP proxy to the server that can cut a connection when the client sends COMMIT. */
    let proxy: Server;
    let proxyUrl: string;
    let cutAtCommit: "none" | "after-forwarding" | "before-forwarding" = "none";
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      const target = new URL(url);
      const [pgPort, pgHost] = [Number(target.port), target.hostname];
      proxy = createServer((client) => {
        const server = connect(pgPort, pgHost);
        sockets.add(client);
        sockets.add(server);
        client.on("data", (chunk) => {
          const isCommit = chunk[0] === 0x51 && chunk.subarray(5).toString("utf8").startsWith("COMMIT");
          if (isCommit && cutAtCommit !== "none") {
            const mode = cutAtCommit;
            cutAtCommit = "none";
            if (mode === "after-forwarding") server.write(chunk, () => setTimeout(() => (client.destroy(), server.end()), 50));
            else {
              client.destroy();
              server.destroy();
            }
            return;
          }
          server.write(chunk);
        });
        server.on("data", (chunk) => client.writable && client.write(chunk));
        const end = () => (client.destroy(), server.destroy());
        client.on("close", end).on("error", end);
        server.on("close", end).on("error", end);
      });
      await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
      const port = (proxy.address() as { port: number }).port;
      target.host = `127.0.0.1:${port}`;
      proxyUrl = target.toString();
    });
    afterAll(async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => proxy.close(r));
    });

    async function storeViaProxy(): Promise<{ store: Store; done: () => Promise<void> }> {
      const schema = newSchema();
      const store = new PostgresStore({ connectionString: proxyUrl, schema, poolSize: 1, applicationName: schema });
      await store.init();
      await store.createRun({
        run: "R",
        taskId: "t",
        planVersion: "p1",
        inputVersion: "i1",
        plan: {},
        caps: {},
        units: ["a"],
        origin: { artifactRoot: "/x" },
        now: T0,
      });
      return { store, done: async () => (await store.close(), await dropSchema(schema)) };
    }

    it("reads are repeated after the server drops the connection", async () => {
      const schema = newSchema();
      const store = new PostgresStore({ connectionString: url, schema, applicationName: schema });
      await store.init();
      await store.createRun({
        run: "R",
        taskId: "t",
        planVersion: "p1",
        inputVersion: "i1",
        plan: {},
        caps: {},
        units: ["a"],
        origin: { artifactRoot: "/x" },
        now: T0,
      });
      const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [schema]);
      expect(killed.rowCount).toBeGreaterThan(0);
      expect((await store.loadFacts("R")).run.version).toBe(0);
      expect((await store.latestCheckpoint("R")).version).toBe(0);
      await store.close();
      await dropSchema(schema);
    });

    it("a commit cut off after the server got COMMIT is found by its version and digest, and reported as committed", async () => {
      const { store, done } = await storeViaProxy();
      const c = await store.claimUnit("R", "a", "w", 60_000, T0);
      cutAtCommit = "after-forwarding";
      const h = await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token));
      expect(cutAtCommit).toBe("none");
      expect(h.version).toBe(1);
      expect((await store.latestCheckpoint("R")).digest).toBe(h.digest);
      await done();
    });

    it("a commit cut off before the server got COMMIT is reported as not written, and nothing was", async () => {
      const { store, done } = await storeViaProxy();
      const c = await store.claimUnit("R", "a", "w", 60_000, T0);
      cutAtCommit = "before-forwarding";
      const err = await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as StoreUnavailableError).outcome).toBe("not-written");
      expect((await store.latestCheckpoint("R")).version).toBe(0);
      expect(await store.commitCheckpoint("R", 0, completion("a", c.attempt, c.token))).toMatchObject({ version: 1 });
      await done();
    });
  });
}
