/**
 * The grammar, and nothing else: a chevrotain CstParser. Semantics, operator
 * precedence included, live in build-ast.ts. One parser
 * instance serves every input (its self-analysis is the expensive part); it is
 * reset by assigning `input`. Error recovery is on so one mistake does not hide
 * the next (a second instance without it serves long inputs, see
 * RECOVERY_TOKEN_LIMIT), and the message provider speaks in the author's terms.
 */
import type { CstNode, IParserErrorMessageProvider, IToken, TokenType } from "chevrotain";
import { CstParser, EOF } from "./chevrotain.js";
import {
  allTokens,
  Bang,
  BinaryOp,
  Comma,
  Dot,
  False,
  Identifier,
  LBracket,
  LParen,
  Null,
  NumberLiteral,
  RBracket,
  RParen,
  StringLiteral,
  True,
  UnaryOp,
} from "./tokens.js";
import { show } from "./lexer.js";
import type { ExprError } from "./types.js";

function describe(token: IToken | undefined): string {
  if (!token || token.tokenType === EOF) return "the end of the expression";
  if (token.tokenType === StringLiteral) return `the string ${token.image.length > 22 ? `${token.image.slice(0, 20)}...` : token.image}`;
  return show(token.image);
}

/** Input left over after a complete expression. */
function leftOver(token: IToken): string {
  if (token.tokenType === RParen) return "unexpected ')' without a matching '('";
  if (token.tokenType === RBracket) return "unexpected ']' without a matching '['";
  if (token.tokenType === LParen) return "unexpected '(': only the functions count, len, exists, all and any can be called";
  if (token.tokenType === Bang) return "unexpected '!': it negates what follows it; use '!=' to compare";
  const what = token.tokenType === StringLiteral ? describe(token).replace(/^the /, "") : describe(token);
  return `unexpected ${what}: expected an operator or the end of the expression`;
}

function isRealToken(token: IToken | undefined): token is IToken {
  return token !== undefined && token.tokenType !== EOF && !Number.isNaN(token.startOffset) && token.image !== "";
}

const MISMATCH: { expected: TokenType; rule: string; message: string }[] = [
  { expected: RParen, rule: "arguments", message: "expected ')' after argument list" },
  { expected: RParen, rule: "parenExpr", message: "expected ')' to close '('" },
  { expected: RBracket, rule: "pathSegment", message: "expected ']' after index" },
  { expected: Identifier, rule: "pathSegment", message: "expected a field name after '.'" },
];

const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, ruleName }) {
    if (expected === EOF) return leftOver(actual);
    const known = MISMATCH.find((m) => m.expected === expected && m.rule === ruleName);
    const what = known ? known.message : `expected ${expected.LABEL ?? expected.name}`;
    return `${what}, found ${describe(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return leftOver(firstRedundant);
  },
  buildNoViableAltMessage({ actual, previous }) {
    const after = isRealToken(previous) ? ` after ${show(previous.image)}` : "";
    return `expected an expression${after}, found ${describe(actual[0])}`;
  },
  buildEarlyExitMessage({ actual, ruleName }) {
    return `incomplete ${ruleName}, found ${describe(actual[0])}`;
  },
};

class ExpressionParser extends CstParser {
  constructor(recoveryEnabled: boolean) {
    super(allTokens, { recoveryEnabled, errorMessageProvider: errorMessages });
    this.performSelfAnalysis();
  }

  /**
   * A flat operator chain: `operand (op operand)*`. Precedence and
   * associativity are applied by the AST builder, which keeps the CST two
   * levels deep per operand instead of one level per precedence class.
   */
  expression = this.RULE("expression", () => {
    this.SUBRULE(this.unary);
    this.MANY(() => {
      this.CONSUME(BinaryOp);
      this.SUBRULE2(this.unary);
    });
  });

  /** Prefix operators as a loop, not recursion: `!!!!...x` costs no stack. */
  unary = this.RULE("unary", () => {
    this.MANY(() => this.CONSUME(UnaryOp));
    this.SUBRULE(this.primary);
  });

  primary = this.RULE("primary", () => {
    this.OR([
      { ALT: () => this.CONSUME(NumberLiteral) },
      { ALT: () => this.CONSUME(StringLiteral) },
      { ALT: () => this.CONSUME(True) },
      { ALT: () => this.CONSUME(False) },
      { ALT: () => this.CONSUME(Null) },
      { ALT: () => this.SUBRULE(this.parenExpr) },
      { ALT: () => this.SUBRULE(this.nameExpr) },
    ]);
  });

  parenExpr = this.RULE("parenExpr", () => {
    this.CONSUME(LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(RParen);
  });

  /** A path (`result.claims[0].id`) or a call (`count(x)`); fields of a call result are rejected later. */
  nameExpr = this.RULE("nameExpr", () => {
    this.CONSUME(Identifier);
    this.OPTION(() => this.SUBRULE(this.arguments));
    this.MANY(() => this.SUBRULE(this.pathSegment));
  });

  arguments = this.RULE("arguments", () => {
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.expression);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.expression);
      });
    });
    this.CONSUME(RParen);
  });

  pathSegment = this.RULE("pathSegment", () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(Dot);
          this.CONSUME(Identifier);
        },
      },
      {
        ALT: () => {
          this.CONSUME(LBracket);
          this.SUBRULE(this.expression);
          this.CONSUME(RBracket);
        },
      },
    ]);
  });
}

/**
 * Recovery costs a fraction of a millisecond per error (an exception, a
 * message, a re-synchronisation scan), and a junk input has an error per
 * token: 1,900 stray dots took over a second. Inputs longer than this are
 * parsed without recovery (first error only), which keeps the worst case to
 * a few milliseconds; real checks are far shorter.
 */
export const RECOVERY_TOKEN_LIMIT = 64;
const recovering = new ExpressionParser(true);
const strict = new ExpressionParser(false);

export interface ParseResult {
  cst?: CstNode;
  errors: ExprError[];
}

/** Words authors bring from other languages; where one stops the parse, the message names the operator. */
const WORD_OPERATORS: Record<string, string> = { and: "&&", or: "||", not: "!" };

function wordOperatorError(token: IToken): ExprError | undefined {
  if (token.tokenType !== Identifier || !Object.hasOwn(WORD_OPERATORS, token.image)) return undefined;
  const start = token.startOffset;
  return { message: `'${token.image}' is not an operator: use '${WORD_OPERATORS[token.image]}'`, start, end: start + token.image.length };
}

/** Parse lexed tokens; the CST is returned only when there were no syntax errors. */
export function parseTokens(tokens: IToken[], sourceLength: number): ParseResult {
  const parser = tokens.length <= RECOVERY_TOKEN_LIMIT ? recovering : strict;
  parser.input = tokens;
  const cst = parser.expression();
  const errors = parser.errors.map((e): ExprError => {
    const token = e.token;
    if (!isRealToken(token)) return { message: e.message, start: sourceLength, end: sourceLength };
    const before = tokens[tokens.indexOf(token) - 1];
    const word = wordOperatorError(token) ?? (before && wordOperatorError(before));
    if (word) return word;
    return { message: e.message, start: token.startOffset, end: token.startOffset + token.image.length };
  });
  return errors.length === 0 ? { cst, errors } : { errors };
}
