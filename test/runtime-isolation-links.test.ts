/**
 * What a handler process may read, in the layouts package managers make, with
 * the real CLI and the default isolation: pnpm's (a package linked from
 * `node_modules/.pnpm/<name>@<version>/node_modules/<name>`, its own
 * dependencies links beside it, linked again) imports, and a module outside
 * every read root fails with a message that names the refused file and the
 * flag that allows it (`--handler-read`), where Node says only "Access to
 * this API has been restricted".
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const CONTRACT = `contract: 1
task:
  id: links
  version: 1
  goal: a handler that imports through linked packages
  outputs: [out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets: { retries: 0 }
units:
  step: { produces: [out], timeout: 1m }
`;

const handler = (imports: string, call: string) =>
  `${imports}\nexport default { units: { step: async (ctx) => { await ctx.write("out", ${call}); return {}; } }, tools: {} };\n`;

function pkg(dir: string, name: string, body: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, type: "module", main: "index.js" }));
  writeFileSync(join(dir, "index.js"), body);
}

it("a package linked the way pnpm links it, with a linked dependency of its own, imports in the handler process", async () => {
  const { dir, store } = tempRunDir("taskspec-links-pnpm-");
  const project = join(dir, "project");
  // the virtual store outside the project (pnpm's virtual-store-dir), so only links lead there
  const pnpm = join(dir, "store/.pnpm");
  // .pnpm/bar@1/node_modules/bar, and foo@1 links it beside foo: foo's `import "bar"` resolves there
  pkg(join(pnpm, "bar@1/node_modules/bar"), "bar", 'export const bar = () => "bar";\n');
  pkg(join(pnpm, "foo@1/node_modules/foo"), "foo", 'import { bar } from "bar";\nexport const foo = () => "foo+" + bar();\n');
  symlinkSync(join(pnpm, "bar@1/node_modules/bar"), join(pnpm, "foo@1/node_modules/bar"));
  // the project sees foo only, through a link into the store
  mkdirSync(join(project, "node_modules"), { recursive: true });
  symlinkSync(join(pnpm, "foo@1/node_modules/foo"), join(project, "node_modules/foo"));
  writeFileSync(join(project, "c.task.yaml"), CONTRACT);
  writeFileSync(join(project, "units.mjs"), handler('import { foo } from "foo";', "foo()"));

  const r = await runCli(["run", join(project, "c.task.yaml"), "--handlers", join(project, "units.mjs"), "--run", "R"], {}, store);
  expect(r.stdout + r.stderr).toContain("run R: done");
  expect(r.code).toBe(0);
});

it("a module outside every read root is refused with the file named and the flag that allows it; with --handler-read it imports", async () => {
  const { dir, store } = tempRunDir("taskspec-links-outside-");
  mkdirSync(join(dir, "lib"));
  writeFileSync(join(dir, "lib/x.mjs"), 'export const x = () => "x";\n');
  mkdirSync(join(dir, "handlers"));
  writeFileSync(join(dir, "handlers/units.mjs"), handler('import { x } from "../lib/x.mjs";', "x()"));
  writeFileSync(join(dir, "c.task.yaml"), CONTRACT);
  const args = ["run", join(dir, "c.task.yaml"), "--handlers", join(dir, "handlers/units.mjs")];

  const refused = await runCli([...args, "--run", "R", "--artifacts", join(dir, "a1")], {}, store);
  expect(refused.code).not.toBe(0);
  expect(refused.stdout).toContain(
    `Access to this API has been restricted (FileSystemRead of ${join(dir, "lib/x.mjs")}: outside what a handler process may read; allow it with --handler-read <path>)`,
  );

  const allowed = await runCli([...args, "--run", "S", "--artifacts", join(dir, "a2"), "--handler-read", join(dir, "lib")], {}, store);
  expect(allowed.stdout + allowed.stderr).toContain("run S: done");
});
