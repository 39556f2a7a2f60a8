/**
 * `taskspec ui` over real HTTP against a real SQLite store: the token on
 * every request (the live stream included), the Host and Origin checks, the
 * refusal of a non-loopback address without a token file; the run panel's
 * figures are `status --format json`'s; a decision made through the console
 * previews first, shows in `status` and `events`, and is refused when stale,
 * malformed or replayed.
 */
import { request } from "node:http";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";
import { startUi, type Console } from "./console/console-server.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const { dir, store } = tempRunDir("taskspec-console-");
const cli = (args: string[]) => runCli(args, LEGACY_FIXTURE_ENV, store);
let ui: Console;

/** One raw request (fetch would set Origin and Host itself). */
function call(
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: string; json: () => ReturnType<typeof JSON.parse> }> {
  const u = new URL(path, ui.base);
  return new Promise((resolve, reject) => {
    const req = request(u, { method: o.method ?? "GET", headers: o.headers ?? {} }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body, json: () => JSON.parse(body) }));
    });
    req.on("error", reject);
    if (o.body !== undefined) req.write(typeof o.body === "string" ? o.body : JSON.stringify(o.body));
    req.end();
  });
}
const auth = () => ({ "x-taskspec-token": ui.token });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, { method: "POST", body, headers: { ...auth(), "content-type": "application/json", origin: ui.base, ...headers } });

