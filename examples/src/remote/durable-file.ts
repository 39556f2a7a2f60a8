/**
 * Crash-safe storage for the local remotes: a file is replaced by writing a
 * temporary file, fsyncing it and renaming it over the old one, so a service
 * killed at any moment leaves either the old or the new content. The remote is
 * the ground truth the demo and tests count effects against, so it must not
 * lose a record it acknowledged.
 */
import fs from "node:fs";
import path from "node:path";

export function writeFileDurably(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, "w");
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  const dir = fs.openSync(path.dirname(file), "r");
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

export function readJsonFile<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return fallback;
    throw error;
  }
}

/** One JSON file per record under `dir`, loaded once and kept in memory. */
export class RecordDir<T extends { id: string }> {
  private readonly records = new Map<string, T>();

  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    for (const name of fs.readdirSync(dir).sort()) {
      if (!name.endsWith(".json")) continue;
      const record = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as T;
      this.records.set(record.id, record);
    }
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  find(predicate: (record: T) => boolean): T | undefined {
    for (const record of this.records.values()) if (predicate(record)) return record;
    return undefined;
  }

  list(): T[] {
    return [...this.records.values()];
  }

  get size(): number {
    return this.records.size;
  }

  put(record: T): void {
    writeFileDurably(path.join(this.dir, `${record.id}.json`), JSON.stringify(record, null, 2));
    this.records.set(record.id, record);
  }
}
