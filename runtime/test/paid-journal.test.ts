/**
 * The attempt's journal of paid calls (engine/paid-journal.ts) on a real
 * SQLite store: an answer is handed back to the next attempt without calling
 * again and the event says `replayed`; an answer holding a known secret value
 * is not stored, so that call is made again; a failed call is not replayed.
 */
import { expect, it } from "vitest";
import { openJournal } from "../src/engine/paid-journal.js";
import { freshStore } from "./fixtures/load.js";

const T0 = "2026-01-01T00:00:00.000Z";
const SECRET = "sk-live-0123456789abcdef";

async function setup() {
  const store = await freshStore();
  await store.createRun({
    run: "R",
    taskId: "t",
    planVersion: "p1",
    inputVersion: "i1",
    plan: {},
    caps: {},
    units: ["u"],
    origin: { artifactRoot: "/x" },
    now: T0,
  });
  /** A new attempt of unit u (the last one's lease broken, as after a kill) and its journal. */
  let token: number | undefined;
  const attempt = async () => {
    if (token !== undefined) await store.breakLease("R", "u", token, { at: T0, type: "lease-broken", unit: "u" });
    const c = await store.claimUnit("R", "u", "w", 60_000, T0);
    token = c.token;
    return openJournal({
      store,
      run: "R",
      unit: "u",
      attempt: c.attempt,
      token: c.token,
      iteration: () => 1,
      now: () => T0,
      secrets: new Set([SECRET]),
    });
  };
  return { store, attempt };
}

it("an answer is handed back to the next attempt; the provider is not called; the event says replayed", async () => {
  const { store, attempt } = await setup();
  let calls = 0;
  const ask = (j: Awaited<ReturnType<typeof attempt>>, content: string) =>
    j.call(
      "model",
      { messages: [{ role: "user", content }] },
      async (sending) => (await sending(), (calls += 1), { content: `answer ${calls}` }),
      (r) => r,
    );
  const first = await attempt();
  expect(await ask(first, "a")).toEqual({ content: "answer 1" });
  expect(await ask(first, "b")).toEqual({ content: "answer 2" });
  const second = await attempt();
  expect(await ask(second, "a")).toEqual({ content: "answer 1" });
  expect(await ask(second, "c")).toEqual({ content: "answer 3" }); // differs: made afresh
  expect(await ask(second, "b")).toEqual({ content: "answer 4" }); // and so is everything after it
  expect(calls).toBe(4);
  const replayed = await store.listEvents("R", { type: "paid-call-replayed" });
  expect(replayed.map((e) => [e.attempt, e.data?.call, e.data?.replayed, e.data?.from])).toEqual([
    [2, "model", true, { attempt: 1, seq: 0 }],
  ]);
  expect((await store.listEvents("R", { type: "paid-replay-ended" })).map((e) => [e.attempt, e.data?.at])).toEqual([[2, 1]]);
  await store.close();
});

it("an answer holding a known secret value is not stored: the next attempt calls again", async () => {
  const { store, attempt } = await setup();
  let calls = 0;
  const ask = (j: Awaited<ReturnType<typeof attempt>>) =>
    j.call(
      "model",
      { messages: [{ role: "user", content: "q" }] },
      async (sending) => (await sending(), (calls += 1), { content: `the key is ${SECRET}` }),
      (r) => r,
    );
  // the handler gets the answer as it came
  expect(await ask(await attempt())).toEqual({ content: `the key is ${SECRET}` });
  const [row] = await store.listPaidCalls("R", { unit: "u" });
  expect(row).toMatchObject({ state: "answered", replayable: false });
  expect(row!.reply).toBeUndefined();
  expect(JSON.stringify(await store.listPaidCalls("R"))).not.toContain(SECRET);
  await ask(await attempt());
  expect(calls).toBe(2);
  await store.close();
});

it("a failed call is not replayed, and a charge is journalled before it is booked", async () => {
  const { store, attempt } = await setup();
  const first = await attempt();
  await expect(
    first.call(
      "model",
      { messages: [] },
      async (sending) => (await sending(), Promise.reject(new Error("provider overloaded"))),
      (r) => r,
    ),
  ).rejects.toThrow(/overloaded/);
  let booked = 0;
  await first.call(
    "charge",
    { tokens: 5 },
    async (sending) => (await sending(), (booked += 5), undefined),
    () => null,
  );
  const second = await attempt();
  let again = 0;
  await second.call(
    "model",
    { messages: [] },
    async (sending) => (await sending(), (again += 1), { content: "ok" }),
    (r) => r,
  );
  expect(again).toBe(1); // the failed call is made again; the charge after it is not replayed either (the sequence ended)
  expect((await store.listPaidCalls("R", { unit: "u" })).map((c) => [c.attempt, c.seq, c.kind, c.state])).toEqual([
    [1, 0, "model", "failed"],
    [1, 1, "charge", "answered"],
    [2, 0, "model", "answered"],
  ]);
  expect(booked).toBe(5);
  await store.close();
});
