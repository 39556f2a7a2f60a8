/**
 * Broken stores give one clear line naming the store (password redacted) and
 * exit 2, never a stack trace, and lose nothing committed: a file that is not
 * SQLite, a directory, a FIFO, a damaged file, a folder that cannot be made,
 * no permission, a read-only or full file system (a real tmpfs in a private
 * mount namespace), a PostgreSQL server that refuses, an unknown role or
 * database. Every case runs the real CLI.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, openSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, runCli, type CliResult } from "./runtime-harness.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "cli/bin/taskspec.js");
const dir = mkdtempSync(join(tmpdir(), "taskspec-store-errors-"));
chmodSync(dir, 0o755); // the permission case runs as another user
const at = (name: string) => join(dir, name);

/** One line on stderr, the store named, exit 2, no stack and no "internal error". */
function expectStoreError(r: CliResult, shown: string, problem: RegExp): void {
  expect(r.stderr, r.stderr).not.toMatch(/internal error|\n\s+at |SqliteError/);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain(`taskspec: the store ${shown} `);
  expect(r.stderr).toMatch(problem);
  expect(r.code).toBe(2);
}

const chain = (run: string, store: string) =>
  runCli(
    ["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", run, "--artifacts", at("art")],
    {},
    store,
  );

beforeAll(async () => {
  writeFileSync(at("notes.txt"), "these are notes, not a database; ".repeat(10));
  mkdirSync(at("a-folder"));
  spawnSync("mkfifo", [at("fifo.db")]);
  mkdirSync(at("locked"));
  chmodSync(at("locked"), 0o000);
  // a store with a committed run, then a copy with its pages overwritten
  expect((await chain("R1", `sqlite:${at("good.db")}`)).code).toBe(0);
  copyFileSync(at("good.db"), at("damaged.db"));
  const fd = openSync(at("damaged.db"), "r+");
  // page 1 past the 100-byte header: the schema no longer reads back
  writeSync(fd, Buffer.alloc(3996, 0x5a), 0, 3996, 100);
  closeSync(fd);
});

describe("a store that cannot be opened is one line and exit 2", () => {
  const cases: Array<{ name: string; store: () => string; shown?: () => string; problem: RegExp }> = [
    { name: "a text file", store: () => `sqlite:${at("notes.txt")}`, problem: /is not an SQLite database; point --store/ },
    { name: "a directory", store: () => `sqlite:${at("a-folder")}`, problem: /is a directory; name a file in it/ },
    { name: "a FIFO (would block)", store: () => `sqlite:${at("fifo.db")}`, problem: /is not a regular file/ },
    { name: "a device", store: () => "sqlite:/dev/zero", problem: /is not a regular file/ },
    {
      name: "a file used as a folder",
      store: () => `sqlite:${at("notes.txt")}/x.db`,
      problem: /its folder cannot be made.*is not a directory/,
    },
    // Node's recursive mkdir never returns under /proc: this case hung at 100 % CPU
    {
      name: "a folder that cannot be made (/proc)",
      store: () => "sqlite:/proc/taskspec-no/store.db",
      problem: /its folder cannot be made/,
    },
    { name: "a damaged file", store: () => `sqlite:${at("damaged.db")}`, problem: /is damaged .*restore it from a backup/ },
    {
      name: "a refused PostgreSQL connection (password redacted)",
      store: () => "postgres://alice:s3cret-pw@127.0.0.1:1/db",
      shown: () => "postgres://alice:***@127.0.0.1:1/db",
      problem: /is unreachable; check the host and port/,
    },
  ];
  for (const c of cases) {
    it.concurrent(c.name, async () => {
      const r = await runCli(["status", "R1"], {}, c.store());
      expectStoreError(r, c.shown?.() ?? c.store(), c.problem);
      expect(r.stderr).not.toContain("s3cret-pw");
    });
  }

  it("a folder without permission (as an unprivileged user)", async () => {
    const store = `sqlite:${at("locked")}/store.db`;
    // root ignores permission bits: run the CLI as nobody then
    const asNobody = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
    const cmd = [...asNobody, process.execPath, CLI, "status", "R1", "--store", store];
    const p = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8" });
    expectStoreError(
      { code: p.status, signal: p.signal, stdout: p.stdout, stderr: p.stderr },
      store,
      /permission denied; fix the permissions/,
    );
  });

  it("the committed run in the undamaged original is intact", async () => {
    const r = await runCli(["status", "R1", "--format", "json"], {}, `sqlite:${at("good.db")}`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "done", counts: { current: 3 } });
  });
});

