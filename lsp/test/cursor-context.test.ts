import { LineIndex } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { cursorContext } from "../src/service/cursor-context.js";
import { withCursor } from "./helpers.js";

function contextOf(marked: string) {
  const { text, offset } = withCursor(marked);
  const { path, slot, word } = cursorContext(text, offset, new LineIndex(text).lineStarts);
  return { path, slot, word: text.slice(word.start, word.end) };
}

const UNIT = "units:\n  S04:\n    phase: synth\n";

describe("cursor context from text (works on half-typed lines)", () => {
  it.each([
    ["top-level key", "contract: 1\nta‸", { path: [], slot: "key", word: "ta" }],
    ["unit key on an empty line", `${UNIT}    ‸`, { path: ["units", "S04"], slot: "key", word: "" }],
    ["unit key, partial", `${UNIT}    ne‸`, { path: ["units", "S04"], slot: "key", word: "ne" }],
    ["unit value", `${UNIT}    approval: hu‸`, { path: ["units", "S04", "approval"], slot: "value", word: "hu" }],
    ["block needs: a key", `${UNIT}    needs:\n      E0‸`, { path: ["units", "S04", "needs"], slot: "key", word: "E0" }],
    [
      "block needs: an edge kind",
      `${UNIT}    needs:\n      E01: con‸`,
      { path: ["units", "S04", "needs", "E01"], slot: "value", word: "con" },
    ],
    ["flow needs: a key", `${UNIT}    needs: { E01: content, ‸`, { path: ["units", "S04", "needs"], slot: "key", word: "" }],
    [
      "flow needs: a kind in a list",
      `${UNIT}    needs: { E01: [content, st‸`,
      { path: ["units", "S04", "needs", "E01"], slot: "value", word: "st" },
    ],
    ["flow uses", `${UNIT}    uses: [fetch_page, wr‸`, { path: ["units", "S04", "uses"], slot: "value", word: "wr" }],
    ["block list item", `${UNIT}    uses:\n      - fe‸`, { path: ["units", "S04", "uses"], slot: "item", word: "fe" }],
    ["indentless list item", `${UNIT}    uses:\n    - fe‸`, { path: ["units", "S04", "uses"], slot: "item", word: "fe" }],
    ["tool class", "tools:\n  send: { class: irr‸", { path: ["tools", "send", "class"], slot: "value", word: "irr" }],
    ["tool class, block", "tools:\n  send:\n    class: ‸", { path: ["tools", "send", "class"], slot: "value", word: "" }],
    ["impact rule key beside the first", "impact:\n  - on: audience\n    inv‸", { path: ["impact", "[]"], slot: "key", word: "inv" }],
    [
      "impact rule value",
      "impact:\n  - on: audience\n    invalidate: [U2‸",
      { path: ["impact", "[]", "invalidate"], slot: "value", word: "U2" },
    ],
    ["impact rule first key value", "impact:\n  - on: aud‸", { path: ["impact", "[]", "on"], slot: "value", word: "aud" }],
    [
      "indentless impact rule",
      "impact:\n- on: audience\n  invalidate: [‸",
      { path: ["impact", "[]", "invalidate"], slot: "value", word: "" },
    ],
    [
      "nested block list under an item",
      "impact:\n  - on: audience\n    invalidate:\n      - U‸",
      { path: ["impact", "[]", "invalidate"], slot: "item", word: "U" },
    ],
    [
      "comments and blank lines above",
      `units:\n  S04:\n\n    # a note\n    phase: synth\n    ‸`,
      { path: ["units", "S04"], slot: "key", word: "" },
    ],
    [
      "inline check in verify",
      `${UNIT}    verify: [has_claims, { check: "‸`,
      { path: ["units", "S04", "verify", "[]", "check"], slot: "value", word: "" },
    ],
  ])("%s", (_name, marked, expected) => {
    expect(contextOf(marked)).toEqual(expected);
  });
});
