/**
 * Formats a contract's YAML through the `yaml` library's document model, so
 * comments and key order survive and only layout changes: indentation, the
 * space after `:` and `-`, flow collections written `{ a: 1 }` and `[a, b]`,
 * one newline at the end.
 *
 * Scalars keep their source text: the model would re-encode them from their
 * values (`"\u00e9"` becomes `"é"`, `0x1F` becomes `0x1f`, a folded `>` block
 * is refolded), which changes nothing in meaning but rewrites expressions and
 * templates the author wrote. So each scalar is printed as a placeholder and
 * the placeholder is then replaced by the scalar's own source, re-indented
 * where it spans lines. Text that does not parse cleanly, or that the library
 * cannot print back in proportion (unprintable below), is not formatted.
 */
import { isAlias, isCollection, parseDocument, YAMLMap, YAMLSeq, visit, type Document, type Scalar, type ToStringOptions } from "yaml";
import { indentStep, unusedName } from "./format-options.js";

export interface FormatOptions {
  /** Spaces per indentation level (YAML has no tabs). */
  indent: number;
}

/** The formatted text, or undefined when the text does not parse cleanly as one YAML document. */
export function formatYaml(text: string, options: FormatOptions): string | undefined {
  const crlf = text.includes("\r\n");
  const source = crlf ? text.replace(/\r\n/g, "\n") : text;
  const doc = parseOrUndefined(source);
  if (!doc || doc.errors.length > 0 || unprintable(doc)) return undefined;
  const marker = unusedName(source, "q");
  const originals = replaceScalars(doc, source, marker);
  padFlowMapsOnly(doc);
  const printed = doc.toString(printOptions(options));
  const out = restoreScalars(printed, marker, originals);
  if (out === undefined) return undefined;
  return crlf ? out.replace(/\n/g, "\r\n") : out;
}

/**
 * What the library cannot print back, or would print out of all proportion:
 * an alias without its anchor (`*nope`; the library throws on printing it),
 * and a map or a list used as a key. No contract has one (C002); the library
 * prints each such key as an explicit `? ` key on lines of its own, indented
 * one level deeper per level of nesting, so 30 levels in 200 bytes would come
 * back as kilobytes of indentation (and 64 levels on every line, megabytes).
 */
function unprintable(doc: Document): boolean {
  let found = false;
  // anchors in document order, as the library checks them while printing
  // (Alias.resolve would walk the whole document once per alias)
  const anchors = new Set<string>();
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) found = !anchors.has(node.source);
      else if (node.anchor) anchors.add(node.anchor);
      return found ? visit.BREAK : undefined;
    },
    Pair(_key, pair) {
      found = isCollection(pair.key);
      return found ? visit.BREAK : undefined;
    },
  });
  return found;
}

