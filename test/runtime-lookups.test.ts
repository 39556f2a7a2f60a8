/**
 * Lookups are validated, with real worker processes and
 * the example blog service: a lookup answer that is not the tool's receipt
 * (a wrapper like `{ posts: [] }` for "absent", a record missing a declared
 * field) is never adopted; the unit blocks with a message naming the field,
 * the effect stays UNKNOWN, nothing is re-sent; a correct answer later
 * settles it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerTest, REMOTE_CONTRACT, REMOTE_HANDLERS } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const h = harnessPerTest();

/** The remote fixture's module whose find_post answers what LOOKUP_ANSWER says (JSON), when set. */
function handlersWithLookup(): string {
  const path = join(h.dir, "lookup-handlers.mjs");
  writeFileSync(
    path,
    `import full from ${JSON.stringify(REMOTE_HANDLERS)};
const real = full.tools.find_post;
const find_post = { call: async (args, meta) => (process.env.LOOKUP_ANSWER ? JSON.parse(process.env.LOOKUP_ANSWER) : real.call(args, meta)) };
export default { ...full, tools: { ...full.tools, find_post } };
`,
  );
  return path;
}

const postEffect = async () => {
  const s = await h.open();
  const [e] = await s.listEffects("R", { unit: "post" });
  await s.close();
  return e!;
};

describe("a lookup answers the receipt or null, nothing else", () => {
  it.each([
    [
      "a wrapper object for absent",
      '{"posts":[]}',
      /lookup find_post answered a record without field `post_id` \(declared in create_post\.result; it has `posts`\); not adopted/,
    ],
    ["a record missing a declared field", '{"post_id":"p-1"}', /without field `url` \(declared in create_post\.result/],
    ["an array", "[]", /lookup find_post answered an array; a lookup must answer create_post's receipt \(an object\) or null for absent/],
  ])("%s is not adopted: the unit blocks naming it, the effect stays UNKNOWN, nothing is re-sent", async (_name, answer, message) => {
    const handlers = handlersWithLookup();
    const first = await h.cli(["run", REMOTE_CONTRACT, "--handlers", handlers, "--run", "R"], {
      TASKSPEC_CRASH_AT: "after-effect-before-receipt@post/create_post",
    });
    expect(first.signal).toBe("SIGKILL");
    const resumed = await h.cli(["resume", "R"], { LOOKUP_ANSWER: answer });
    expect(resumed.code).toBe(3); // blocked: the unit waits for resolve or a fixed lookup
    expect(resumed.stderr).not.toMatch(/internal error/);
    expect(resumed.stdout).toMatch(message);
    expect(await postEffect()).toMatchObject({ state: "UNKNOWN", lookupUsed: "find_post" });
    const status = JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout);
    expect(status.status).toBe("blocked");
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
    // the real answer settles it: adopted, never sent again
    await h.cli(["resume", "R"]);
    expect(await postEffect()).toMatchObject({ state: "COMMITTED", lookupUsed: "find_post" });
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
  });
});