beforeAll(async () => {
  const crashed = await runCli(
    ["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "K1"],
    { ...LEGACY_FIXTURE_ENV, TASKSPEC_CRASH_AT: "after-commit-before-ack@a" },
    store,
  );
  expect(crashed.code).not.toBe(0);
  ui = await startUi(store);
});
afterAll(async () => ui?.stop());

describe("taskspec ui: access", () => {
  it("refuses a request without the token, with a wrong one, and on the live stream", async () => {
    expect((await call("/api/runs")).status).toBe(401);
    expect((await call("/api/runs", { headers: { "x-taskspec-token": `${ui.token}x` } })).status).toBe(401);
    expect((await call("/?token=wrong")).status).toBe(401);
    expect((await call("/api/runs/K1/stream")).status).toBe(401);
    expect((await call(`/?token=${ui.token}`)).status).toBe(200);
    expect((await call("/api/runs", { headers: auth() })).status).toBe(200);
  });

  it("refuses a Host that is not the console's (a rebinding page) and every cross-site decision", async () => {
    const rebound = await call("/api/runs", { headers: { ...auth(), host: "attacker.example:80" } });
    expect(rebound.status).toBe(403);
    const body = { action: "flag", args: { reason: "x" } };
    const crossSite: Array<Record<string, string>> = [
      { origin: "http://attacker.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { "content-type": "text/plain" },
    ];
    for (const headers of crossSite) {
      const r = await post("/api/runs/K1/preview", body, headers);
      expect(r.status, JSON.stringify(headers)).toBeGreaterThanOrEqual(403);
      expect(r.json().error).toMatch(/cross-site|JSON body/);
    }
    const noOrigin = await call("/api/runs/K1/preview", {
      method: "POST",
      body,
      headers: { ...auth(), "content-type": "application/json" },
    });
    expect(noOrigin.status).toBe(403);
    expect((await cli(["status", "K1", "--format", "json"])).stdout).not.toContain("needs-expert");
  });

  it("refuses a non-loopback --host without --token-file, before it listens", async () => {
    const r = await runCli(["ui", "--host", "0.0.0.0", "--port", "0"], {}, store);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^taskspec: --host 0\.0\.0\.0 is not a loopback address: .*give --token-file FILE/);
    const file = join(dir, "token");
    writeFileSync(file, "short\n");
    const bad = await runCli(["ui", "--host", "0.0.0.0", "--port", "0", "--token-file", file, "--exit-after-start"], {}, store);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("must hold one token of at least 24");
  });
});

describe("taskspec ui: the run panel and decisions", () => {
  it("the run panel's figures are status --format json's, and the runs list has the run", async () => {
    const page = (await call("/api/runs/K1/status", { headers: auth() })).json();
    const cliStatus = JSON.parse((await cli(["status", "K1", "--format", "json"])).stdout);
    expect(page).toEqual(cliStatus);
    const runs = (await call("/api/runs?state=resumable", { headers: auth() })).json();
    expect(runs.runs.map((r: { run: string; status: string }) => [r.run, r.status])).toEqual([["K1", "resumable"]]);
    expect((await call("/api/runs?state=done", { headers: auth() })).json()).toMatchObject({ runs: [], total: 0 });
    expect((await call("/api/runs?search=nomatch", { headers: auth() })).json().runs).toEqual([]);
    expect((await call("/api/runs?state=sleeping", { headers: auth() })).status).toBe(400);
  });

  it("a flag made through the console previews first, shows in status and events, and a replay changes nothing", async () => {
    const made = (await post("/api/runs/K1/preview", { action: "flag", args: { reason: "check the seed" } })).json();
    const cliPreview = await cli(["flag", "K1", "--reason", "check the seed", "--dry-run"]);
    expect(cliPreview.stdout).toContain(`preview basis: ${made.basis}`);
    expect(made.preview.notes).toContain("stops every worker from starting an attempt of run K1 until `taskspec unflag K1`");

    const decided = await post("/api/runs/K1/decide", {
      action: "flag",
      args: { reason: "check the seed" },
      basis: made.basis,
      seen: made.preview,
    });
    expect(decided.status, decided.body).toBe(200);
    const s = JSON.parse((await cli(["status", "K1", "--format", "json"])).stdout);
    expect(s.blocked).toEqual([{ reason: "needs-expert", detail: expect.stringMatching(/^flagged by .+: check the seed$/) }]);
    const events = (await cli(["events", "K1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === "decision").map((e) => e.data.action)).toEqual(["flag"]);

    const replay = await post("/api/runs/K1/decide", {
      action: "flag",
      args: { reason: "check the seed" },
      basis: made.basis,
      seen: made.preview,
    });
    expect(replay.status).toBe(409);
    expect(replay.json().error).toMatch(/already flagged/);
    const after = (await cli(["events", "K1", "--format", "json"])).stdout.trim().split("\n");
    expect(after.length).toBe(events.length);
  });

  it("a decision on a stale preview is refused with what changed and a fresh preview; malformed ones change nothing", async () => {
    const seen = (await post("/api/runs/K1/preview", { action: "rerun", args: { unit: "a" } })).json();
    expect(seen.preview.invalidate.map((i: { unit: string }) => i.unit)).toEqual(["a"]); // only a has succeeded
    // another person re-runs a first (through the CLI)
    expect((await cli(["rerun", "K1", "a"])).code).toBe(0);
    const stale = await post("/api/runs/K1/decide", { action: "rerun", args: { unit: "a" }, basis: seen.basis, seen: seen.preview });
    expect(stale.status).toBe(409);
    const body = stale.json();
    expect(body.error).toMatch(/^rerun K1 a refused: the run changed since its preview/);
    expect(body.changed[0]).toMatch(/^checkpoint v\d+ -> v\d+$/);
    expect(body.changed).toContain("a: a (operator re-run) -> reset: attempts and failures cleared");
    expect(body.fresh.basis).not.toBe(seen.basis);

    for (const [bad, message] of [
      [{ action: "drop-table", args: {} }, /"action" must be one of flag, unflag, rerun, budget/],
      [{ action: "rerun", args: { unit: "a" } }, /"basis" is required/],
      [{ action: "budget", args: { caps: "gold=1", reason: "r" }, basis: "v1-0000000000000000" }, /bad cap "gold=1"/],
      ["{not json", /the body is not JSON/],
    ] as const) {
      const r = await post("/api/runs/K1/decide", bad);
      expect(r.status, r.body).toBe(400);
      expect(r.json().error).toMatch(message);
    }
    const decisions = (await cli(["events", "K1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "decision");
    expect(decisions.map((e) => e.data.action)).toEqual(["flag", "rerun"]);
  });

  it("the live stream needs the token and delivers a new event within a poll", async () => {
    const seq = (await call("/api/runs/K1/events?tail=1", { headers: auth() })).json().events[0].seq as number;
    const got = new Promise<string>((resolve, reject) => {
      const req = request(new URL(`/api/runs/K1/stream?after=${seq}&token=${ui.token}`, ui.base), (res) => {
        expect(res.headers["content-type"]).toBe("text/event-stream");
        let text = "";
        res.on("data", (d: Buffer) => {
          text += d.toString();
          if (text.includes('"action":"unflag"')) {
            req.destroy();
            resolve(text);
          }
        });
      });
      req.on("error", (e) => (String(e).includes("socket hang up") ? undefined : reject(e)));
      req.end();
    });
    expect((await cli(["unflag", "K1", "--reason", "seed checked"])).code).toBe(0);
    expect(await got).toMatch(/event: run-event\ndata: \{.*"type":"decision".*"action":"unflag"/);
  });

  it("serves the handoff for download and the graph as SVG", async () => {
    const md = await call("/api/runs/K1/handoff.md", { headers: auth() });
    expect(md.status).toBe(200);
    expect(md.body).toMatch(/^# Handoff: run K1 \(chain\)/);
    const svg = await call("/api/runs/K1/graph.svg", { headers: auth() });
    expect(svg.body).toMatch(/<svg[\s\S]*<title>a<\/title>/);
  });

  it("serves the run bundle for download: the run's rows and artifacts, its digest checked, importable into another store", async () => {
    const got = await call("/api/runs/K1/bundle.json", { headers: auth() });
    expect(got.status).toBe(200);
    const file = join(dir, "K1.bundle.json");
    writeFileSync(file, got.body);
    const b = got.json();
    expect([b.format, b.version, b.run]).toEqual(["taskspec-run-bundle", 1, "K1"]);
    const events = (await cli(["events", "K1", "--format", "json"])).stdout.trim().split("\n");
    expect(b.rows.events.map((e: { seq: number }) => e.seq)).toEqual(events.map((l) => JSON.parse(l).seq));
    const imported = await runCli(["import", file], LEGACY_FIXTURE_ENV, `sqlite:${join(dir, "copy", "store.db")}`);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain("imported run K1");
  });
});

describe("taskspec ui: the takeover page's other decisions", () => {
  const decisionsOf = async (run: string) =>
    (await cli(["events", run, "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "decision")
      .map((e) => e.data);

  it("two people branch at once: the first makes K1.b1, the second is shown what changed and a fresh preview; a replay changes nothing", async () => {
    const first = (await post("/api/runs/K1/preview", { action: "branch", args: { reason: "other audience" } })).json();
    const second = (await post("/api/runs/K1/preview", { action: "branch", args: {} })).json();
    expect(first.preview.action).toBe("branch K1 as K1.b1");
    const cliPreview = await cli(["branch", "K1", "--dry-run"]);
    expect(cliPreview.stdout).toContain(`preview basis: ${second.basis}`);

    const made = await post("/api/runs/K1/decide", {
      action: "branch",
      args: { reason: "other audience" },
      basis: first.basis,
      seen: first.preview,
    });
    expect(made.status, made.body).toBe(200);
    expect(made.json().result.branch).toBe("K1.b1");
    const b1 = JSON.parse((await cli(["status", "K1.b1", "--format", "json"])).stdout);
    expect(b1.units.filter((u: { state: string }) => u.state === "succeeded").map((u: { unit: string }) => u.unit)).toEqual(
      first.preview.reuse,
    );
    expect((await decisionsOf("K1.b1")).map((d) => [d.action, d.from, d.reason])).toEqual([["branch", "K1", "other audience"]]);

    const late = await post("/api/runs/K1/decide", { action: "branch", args: {}, basis: second.basis, seen: second.preview });
    expect(late.status).toBe(409);
    const body = late.json();
    expect(body.error).toMatch(/^branch K1 refused: the run changed since its preview/);
    expect(body.changed).toContain("now: creates run K1.b2: the plan K1 runs under, its caps with nothing used yet; K1 stays as it is");
    expect(body.fresh.preview.action).toBe("branch K1 as K1.b2");
    const replay = await post("/api/runs/K1/decide", {
      action: "branch",
      args: { reason: "other audience" },
      basis: first.basis,
      seen: first.preview,
    });
    expect(replay.status).toBe(409);
    expect((await cli(["status", "K1.b2"])).stderr).toContain("no run K1.b2");
    expect((await decisionsOf("K1")).filter((d) => d.action === "branch").map((d) => d.to)).toEqual(["K1.b1"]);
  });

  it("malformed resolve, approve and branch requests are refused before anything is read or changed", async () => {
    for (const [bad, status, message] of [
      [{ action: "resolve", args: { effect: "e1", outcome: "maybe" } }, 400, /"outcome" must be one of committed, absent/],
      [{ action: "resolve", args: { effect: "nope", outcome: "absent" } }, 404, /run K1 has no effect nope/],
      [{ action: "approve", args: { unit: "a" } }, 409, /unit a has no approval gate/],
      [{ action: "branch", args: { at: "yesterday" } }, 400, /"at" must be an event number/],
      [{ action: "branch", args: { at: "999999" } }, 404, /run K1 has no event #999999/],
      [{ action: "branch", args: { as: "../escape" } }, 409, /run id "\.\.\/escape" is not valid/],
    ] as const) {
      const r = await post("/api/runs/K1/preview", bad);
      expect(r.status, r.body).toBe(status);
      expect(r.json().error).toMatch(message);
    }
    expect((await cli(["runs", "--format", "json"])).stdout).not.toContain("escape");
  });

  it("narrow through the console previews what the CLI's --dry-run does, with the same basis", async () => {
    const made = (await post("/api/runs/K1/preview", { action: "narrow", args: { to: "a" } })).json();
    expect(made.preview.action).toBe("narrow K1 to a");
    expect(made.preview.notes).toContain("gives up the outputs c-out");
    const dry = await cli(["narrow", "K1", "--to", "a", "--dry-run"]);
    expect(dry.stdout).toContain(`preview basis: ${made.basis}`);
    const missing = await post("/api/runs/K1/decide", { action: "narrow", args: {}, basis: made.basis });
    expect(missing.status).toBe(400);
    expect(missing.json().error).toMatch(/"to" is required/);
  });

  it("cancel through the console runs the CLI's cancel: the branch ends cancelled, its original does not", async () => {
    const seen = (await post("/api/runs/K1.b1/preview", { action: "cancel", args: {} })).json();
    expect(seen.preview.notes).toContain("committed artifacts and records are kept; no unit runs after this");
    const done = await post("/api/runs/K1.b1/decide", {
      action: "cancel",
      args: { reason: "wrong direction" },
      basis: seen.basis,
      seen: seen.preview,
    });
    expect(done.status, done.body).toBe(200);
    expect(JSON.parse((await cli(["status", "K1.b1", "--format", "json"])).stdout).status).toBe("cancelled");
    expect((await decisionsOf("K1.b1")).map((d) => d.action)).toEqual(["branch", "cancel"]);
    expect(JSON.parse((await cli(["status", "K1", "--format", "json"])).stdout).status).not.toBe("cancelled");
  });

  it("resume through the console starts `taskspec resume`, which finishes the run", async () => {
    const seen = (await post("/api/runs/K1/preview", { action: "resume", args: {} })).json();
    expect(seen.preview.notes[0]).toMatch(/^runs next: /);
    const started = await post("/api/runs/K1/decide", { action: "resume", args: {}, basis: seen.basis, seen: seen.preview });
    expect(started.status, started.body).toBe(200);
    expect(started.json().result.started).toBe("taskspec resume K1");
    await expect
      .poll(async () => JSON.parse((await cli(["status", "K1", "--format", "json"])).stdout).status, { timeout: 120_000, interval: 1000 })
      .toBe("done");
  });
});
