/**
 * The known hostile inputs (test/hostile/corpus.ts), in-process: each gets
 * its clean diagnostic codes from compile, or the contract reader's refusal,
 * and goes through check, impact and format without a throw and within
 * bounded time and output. CRLF and LF give the same diagnostics.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "@taskspec/compiler";
import { SUGGESTION_COMPARISONS } from "../../compiler/src/source/suggest.js";
import { readContractText, readContractTextSync } from "@taskspec/compiler/node";
import { afterAll, describe, expect, it } from "vitest";
import { hostileInputs, textOf, writeCorpus } from "./corpus.js";
import { exercise, MAX_MESSAGE, timeBound } from "./exercise.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeCorpus(dir);

describe("known hostile inputs", () => {
  for (const input of hostileInputs()) {
    it(`${input.name}: ${input.codes ? input.codes.join(", ") || "no diagnostics" : ""}${input.refused ? ` (the reader refuses: ${input.refused.source})` : ""}`, async () => {
      const path = join(dir, input.name);
      const read = readContractTextSync(path);
      expect(await readContractText(path)).toEqual(read);
      if (input.refused) expect(read).toMatchObject({ ok: false, reason: expect.stringMatching(input.refused) });
      else expect(read).toEqual({ ok: true, text: textOf(input) });
      if (!input.codes) return;
      const f = exercise(textOf(input));
      expect(f.codes).toEqual(input.codes);
      expect(f.ms).toBeLessThan(timeBound(f));
      expect(f.longestMessage).toBeLessThanOrEqual(MAX_MESSAGE);
      // flow maps nested as keys used to format into indentation quadratic in their depth
      expect(f.formatOut).toBeLessThanOrEqual(2 * input.bytes.length + 4096);
      // a chain's explanation paths, printed whole, were quadratic in its depth
      expect(f.impactOut).toBeLessThanOrEqual(40 * (input.bytes.length + 4096));
    });
  }

  it("thousands of unknown names in a contract of thousands of units: did-you-mean stops at its budget", () => {
    // each unknown x<i> is one edit from u<i>: without a budget, 3,000 names × 3,000 candidates
    const units = Array.from({ length: 3000 }, (_, i) => `  u${i}: { produces: [o${i}], verify: [ok], needs: { x${i}: content } }`);
    const text = `contract: 1\ntask: { id: t, goal: g, outputs: [o0], done: [ok] }\nbudgets: { model_calls: 1 }\nverifiers:\n  ok: { kind: rule, check: "result.ok" }\nunits:\n${units.join("\n")}\n`;
    const unknown = compile(text).diagnostics.filter((d) => d.code === "C010");
    expect(unknown).toHaveLength(3000);
    expect(unknown[0]!.message).toBe("unknown unit or input 'x0' in needs of unit 'u0' — did you mean 'u0'?");
    const suggested = unknown.filter((d) => d.message.includes("did you mean")).length;
    // each suggestion compares the name with the 3,000 declared units and inputs
    expect(suggested).toBe(Math.ceil(SUGGESTION_COMPARISONS / 3000));
    expect(unknown.at(-1)!.message).toBe("unknown unit or input 'x2999' in needs of unit 'u2999'");
  });

  it("a CRLF contract with a trailing comment line gets the diagnostics of its LF text, at the same lines and columns", () => {
    const inputs = hostileInputs();
    const lf = textOf(inputs.find((i) => i.name === "crlf-trailing-comment.lf.task.yaml")!);
    for (const broken of [lf, lf.replace("produces: [out]", "produces: [out"), lf.replace("verify: [ok]", "verify: [nope]")]) {
      const crlf = broken.replaceAll("\n", "\r\n");
      const at = (text: string) =>
        compile(text).diagnostics.map((d) => {
          const before = text.slice(0, d.span.start);
          return [d.code, d.message, before.split("\n").length, d.span.start - before.lastIndexOf("\n")];
        });
      expect(at(crlf)).toEqual(at(broken));
    }
  });
});
