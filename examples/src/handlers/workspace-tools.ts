/**
 * Tools on the local machine that the example contracts declare:
 * `search_web`/`fetch_page` read the page directory (TASKSPEC_PAGES_DIR,
 * see corpus.ts) and `write_file` saves a working copy under the tool's key in
 * TASKSPEC_WORKSPACE_DIR — idempotent because the key names the attempt.
 * Artifacts themselves go through `ctx.write`, which the runtime manifests.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ToolAdapter } from "@taskspec/runtime";

function dirFromEnv(name: string, what: string): string {
  const dir = process.env[name];
  if (!dir) throw new Error(`${name} is not set: give the directory of ${what}`);
  return dir;
}

export interface Page {
  id: string;
  title: string;
  text: string;
  sha256: string;
}

function readPage(id: string): Page {
  if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`bad page id ${JSON.stringify(id)}`);
  const text = fs.readFileSync(path.join(dirFromEnv("TASKSPEC_PAGES_DIR", "the pages to read"), `${id}.md`), "utf8");
  const title = (text.split("\n")[0] ?? "").replace(/^#\s*/, "");
  return { id, title, text, sha256: createHash("sha256").update(text).digest("hex") };
}

/** Every web page of the page directory, in id order: what a search can find today. */
export function webPages(): Page[] {
  return fs
    .readdirSync(dirFromEnv("TASKSPEC_PAGES_DIR", "the pages to read"))
    .filter((name) => name.startsWith("web-") && name.endsWith(".md"))
    .map((name) => name.replace(/\.md$/, ""))
    .sort()
    .map(readPage);
}

export const workspaceTools: Record<string, ToolAdapter> = {
  fetch_page: {
    async call(args) {
      return readPage(String(args.id));
    },
  },
  search_web: {
    async call(args) {
      const words = String(args.query)
        .toLowerCase()
        .split(/\W+/)
        .filter((word) => word.length > 3);
      return webPages()
        .filter((page) => words.some((word) => page.text.toLowerCase().includes(word)))
        .map(({ id, title }) => ({ id, title }));
    },
  },
  write_file: {
    async call(args, meta) {
      if (!meta.key) throw new Error("write_file needs its key (the contract declares one)");
      const name = String(args.name);
      if (name.includes("/") || name.includes("..")) throw new Error(`bad file name ${JSON.stringify(name)}`);
      const content = String(args.content);
      const dir = path.join(dirFromEnv("TASKSPEC_WORKSPACE_DIR", "the agent's working files"), meta.key);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
      return {
        path: path.join(meta.key, name),
        bytes: Buffer.byteLength(content),
        sha256: createHash("sha256").update(content).digest("hex"),
      };
    },
  },
};
