/**
 * The hostile inputs every entry point is fed (compile, check, impact and
 * format in-process; `taskspec check` and the language server as processes),
 * each with what a reader must get instead of a throw, a hang or a flood: the
 * diagnostic codes of `compile`, or the reader's refusal of the file. The
 * small ones are files in inputs/; the large, binary and CRLF ones are made
 * here (a repository keeps neither 8 MiB nor line endings reliably).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const INPUTS = join(import.meta.dirname, "inputs");
const REPO = join(import.meta.dirname, "..", "..");

export interface HostileInput {
  /** A file name ending in .task.yaml. */
  name: string;
  bytes: Buffer;
  /** The codes `compile` reports for the text (sorted, each once); absent when the reader refuses the file. */
  codes?: string[];
  /** Why the contract reader (CLI, language server) refuses the file without compiling it. */
  refused?: RegExp;
}

const FRAME = `contract: 1
task:
  id: hostile
  goal: test
  outputs: [out]
  done: [ok]
budgets: { model_calls: 100 }
verifiers:
  ok: { kind: rule, check: "result.ok" }
units:
  a: { produces: [out], verify: [ok] }
`;

/** A valid contract with `extra` appended to unit a's entry (`a: { ... <extra> }`). */
const unitWith = (extra: string) => FRAME.replace("verify: [ok] }", `verify: [ok]${extra} }`);

/** The codes expected of the files in inputs/ (each file says in its first line what it is). */
const FILES: Record<string, string[]> = {
  "nested-flow-keys.task.yaml": ["C001"],
  "flow-keys-closed.task.yaml": ["C002"],
  "alias-bomb.task.yaml": ["C001"],
  "prototype-keys.task.yaml": ["C002"],
  "huge-numbers.task.yaml": ["C002", "C021"],
  "infinite-number.task.yaml": ["C002"],
  "crlf-trailing-comment.lf.task.yaml": [],
  // the library read it as an empty value (and the formatter threw on it)
  "unresolved-alias.task.yaml": ["C001"],
};

const MiB = 1024 * 1024;

/** A valid contract whose units form one chain `n` deep: an impact at u0 explains every unit by a path up to n - 1 hops. */
export function chainContract(n: number): string {
  const units = Array.from(
    { length: n },
    (_, i) => `  u${i}: { produces: [o${i}], verify: [ok]${i > 0 ? `, needs: { u${i - 1}: content }` : ""} }`,
  );
  return FRAME.replace("outputs: [out]", `outputs: [o${n - 1}]`).replace(/units:\n[^]*$/, `units:\n${units.join("\n")}\n`);
}

export function hostileInputs(): HostileInput[] {
  const files = readdirSync(INPUTS).sort();
  const missing = Object.keys(FILES).filter((f) => !files.includes(f));
  if (missing.length > 0 || files.length !== Object.keys(FILES).length)
    throw new Error(`inputs/ and FILES disagree: ${missing.join(", ")}`);
  const crlf = readFileSync(join(INPUTS, "crlf-trailing-comment.lf.task.yaml"), "utf8").replaceAll("\n", "\r\n");
  // 2,000 undeclared names on one 31 KB line: 2,000 diagnostics whose frames would each repeat the line
  const needs = Array.from({ length: 2000 }, (_, i) => `n${i}: content`).join(", ");
  return [
    ...files.map((name) => ({ name, bytes: readFileSync(join(INPUTS, name)), codes: FILES[name]! })),
    { name: "crlf-trailing-comment.task.yaml", bytes: Buffer.from(crlf), codes: [] },
    { name: "deep-flow.task.yaml", bytes: Buffer.from(`units: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`), codes: ["C001"] },
    {
      name: "deep-block.task.yaml",
      bytes: Buffer.from(Array.from({ length: 3000 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")),
      codes: ["C001"],
    },
    // values quoted in messages: a 3,000-item list for `contract: 1`, a 5,000-character verifier kind and timeout
    {
      name: "long-values.task.yaml",
      bytes: Buffer.from(
        FRAME.replace("contract: 1", `contract: [${"x, ".repeat(3000)}x]`)
          .replace("kind: rule", `kind: ${"r".repeat(5000)}`)
          .replace("verify: [ok] }", `verify: [ok], timeout: ${"9".repeat(5000)}m }`),
      ),
      codes: ["C002"],
    },
    // a 5,000-character name used where a tool's name goes: each message quoting it is clipped
    {
      name: "long-name.task.yaml",
      bytes: Buffer.from(FRAME.replace("units:", `tools:\n  t1: { class: dedup, key: "k", lookup: ${"y".repeat(5000)} }\nunits:`)),
      codes: ["C031"],
    },
    // 3,000 lines inside an unclosed `[`: the YAML library's parser recursed once per line (stack overflow)
    {
      name: "unclosed-flow.task.yaml",
      bytes: Buffer.from(FRAME.replace("done: [ok]", `done: [ok: 1\n${"  tokens: 100000\n".repeat(3000)}`)),
      codes: ["C001"],
    },
    // the paths explaining an impact at u0 add up to n²/2 hops: printed whole, gigabytes of JSON (bench/RESULTS.md, "figures behind code comments")
    { name: "deep-chain.task.yaml", bytes: Buffer.from(chainContract(1500)), codes: [] },
    { name: "long-line-errors.task.yaml", bytes: Buffer.from(unitWith(`, needs: { ${needs} }`)), codes: ["C010"] },
    // the size limit plus one byte: compile refuses the text, the reader the file
    {
      name: "limit-plus-one.task.yaml",
      bytes: Buffer.from(FRAME + "#".repeat(8 * MiB + 1 - FRAME.length)),
      codes: ["C001"],
      refused: /larger than/,
    },
    { name: "binary.task.yaml", bytes: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), codes: ["C001"] },
    { name: "nul.task.yaml", bytes: Buffer.from(FRAME.replace("goal: test", "goal: te\0st")), codes: ["C001"] },
    // ESC ] 0 ; … BEL sets a terminal's title, ESC [ 2 J clears the screen
    {
      name: "control-chars.task.yaml",
      bytes: Buffer.from(FRAME.replace("goal: test", "goal: te\x1b]0;owned\x07st\x1b[2J")),
      codes: ["C001"],
    },
    { name: "utf16-bom.task.yaml", bytes: Buffer.from(`\ufeff${FRAME}`, "utf16le"), refused: /UTF-16LE/ },
  ];
}

/** The text a reader would compile: the bytes as UTF-8 (what `compile` takes). */
export const textOf = (input: HostileInput): string => input.bytes.toString("utf8");

/** Writes the corpus into `dir`; returns the paths. */
export function writeCorpus(dir: string): string[] {
  return hostileInputs().map((input) => {
    const path = join(dir, input.name);
    writeFileSync(path, input.bytes);
    return path;
  });
}

/** The example contracts the fuzzer mutates: specs/, the `init` template and the runtime's fixtures. */
export function seedContracts(): { name: string; text: string }[] {
  const from = (folder: string) =>
    readdirSync(join(REPO, folder))
      .filter((f) => f.endsWith(".task.yaml"))
      .sort()
      .map((f) => ({ name: `${folder}/${f}`, text: readFileSync(join(REPO, folder, f), "utf8") }));
  return [...from("specs"), ...from("cli/templates/init"), ...from("runtime/test/fixtures")];
}