/** The document, or undefined when the library's parser overflows the stack (thousands of entries in an unclosed `[`). */
function parseOrUndefined(source: string): Document | undefined {
  try {
    return parseDocument(source, { prettyErrors: false, uniqueKeys: false });
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

function printOptions(options: FormatOptions): ToStringOptions {
  const indent = indentStep(options.indent);
  // lineWidth 0: never fold a line, so a flow collection or a scalar keeps its line
  return { indent, indentSeq: true, lineWidth: 0, minContentWidth: 0, flowCollectionPadding: true };
}

type StringifyContext = Parameters<YAMLSeq["toString"]>[0];

/**
 * `{ a: 1 }` but `[a, b]`, as the repository's contracts are written (and as
 * Prettier writes YAML). The library pads both kinds or neither, through one
 * field of the context it hands each collection to print (and each passes it
 * on to its items); so each flow collection becomes one of the two classes
 * below, which print their own brackets with their own padding.
 */
function padFlowMapsOnly(doc: Document): void {
  visit(doc, {
    Map(_key, node) {
      return node.flow && !(node instanceof PaddedFlowMap) ? Object.assign(new PaddedFlowMap(doc.schema), node) : undefined;
    },
    Seq(_key, node) {
      return node.flow && !(node instanceof UnpaddedFlowSeq) ? Object.assign(new UnpaddedFlowSeq(doc.schema), node) : undefined;
    },
  });
}

/** A flow mapping printed `{ a: 1 }`. */
class PaddedFlowMap extends YAMLMap {
  override toString(ctx?: StringifyContext, onComment?: () => void, onChompKeep?: () => void): string {
    return super.toString(ctx && { ...ctx, flowCollectionPadding: " " }, onComment, onChompKeep);
  }
}

/** A flow sequence printed `[a, b]`. */
class UnpaddedFlowSeq extends YAMLSeq {
  override toString(ctx?: StringifyContext, onComment?: () => void, onChompKeep?: () => void): string {
    return super.toString(ctx && { ...ctx, flowCollectionPadding: "" }, onComment, onChompKeep);
  }
}

interface Original {
  /** The scalar's source text as written (quotes, escapes, a block's header and lines). */
  text: string;
  /** A block scalar (`|` or `>`): its lines follow the header on lines of their own. */
  block: boolean;
  /** An explicit tag, printed before the text (the model would print it from the value). */
  tag?: string;
}

function replaceScalars(doc: Document, source: string, marker: string): Original[] {
  const originals: Original[] = [];
  visit(doc, {
    Scalar(_key, node) {
      const original = originalOf(node, source, doc);
      if (!original) return;
      node.value = `${marker}${originals.length}z`;
      if (original.tag !== undefined) node.tag = undefined;
      node.type = original.block ? "BLOCK_LITERAL" : "PLAIN";
      // a block's header comment is part of its source text, which comes back whole
      if (original.block) node.comment = null;
      originals.push(original);
    },
  });
  return originals;
}

function originalOf(node: Scalar, source: string, doc: Document): Original | undefined {
  if (!node.range) return undefined;
  let text = source.slice(node.range[0], node.range[1]);
  const block = node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED";
  if (block) {
    // An explicit indentation indicator (`|2`) counts from the parent's indentation, which formatting
    // may move: such a block is left to the model, which prints it from its value.
    if (/^[|>][+-]?[1-9]|^[|>][1-9]/.test(text)) return undefined;
    text = text.replace(/\n$/, "");
  }
  const original: Original = { text, block };
  if (node.tag !== undefined) original.tag = doc.directives?.tagString(node.tag) ?? `!<${node.tag}>`;
  return original;
}

/**
 * Puts every scalar's source back in place of its placeholder. A flow scalar
 * that spans lines gets its continuation lines at its own starting column
 * (deeper than its key, as YAML needs; their leading spaces are not content).
 * A block scalar keeps its header and its lines, shifted to the indentation
 * the model chose for the placeholder line.
 */
function restoreScalars(printed: string, marker: string, originals: Original[]): string | undefined {
  const pattern = new RegExp(`(\\|-\\n( *))?${marker}(\\d+)z`, "g");
  // Pieces joined once at the end, and the column of the output's end kept as we go: searching the
  // growing output for its last newline made this quadratic in the number of scalars.
  const out: string[] = [];
  let column = 0;
  const append = (piece: string) => {
    out.push(piece);
    const nl = piece.lastIndexOf("\n");
    column = nl === -1 ? column + piece.length : piece.length - nl - 1;
  };
  let last = 0;
  let restored = 0;
  for (const m of printed.matchAll(pattern)) {
    const original = originals[Number(m[3])];
    if (!original) return undefined;
    append(printed.slice(last, m.index));
    last = m.index + m[0].length;
    restored++;
    if (original.block) {
      if (m[1] === undefined) return undefined;
      append(blockText(original.text, m[2]!));
      continue;
    }
    const tagged = original.tag !== undefined ? `${original.tag} ` : "";
    append(tagged + flowText(original.text, " ".repeat(column + tagged.length)));
  }
  // every scalar must come back exactly once, or the output is not the input re-laid
  if (restored !== originals.length) return undefined;
  append(printed.slice(last));
  return out.join("");
}

function flowText(text: string, indent: string): string {
  const lines = text.split("\n");
  return lines.map((line, i) => (i === 0 ? line : line.trim() === "" ? "" : indent + line.trimStart())).join("\n");
}

function blockText(text: string, indent: string): string {
  const [header, ...lines] = text.split("\n");
  const keep = /^[|>]\+/.test(header!);
  // trailing empty lines are separation unless the block keeps them (`|+`): the model prints the separation itself
  while (!keep && lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  const content = lines.filter((l) => l.trim() !== "");
  const old = Math.min(...content.map((l) => l.length - l.trimStart().length));
  const shifted = lines.map((l) => (l.trim() === "" ? (l.length > old ? indent + l.slice(old) : "") : indent + l.slice(old)));
  return [header, ...shifted].join("\n");
}
