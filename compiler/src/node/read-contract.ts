/**
 * Reading contract files from disk, shared by the CLI and the language
 * server so both refuse the same files the same way (the compiler itself
 * stays pure; this is its one Node-only module, exported as
 * `@taskspec/compiler/node`).
 *
 * Why not `readFile`: it reads everything before any limit applies, so
 * `/dev/zero` grows until the process aborts, and a FIFO named
 * `x.task.yaml` blocks forever. Here the file is opened non-blocking, only a
 * regular file is read (the check is on the opened descriptor, so a symlink
 * to a device is caught too), at most `maxBytes + 1` bytes are read, and
 * UTF-16/UTF-32 text is named instead of decoded as binary garbage.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { DEFAULT_LIMITS } from "../parse/limits.js";

/** The text, or why the file is not read (a sentence fragment after "cannot read '<path>': "). */
export type ReadOutcome = { ok: true; text: string } | { ok: false; reason: string; code?: string };

/** Contracts larger than this many bytes are refused before reading them whole (the compiler's own size cap). */
export const MAX_CONTRACT_BYTES = DEFAULT_LIMITS.maxChars;

// O_NONBLOCK: opening a FIFO for reading must not wait for a writer (absent on Windows, where FIFOs are not files)
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Reads a contract file synchronously (the CLI). */
export function readContractTextSync(path: string, maxBytes = MAX_CONTRACT_BYTES): ReadOutcome {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    return ioFailure(err);
  }
  try {
    const stat = fstatSync(fd);
    const refusal = refuseKind(stat, maxBytes);
    if (refusal) return refusal;
    const into = new Bytes(stat.size, maxBytes);
    while (into.room() > 0) {
      const n = readSync(fd, into.buffer, into.length, into.room(), null);
      if (n === 0) break;
      into.advance(n);
    }
    return into.length > maxBytes ? tooLarge(maxBytes) : decodeContractBytes(into.bytes());
  } catch (err) {
    return ioFailure(err);
  } finally {
    closeSync(fd);
  }
}

/** Reads a contract file without blocking the event loop (the language server). */
export async function readContractText(path: string, maxBytes = MAX_CONTRACT_BYTES): Promise<ReadOutcome> {
  let handle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (err) {
    return ioFailure(err);
  }
  try {
    const stat = await handle.stat();
    const refusal = refuseKind(stat, maxBytes);
    if (refusal) return refusal;
    const into = new Bytes(stat.size, maxBytes);
    while (into.room() > 0) {
      const { bytesRead } = await handle.read(into.buffer, into.length, into.room(), null);
      if (bytesRead === 0) break;
      into.advance(bytesRead);
    }
    return into.length > maxBytes ? tooLarge(maxBytes) : decodeContractBytes(into.bytes());
  } catch (err) {
    return ioFailure(err);
  } finally {
    await handle.close();
  }
}

/**
 * A read buffer sized by the file's stat (plus one byte, to notice growth)
 * that grows while the file keeps giving bytes, up to `maxBytes + 1` in all:
 * one byte past the limit is enough to know the file is too large.
 */
class Bytes {
  buffer: Buffer;
  length = 0;

  constructor(
    expected: number,
    private readonly maxBytes: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(expected, maxBytes) + 1);
  }

  /** Bytes the next read may add (0 once past the limit). */
  room(): number {
    if (this.length > this.maxBytes) return 0;
    if (this.length === this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.buffer.length * 2, this.maxBytes + 1));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    return this.buffer.length - this.length;
  }

  advance(n: number): void {
    this.length += n;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

/** Not a regular file, or a regular file already known to be too large: the reason; otherwise undefined. */
function refuseKind(stat: Stats, maxBytes: number): ReadOutcome | undefined {
  if (stat.isDirectory()) return { ok: false, reason: "it is a directory", code: "EISDIR" };
  if (!stat.isFile()) return { ok: false, reason: `it is ${describeKind(stat)}, not a regular file` };
  if (stat.size > maxBytes) return tooLarge(maxBytes);
  return undefined;
}

function describeKind(stat: Stats): string {
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "a special file";
}

function tooLarge(maxBytes: number): ReadOutcome {
  return { ok: false, reason: `it is larger than ${(maxBytes / (1024 * 1024)).toFixed(0)} MB; larger contracts are refused` };
}

/**
 * UTF-8 text from a file's bytes, or which other Unicode encoding it is in
 * (a byte-order mark, or the NUL pattern of ASCII text in UTF-16/32).
 */
export function decodeContractBytes(bytes: Uint8Array): ReadOutcome {
  const encoding = otherEncoding(bytes);
  if (encoding) return { ok: false, reason: `it is encoded as ${encoding}; contracts are UTF-8 (save the file as UTF-8)` };
  return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8") };
}

function otherEncoding(b: Uint8Array): string | undefined {
  const at = (i: number) => (i < b.length ? b[i]! : -1);
  if (at(0) === 0xff && at(1) === 0xfe && at(2) === 0 && at(3) === 0) return "UTF-32LE";
  if (at(0) === 0 && at(1) === 0 && at(2) === 0xfe && at(3) === 0xff) return "UTF-32BE";
  if (at(0) === 0xff && at(1) === 0xfe) return "UTF-16LE";
  if (at(0) === 0xfe && at(1) === 0xff) return "UTF-16BE";
  // no byte-order mark: a contract starts with ASCII, so the NULs around its
  // first character tell (a NUL beside a byte past ASCII is binary data, which
  // the compiler names as such)
  const ascii = (i: number) => at(i) > 0 && at(i) < 0x80;
  if (b.length >= 4 && ascii(0) && at(1) === 0 && at(2) === 0 && at(3) === 0) return "UTF-32LE";
  if (b.length >= 4 && at(0) === 0 && at(1) === 0 && at(2) === 0 && ascii(3)) return "UTF-32BE";
  if (b.length >= 2 && ascii(0) && at(1) === 0) return "UTF-16LE";
  if (b.length >= 2 && at(0) === 0 && ascii(1)) return "UTF-16BE";
  return undefined;
}

function ioFailure(err: unknown): ReadOutcome {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return { ok: false, reason: "no such file or directory", code };
    case "EACCES":
    case "EPERM":
      return { ok: false, reason: "permission denied", code };
    case "EISDIR":
      return { ok: false, reason: "it is a directory", code };
    case "ELOOP":
      return { ok: false, reason: "too many levels of symbolic links", code };
    default:
      return { ok: false, reason: (err as Error).message, code };
  }
}
