/**
 * The contract is enforced at run time. One deliberately misbehaving
 * handler per promise, each in a real worker process (the CLI) against the
 * SQLite store and the local remote services; each test asserts the refusal,
 * the recorded reason, and that the remote saw nothing it should not have.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { compile, planHashOf, type Plan } from "@taskspec/compiler";
import { validatePlan } from "@taskspec/compiler/plan-check";
import { verifyChain } from "../runtime/src/engine/chain.js";
import { runPlan } from "../runtime/src/engine/run-plan.js";
import type { HandlerModule } from "../runtime/src/handler-api.js";
import { FIXTURES, harnessPerTest, LEGACY_FIXTURE_ENV, REMOTE_CONTRACT, REMOTE_HANDLERS, runArgs, tokenOf } from "./runtime-harness.js";

// Real processes and services on a shared 2-core machine: generous per-test time.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const h = harnessPerTest();

const GUARDS = join(FIXTURES, "guards-handlers.mjs");

async function unitErrors(run: string) {
  const s = await h.open();
  const facts = await s.loadFacts(run);
  verifyChain(await s.listChainLinks(run));
  const events = await s.listEvents(run, { type: "attempt-failed" });
  await s.close();
  return { units: new Map(facts.units.map((u) => [u.unit, u])), events };
}

describe("run-time guards", () => {
  it("refuses undeclared tools, undeclared artifacts, path escapes; enforces loop max, retry budget, verifiers, timeouts, result shape", async () => {
    const artifacts = join(h.dir, "artifacts");
    const contract = join(FIXTURES, "guards.task.yaml");
    // --isolation none: g_symlink plants a symlink as its own attempt directory, which only a handler in the worker's
    // process can (a handler process may write only inside that directory); the worker's guards are the same in both
    const out = await h.cli([...runArgs("R", contract, GUARDS), "--artifacts", artifacts], {
      TASKSPEC_TEST_ARTIFACTS: artifacts,
      ...LEGACY_FIXTURE_ENV,
    });
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/run R: failed/);
    const { units } = await unitErrors("R");
    const err = (u: string) => units.get(u)?.lastError;

    expect(units.get("good")?.state).toBe("succeeded");
    // 1. undeclared tool: refused with unit, tool and contract; nothing reached the blog
    expect(err("g_tool")).toMatchObject({ class: "guard" });
    expect(err("g_tool")?.message).toMatch(/unit g_tool called tool create_post, which is not in its `uses` \[\].*guards\.task\.yaml:26:3/);
    expect((await h.stats("blog")).callsPerKey).toEqual({});
    // 2. undeclared artifact and path escapes: refused, nothing written outside the attempt directory
    expect(err("g_artifact")).toMatchObject({ class: "guard" });
    expect(err("g_artifact")?.message).toMatch(/wrote artifact "secret-notes", which its `produces` \[artifact-out\] does not declare/);
    expect(existsSync(join(artifacts, "runs/R/g_artifact"))).toBe(false); // after a refusal, nothing of the attempt is written
    expect(existsSync(join(artifacts, "runs/R/escape"))).toBe(false);
    expect(existsSync("/tmp/absolute")).toBe(false);
    expect(err("g_symlink")).toMatchObject({ class: "guard" });
    expect(err("g_symlink")?.message).toMatch(/symlink/);
    // 3. loop max and retry budget
    expect(err("g_loop")).toMatchObject({ class: "loop-exhausted" });
    expect(err("g_loop")?.message).toMatch(/after max 3 iterations without `until` \(result\.converged == true\)/);
    expect(units.get("g_retry")).toMatchObject({ state: "failed", attempts: 3, failures: 3 });
    // 5. verifiers decide, not the handler
    expect(units.get("g_verifier")?.state).toBe("failed");
    expect(err("g_verifier")).toMatchObject({ class: "verifier-failed" });
    expect(err("g_verifier")?.message).toMatch(/ok: result\.ok == true is false/);
    // 6. throw, hang past timeout, garbage: failed attempts with classified errors
    expect(err("g_throw")).toMatchObject({ class: "handler-error" });
    expect(err("g_throw")?.message).toMatch(/handler bug/);
    expect(err("g_hang")).toMatchObject({ class: "timeout" });
    expect(err("g_garbage")).toMatchObject({ class: "invalid-result" });
    expect(err("g_garbage")?.message).toMatch(/cycle/);
    expect(err("g_missing")?.message).toMatch(/did not write its declared artifact\(s\) missing-out/);
    const s = await h.open();
    const committed = (await s.listArtifacts("R", { status: "committed" })).map((a) => a.unit);
    expect(committed).toEqual(["good"]);
    await s.close();
  });

  it("3. spending past a cap blocks with reason budget before the call; raising the cap is a recorded decision", async () => {
    const contract = join(FIXTURES, "guards-budget.task.yaml");
    const out = await h.cli(runArgs("R", contract, GUARDS));
    expect(out.code).toBe(3); // blocked
    const status = JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout);
    expect(status.status).toBe("blocked");
    expect(status.blocked[0]).toMatchObject({ reason: "budget" });
    expect(status.budget.used.model_calls ?? 0).toBe(0);
    expect((await h.stats("blog")).callsPerKey).toEqual({});
    const raise = await h.cli(["budget", "R", "--cap", "model_calls=30", "--reason", "approved"]);
    expect(raise.stdout).toMatch(/lifts the budget block/);
    expect((await h.cli(["resume", "R"])).code).toBe(0);
    expect((await h.stats("blog")).callsPerKey).toEqual({ "budget:R": 1 });
    const s = await h.open();
    expect((await s.getRun("R"))?.budgetUsed.model_calls).toBe(25);
    expect((await s.listEvents("R", { type: "decision" })).map((e) => e.data?.action)).toEqual(["budget-raise"]);
    await s.close();
  });

  it("5. the task is done only when task.done passes on the final artifacts", async () => {
    const out = await h.cli(runArgs("R", join(FIXTURES, "guards-done.task.yaml"), GUARDS));
    expect(out.code).toBe(3); // blocked
    const status = JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout);
    expect(status.counts.current).toBe(1);
    expect(status.status).not.toBe("done");
    expect(status.blocked[0].detail).toMatch(/task\.done failed on the final artifacts: result\.value == 42/);
  });

  describe("4. effects the compiler would forbid are refused at run time too (hand-edited plans)", () => {
    // A plan file is checked when it is loaded (the compiler's C034 and C033: test/runtime-plan-json.test.ts), so
    // these plans reach the worker only through the library, the way a program that builds its own plan runs one:
    // the worker's own guard is the second line, shown here.
    const runEdited = async (edit: (p: Plan) => void): Promise<void> => {
      // A hand edit works on a copy: the compiler's plans are frozen in tests.
      const plan = structuredClone(compile(readFileSync(REMOTE_CONTRACT, "utf8")).plan!);
      edit(plan);
      plan.planHash = planHashOf(plan);
      expect(validatePlan(plan).ok).toBe(false); // what `taskspec run` would refuse
      const saved = { ...process.env };
      Object.assign(process.env, h.env);
      const store = await h.open();
      try {
        const handlers = ((await import(REMOTE_HANDLERS)) as { default: HandlerModule }).default;
        await runPlan({
          store,
          plan,
          handlers,
          run: "R",
          artifacts: join(h.dir, "artifacts"),
          contractFile: REMOTE_CONTRACT,
          log: () => {},
        });
      } finally {
        await store.close();
        for (const name of Object.keys(h.env)) if (saved[name] === undefined) delete process.env[name];
        Object.assign(process.env, saved);
      }
    };

    it("an irreversible tool is never called without a current approval", async () => {
      await runEdited((p) => {
        delete p.units.find((u) => u.id === "mail")!.approval;
      });
      const { units } = await unitErrors("R");
      expect(units.get("mail")?.lastError).toMatchObject({ class: "guard" });
      expect(units.get("mail")?.lastError?.message).toMatch(/send_mail is irreversible and unit mail has no current approval/);
      expect((await h.stats("mail")).counters.sends ?? 0).toBe(0);
    });

    it("a dedup tool is never called without its key", async () => {
      await runEdited((p) => {
        delete p.tools.find((t) => t.name === "create_post")!.key;
      });
      const { units } = await unitErrors("R");
      expect(units.get("post")?.lastError?.message).toMatch(/dedup tool create_post has no idempotency key; refused/);
      expect((await h.stats("blog")).callsPerKey).toEqual({});
    });
  });

  it("4. an expired approval or one for another plan version is not reused", async () => {
    const contract = join(h.dir, "remote.task.yaml");
    copyFileSync(REMOTE_CONTRACT, contract);
    const first = await h.cli(runArgs("R", contract, REMOTE_HANDLERS));
    expect((await h.cli(["approve", "R", "mail", "--token", tokenOf(first, "mail"), "--expires", "1s"])).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1200));
    const expired = await h.cli(["resume", "R"]);
    expect(expired.stdout).toMatch(/blocked mail: approval/);
    expect((await h.cli(["approve", "R", "mail", "--token", tokenOf(expired, "mail")])).code).toBe(0);
    writeFileSync(contract, readFileSync(contract, "utf8").replace("version: 1", "version: 2"));
    const newPlan = await h.cli(["resume", "R"]);
    expect(newPlan.stderr).toMatch(/the contract changed/);
    expect(newPlan.stdout).toMatch(/blocked mail: approval/);
    expect((await h.stats("mail")).counters.sends ?? 0).toBe(0);
    const status = JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout);
    expect(status.approvals.granted.map((a: { current: boolean }) => a.current)).toEqual([false, false]);
    expect((await h.cli(["approve", "R", "mail", "--token", tokenOf(newPlan, "mail")])).code).toBe(0);
    expect((await h.cli(["resume", "R"])).code).toBe(0);
    expect((await h.stats("mail")).counters.sends).toBe(1);
  });
});
