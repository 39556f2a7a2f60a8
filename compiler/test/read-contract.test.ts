/**
 * The shared contract reader (CLI and language server): only regular files,
 * at most the limit plus one byte, other Unicode encodings named. Real files,
 * FIFOs and devices in a temp folder; a hang would trip vitest's timeout.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findContracts, findContractsSync, readContractText, readContractTextSync } from "../src/node/index.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => join(dir, name);

writeFileSync(at("ok.task.yaml"), "task: { id: a }\n");
execFileSync("mkfifo", [at("pipe.task.yaml")]);
symlinkSync("/dev/zero", at("zero.task.yaml"));
writeFileSync(at("utf16.task.yaml"), Buffer.from("\ufefftask:\n", "utf16le"));
writeFileSync(at("utf16-no-bom.task.yaml"), Buffer.from("task:\n", "utf16le"));
writeFileSync(at("utf32.task.yaml"), Buffer.from([0xff, 0xfe, 0, 0, 0x74, 0, 0, 0]));
writeFileSync(at("big.task.yaml"), "#".repeat(4097));
writeFileSync(at("binary.task.yaml"), Buffer.from([0, 0xef, 0xde, 0, 0x9a, 0x7f]));
mkdirSync(at("sub/node_modules"), { recursive: true });
writeFileSync(at("sub/b.task.yaml"), "x: 1\n");
writeFileSync(at("sub/node_modules/c.task.yaml"), "x: 1\n");

const both = async (path: string, maxBytes?: number) => {
  const sync = readContractTextSync(path, maxBytes);
  expect(await readContractText(path, maxBytes)).toEqual(sync);
  return sync;
};

describe("reading a contract file", () => {
  it("reads a regular file", async () => {
    expect(await both(at("ok.task.yaml"))).toEqual({ ok: true, text: "task: { id: a }\n" });
  });

  it("refuses a FIFO without waiting for a writer", async () => {
    expect(await both(at("pipe.task.yaml"))).toMatchObject({ ok: false, reason: "it is a named pipe (FIFO), not a regular file" });
  });

  it("refuses /dev/zero and a symlink to it without reading", async () => {
    expect(await both("/dev/zero")).toMatchObject({ ok: false, reason: "it is a character device, not a regular file" });
    expect(await both(at("zero.task.yaml"))).toMatchObject({ ok: false, reason: "it is a character device, not a regular file" });
  });

  it("refuses a file over the limit", async () => {
    expect(await both(at("big.task.yaml"), 4096)).toMatchObject({ ok: false, reason: expect.stringContaining("larger than") });
    expect(await both(at("big.task.yaml"), 4097)).toMatchObject({ ok: true });
  });

  it("names UTF-16 and UTF-32, with or without a byte-order mark", async () => {
    expect(await both(at("utf16.task.yaml"))).toMatchObject({ ok: false, reason: expect.stringContaining("UTF-16LE") });
    expect(await both(at("utf16-no-bom.task.yaml"))).toMatchObject({ ok: false, reason: expect.stringContaining("UTF-16LE") });
    expect(await both(at("utf32.task.yaml"))).toMatchObject({ ok: false, reason: expect.stringContaining("UTF-32LE") });
  });

  it("takes NULs beside bytes past ASCII for binary data (the compiler's C001), not for UTF-16", async () => {
    expect(await both(at("binary.task.yaml"))).toMatchObject({ ok: true });
  });

  it("says why a missing file or a folder cannot be read", async () => {
    expect(await both(at("missing.task.yaml"))).toMatchObject({ ok: false, reason: "no such file or directory" });
    expect(await both(at("sub"))).toMatchObject({ ok: false, reason: "it is a directory" });
  });
});

describe("searching a folder for contracts", () => {
  it("finds the same files synchronously and asynchronously, special files included for the reader to refuse", async () => {
    const problems: unknown[] = [];
    const sync = findContractsSync(dir, problems as never);
    const found: string[] = [];
    for await (const path of findContracts(dir)) found.push(path);
    expect(found).toEqual(sync);
    expect(sync.map((p) => p.slice(dir.length + 1))).toEqual([
      "big.task.yaml",
      "binary.task.yaml",
      "ok.task.yaml",
      "pipe.task.yaml",
      "sub/b.task.yaml",
      "utf16-no-bom.task.yaml",
      "utf16.task.yaml",
      "utf32.task.yaml",
      "zero.task.yaml",
    ]);
    expect(problems).toEqual([]);
  });
});
