/**
 * Fencing with real processes: a worker paused past its lease (SIGSTOP) is
 * taken over by a fresh one; when it wakes (SIGCONT) it can neither commit
 * nor reach the remote, and the store says why. And fencing through
 * reconciliation: the new owner looks up the old owner's effect with its own,
 * newer token, so the old request, landing after the lookup, is refused.
 * In the default isolation: the frozen worker's handler process lives on.
 */
import { expect, it, vi } from "vitest";
import { harnessPerTest, REMOTE_CONTRACT, REMOTE_HANDLERS, spawnCli } from "./runtime-harness.js";

// Real processes and services on a shared 2-core machine: generous per-test time.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const h = harnessPerTest();

const until = async (cond: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
};

it("a worker paused past its lease cannot commit or call the remote after a takeover", async () => {
  const { child: a, done: aDone } = spawnCli(
    ["run", REMOTE_CONTRACT, "--handlers", REMOTE_HANDLERS, "--run", "R", "--store", h.store, "--lease-ttl", "1500ms"],
    { ...h.env, TASKSPEC_TEST_SLEEP_MS: "3000" },
  );
  await until(() => h.invocations().includes("post a1"));
  a.kill("SIGSTOP");
  await new Promise((r) => setTimeout(r, 2000)); // past the 1.5 s lease
  const b = await h.cli(["resume", "R", "--lease-ttl", "30s"]);
  expect(b.stdout).toMatch(/run R: blocked/); // done up to the mail approval gate
  a.kill("SIGCONT");
  const aErr = (await aDone).stderr;

  const s = await h.open();
  const post = await s.getRecords("R", { unit: "post" });
  expect(post.map((r) => [r.attempt, r.status])).toEqual([[2, "current"]]);
  const completions = (await s.listCheckpoints("R")).filter((c) => c.delta.some((d) => d.unit === "post" && d.state === "succeeded"));
  expect(completions).toHaveLength(1);
  const events = await s.listEvents("R");
  expect(events.some((e) => e.type === "lease-broken" && e.unit === "post" && e.data?.why === "expired")).toBe(true);
  const stale = events.filter(
    (e) => e.unit === "post" && e.attempt === 1 && (e.type === "stale-commit-rejected" || e.type === "stale-attempt-discarded"),
  );
  expect(stale.length).toBeGreaterThan(0);
  expect(String(stale[0]!.data?.message)).toMatch(/stale fencing token \d+ for unit post/);
  expect((await s.listEffects("R", { unit: "post" })).map((e) => [e.attempt, e.state])).toEqual([[2, "COMMITTED"]]);
  // both workers ran handlers in the default isolation: the frozen worker's handler process lived on beside it
  expect(new Set(events.filter((e) => e.type === "isolation").map((e) => e.data?.mode))).toEqual(new Set(["process"]));
  await s.close();
  expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
  expect(aErr).not.toMatch(/internal error/);
});

it("the old owner's request, landing after the new owner's lookup, is refused by the remote", async () => {
  // Every write to the blog is held 8 s on its way in: the first worker's post is in flight
  // when it freezes, its lease runs out, and the second worker reconciles by lookup before
  // that request lands. The lookup carries the second worker's newer token, so the blog's
  // fence for the key is raised and the late request is refused (409), not applied.
  await h.faults("blog", { holdWritesMs: 8000 });
  const { child: a, done: aDone } = spawnCli(
    ["run", REMOTE_CONTRACT, "--handlers", REMOTE_HANDLERS, "--run", "R", "--store", h.store, "--lease-ttl", "1500ms"],
    h.env,
  );
  await until(() => h.invocations().includes("post a1"));
  const s0 = await h.open();
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    if ((await s0.listEffects("R", { unit: "post" })).some((e) => e.state === "STARTED")) break;
  }
  await s0.close();
  await new Promise((r) => setTimeout(r, 300)); // the request is on its way to the blog
  a.kill("SIGSTOP");
  await new Promise((r) => setTimeout(r, 2000)); // past the 1.5 s lease
  const b = await h.cli(["resume", "R", "--lease-ttl", "60s"]);
  expect(b.stdout).toMatch(/run R: blocked/); // done up to the mail approval gate
  a.kill("SIGCONT");
  await aDone;

  const stats = await h.stats("blog");
  expect(stats.counters.fencingRefused).toBe(1); // the first worker's late post
  expect(stats.counters.fencedLookups).toBeGreaterThanOrEqual(1);
  const posts = (await h.get("blog", "/posts")) as { key: string | null }[];
  expect(posts.filter((p) => p.key === "post:R:post")).toHaveLength(1);
  const s = await h.open();
  const events = await s.listEvents("R");
  const recovery = events.find((e) => e.type === "leased" && e.unit === "post" && e.data?.for === "recovery");
  const first = events.find((e) => e.type === "leased" && e.unit === "post" && e.attempt === 1);
  expect(Number(recovery?.data?.token)).toBeGreaterThan(Number(first?.data?.token));
  expect((await s.listEffects("R", { unit: "post" })).map((e) => [e.attempt, e.state])).toEqual([
    [1, "FAILED"],
    [2, "COMMITTED"],
  ]);
  await s.close();
});