/** Runs test/fixtures/store-errors/on-tmpfs.sh in a private mount namespace; its steps by name. */
function onTmpfs(scenario: "full" | "read-only"): Record<string, { rc: number; stderr: string }> {
  const work = mkdtempSync(join(tmpdir(), `taskspec-${scenario}-`));
  const p = spawnSync("unshare", ["-rm", "bash", join(ROOT, "test/fixtures/store-errors/on-tmpfs.sh")], {
    encoding: "utf8",
    env: { ...process.env, WORK: work, CLI, FIXTURES, SCENARIO: scenario, TASKSPEC_CRASH_AT: "" },
    timeout: 110_000,
  });
  expect(p.status, p.stderr + p.stdout).toBe(0);
  const steps: Record<string, { rc: number; stderr: string }> = {};
  for (const block of p.stdout.split(/^== /m).slice(1)) {
    const [head, ...rest] = block.split("\n");
    const m = /^(\S+) rc=(\d+)$/.exec(head!)!;
    steps[m[1]!] = { rc: Number(m[2]), stderr: rest.join("\n").trim() };
  }
  return { ...steps, work: { rc: 0, stderr: work } };
}

const unshareMissing = (): string | undefined =>
  spawnSync("unshare", ["-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"]).status === 0
    ? undefined
    : "unshare -rm with a tmpfs mount (user and mount namespaces)";

describeIfAvailable("a full or read-only file system (real tmpfs)", unshareMissing(), () => {
  const storeLine = (work: string, sub = "") => `the store sqlite:${work}/mnt/${sub}store.db `;

  it("a full disk mid-run: exit 2, nothing committed lost, resume finishes once there is space", () => {
    const s = onTmpfs("full");
    const work = s.work!.stderr;
    expect(s.first).toMatchObject({ rc: 0 });
    for (const step of ["second", "status-on-full-disk"]) {
      expect(s[step]!.stderr, step).toContain(storeLine(work));
      expect(s[step]!.stderr, step).toMatch(/is out of space: the change in progress was not written/);
      expect(s[step]!.stderr, step).not.toMatch(/internal error|\n\s+at /);
      expect(s[step]!.rc, step).toBe(2);
    }
    expect(s["status-R1"]).toMatchObject({ rc: 0 });
    expect(s["resume-R2"], s["resume-R2"]!.stderr).toMatchObject({ rc: 0 });
  });

  it("a read-only file system", () => {
    const s = onTmpfs("read-only");
    const work = s.work!.stderr;
    for (const [step, sub] of [
      ["status-read-only", ""],
      ["run-read-only", ""],
      ["new-folder", "new/"],
    ] as const) {
      expect(s[step]!.stderr, step).toContain(storeLine(work, sub));
      expect(s[step]!.stderr, step).toMatch(/is on a read-only location; choose a writable --store/);
      expect(s[step]!.rc, step).toBe(2);
    }
  });
});

describeIfAvailable("PostgreSQL stores that refuse", postgresMissing(), () => {
  const base = () => new URL(process.env.TASKSPEC_PG_URL!);
  it("an unknown role", async () => {
    const u = base();
    u.username = "no_such_role";
    u.password = "pw-not-shown";
    const r = await runCli(["status", "R1"], {}, u.toString());
    u.password = "***";
    expectStoreError(r, u.toString(), /refused the credentials; check the user and password/);
    expect(r.stderr).not.toContain("pw-not-shown");
  });
  it("an unknown database", async () => {
    const u = base();
    u.pathname = "/no_such_db";
    const r = await runCli(["status", "R1"], {}, u.toString());
    expectStoreError(r, u.toString(), /has no such database; create it first/);
  });
});
