/**
 * Completion: the names valid at a cursor. Works on tokens before the cursor,
 * so it answers inside broken, half-typed expressions: after `.` the fields of
 * the path before it, where an operand may start the scope's roots and the
 * functions, after a complete operand or inside a string nothing. A name being
 * typed at the cursor is ignored (the editor filters by it). Names that cannot
 * be written in an expression (`04-x`, `null`, `a b`) are not offered.
 */
import type { IToken } from "chevrotain";
import type { ExprType } from "../plan/schema.js";
import { FUNCTION_NAMES, FUNCTIONS } from "./functions.js";
import { tokenize } from "./lexer.js";
import { findPartEnd } from "./template.js";
import {
  Dot,
  False,
  Identifier,
  LBracket,
  Null,
  NumberLiteral,
  RBracket,
  RParen,
  StringLiteral,
  True,
  UnterminatedString,
} from "./tokens.js";
import type { ExprScope, ScopeEntry } from "./types.js";

export interface Completion {
  label: string;
  type: ExprType;
}

const WORDS = new Set([Identifier, True, False, Null]);
const OPERAND_ENDS = new Set([Identifier, True, False, Null, NumberLiteral, StringLiteral, RParen, RBracket]);

export function completeAt(source: string, offset: number, scope: ExprScope): Completion[] {
  const at = Math.max(0, Math.min(offset, source.length));
  const tokens = tokenize(source.slice(0, at));
  let last = tokens[tokens.length - 1];
  if (last && last.tokenType === UnterminatedString) return [];
  if (last && WORDS.has(last.tokenType) && end(last) === at) {
    tokens.pop();
    last = tokens[tokens.length - 1];
  }
  if (!last) return rootsAndFunctions(scope);
  if (last.tokenType === Dot) return fieldsBefore(tokens, tokens.length - 2, scope);
  if (OPERAND_ENDS.has(last.tokenType)) return [];
  return rootsAndFunctions(scope);
}

/** Completion inside a template: delegates to completeAt when the cursor is inside a `${...}` part. */
export function completeTemplateAt(source: string, offset: number, scope: ExprScope): Completion[] {
  let i = 0;
  while (i < offset) {
    if (source.startsWith("$${", i)) {
      i += 3;
    } else if (source.startsWith("${", i)) {
      const close = findPartEnd(source, i + 2);
      if (close < 0 || close >= offset) {
        if (offset < i + 2) return [];
        return completeAt(source.slice(i + 2, close < 0 ? source.length : close), offset - (i + 2), scope);
      }
      i = close + 1;
    } else {
      i++;
    }
  }
  return [];
}

function end(token: IToken): number {
  return token.startOffset + token.image.length;
}

/** Whether a name can be written as it is (`E03`, `group-a`); `04-x` or `null` cannot, so they are not offered. */
function isWritable(name: string): boolean {
  const tokens = tokenize(name);
  return tokens.length === 1 && tokens[0]!.tokenType === Identifier && tokens[0]!.image === name;
}

function rootsAndFunctions(scope: ExprScope): Completion[] {
  const roots = Object.keys(scope)
    .filter(isWritable)
    .sort()
    .map((label) => ({ label, type: scope[label]!.type }));
  return [...roots, ...FUNCTION_NAMES.map((label) => ({ label, type: FUNCTIONS[label].returns }))];
}

type Step = { field: string } | { element: true };

/** The fields of the path that ends at token index `k` (just before a '.'). */
function fieldsBefore(tokens: IToken[], k: number, scope: ExprScope): Completion[] {
  const steps: Step[] = [];
  let root: string | undefined;
  while (k >= 0 && root === undefined) {
    const token = tokens[k]!;
    if (token.tokenType === Identifier) {
      if (tokens[k - 1]?.tokenType === Dot) {
        steps.unshift({ field: token.image });
        k -= 2;
      } else {
        root = token.image;
      }
    } else if (token.tokenType === RBracket) {
      const open = matchingBracket(tokens, k);
      if (open < 0) return [];
      const inside = tokens.slice(open + 1, k);
      const only = inside.length === 1 ? inside[0]! : undefined;
      steps.unshift(only && only.tokenType === StringLiteral ? { field: only.image.slice(1, -1) } : { element: true });
      k = open - 1;
    } else {
      return [];
    }
  }
  let entry: ScopeEntry | undefined = root !== undefined && Object.hasOwn(scope, root) ? scope[root] : undefined;
  for (const step of steps) {
    if (!entry) return [];
    entry = "field" in step && entry.fields && Object.hasOwn(entry.fields, step.field) ? entry.fields[step.field] : undefined;
  }
  if (!entry?.fields) return [];
  const fields = entry.fields;
  return Object.keys(fields)
    .filter(isWritable)
    .sort()
    .map((label) => ({ label, type: fields[label]!.type }));
}

function matchingBracket(tokens: IToken[], close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const type = tokens[i]!.tokenType;
    if (type === RBracket) depth++;
    else if (type === LBracket && --depth === 0) return i;
  }
  return -1;
}
