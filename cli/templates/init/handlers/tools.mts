// The tools module (`--tools dist/handlers/tools.mjs`): the adapters of the
// tools hello.task.yaml declares. The worker imports it, with its credentials,
// and records every call in its ledger, so a crash between "published" and
// "recorded" is looked up by key on resume instead of publishing twice.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ToolError, type ToolsModule } from "@taskspec/runtime";

// Stands in for a real service: one JSON file per published note.
const outbox = join(process.cwd(), "outbox");
const fileFor = (key: string) => join(outbox, `${encodeURIComponent(key)}.json`);

const tools: ToolsModule = {
  tools: {
    publish_note: {
      async call(args, meta) {
        if (!meta.key) throw new ToolError("publish_note needs its key", "failed"); // nothing was sent
        await mkdir(outbox, { recursive: true });
        const url = `file://${fileFor(meta.key)}`;
        // "wx": a second publish under the same key fails instead of replacing the first
        await writeFile(fileFor(meta.key), JSON.stringify({ key: meta.key, text: args.text, url }), { flag: "wx" });
        return { url };
      },
    },
    find_note: {
      async call(args) {
        try {
          return JSON.parse(await readFile(fileFor(String(args.key)), "utf8")) as unknown;
        } catch {
          return null; // absent: recovery may publish
        }
      },
    },
  },
};

export default tools;
