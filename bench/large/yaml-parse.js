/** The baseline of bench/large/run.js: read a contract and parse it with `yaml` alone, as a process. */
import { readFileSync } from "node:fs";
import { parseDocument } from "yaml";

const doc = parseDocument(readFileSync(process.argv[2], "utf8"), { uniqueKeys: false });
if (doc.errors.length > 0) throw new Error(doc.errors[0].message);
