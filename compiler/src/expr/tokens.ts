/**
 * The expression language's tokens, defined once: the lexer, the parser, the
 * completion scanner and the printer all read these. Labels are what error
 * messages show to authors (`')'`, `a name`), never chevrotain's token names.
 */
import type { TokenType } from "chevrotain";
import { createToken, Lexer } from "./chevrotain.js";

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED });

/**
 * Unit and input names may contain '-' (`group-a`), so a '-' between a name
 * character and a letter or '_' belongs to the name, as in HCL; subtraction of
 * two names needs spaces (`a - b`). `n-1` is still subtraction.
 */
export const Identifier = createToken({
  name: "Identifier",
  pattern: /[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*/,
  label: "a name",
});
export const True = createToken({ name: "True", pattern: /true/, longer_alt: Identifier, label: "'true'" });
export const False = createToken({ name: "False", pattern: /false/, longer_alt: Identifier, label: "'false'" });
export const Null = createToken({ name: "Null", pattern: /null/, longer_alt: Identifier, label: "'null'" });

export const NumberLiteral = createToken({
  name: "NumberLiteral",
  pattern: /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  label: "a number",
});
export const StringLiteral = createToken({
  name: "StringLiteral",
  pattern: /"(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'/,
  label: "a string",
});
/** A string that runs to the end of the text: lexed as a token so the error can say what is wrong. */
export const UnterminatedString = createToken({
  name: "UnterminatedString",
  // Tried only after StringLiteral failed, so it runs to the end of the text.
  pattern: /"(?:[^"\\]|\\[\s\S])*|'(?:[^'\\]|\\[\s\S])*/,
  label: "an unterminated string",
});

export const Dot = createToken({ name: "Dot", pattern: /\./, label: "'.'" });
export const Comma = createToken({ name: "Comma", pattern: /,/, label: "','" });
export const LParen = createToken({ name: "LParen", pattern: /\(/, label: "'('" });
export const RParen = createToken({ name: "RParen", pattern: /\)/, label: "')'" });
export const LBracket = createToken({ name: "LBracket", pattern: /\[/, label: "'['" });
export const RBracket = createToken({ name: "RBracket", pattern: /\]/, label: "']'" });

// Categories: every binary operator is one ordered CST list (precedence is applied by the AST builder),
// prefix operators another. '-' is in both.
export const BinaryOp = createToken({ name: "BinaryOp", pattern: Lexer.NA, label: "an operator" });
export const UnaryOp = createToken({ name: "UnaryOp", pattern: Lexer.NA, label: "'!' or '-'" });

export const EqEq = createToken({ name: "EqEq", pattern: /==/, categories: [BinaryOp], label: "'=='" });
export const NotEq = createToken({ name: "NotEq", pattern: /!=/, categories: [BinaryOp], label: "'!='" });
export const LtEq = createToken({ name: "LtEq", pattern: /<=/, categories: [BinaryOp], label: "'<='" });
export const GtEq = createToken({ name: "GtEq", pattern: />=/, categories: [BinaryOp], label: "'>='" });
export const Lt = createToken({ name: "Lt", pattern: /</, categories: [BinaryOp], label: "'<'" });
export const Gt = createToken({ name: "Gt", pattern: />/, categories: [BinaryOp], label: "'>'" });
export const AndAnd = createToken({ name: "AndAnd", pattern: /&&/, categories: [BinaryOp], label: "'&&'" });
export const OrOr = createToken({ name: "OrOr", pattern: /\|\|/, categories: [BinaryOp], label: "'||'" });
export const Bang = createToken({ name: "Bang", pattern: /!/, categories: [UnaryOp], label: "'!'" });
export const Plus = createToken({ name: "Plus", pattern: /\+/, categories: [BinaryOp], label: "'+'" });
export const Minus = createToken({ name: "Minus", pattern: /-/, categories: [BinaryOp, UnaryOp], label: "'-'" });
export const Star = createToken({ name: "Star", pattern: /\*/, categories: [BinaryOp], label: "'*'" });
export const Slash = createToken({ name: "Slash", pattern: /\//, categories: [BinaryOp], label: "'/'" });

/** Order matters: longer operators before their prefixes, keywords before names. */
export const allTokens: TokenType[] = [
  WhiteSpace,
  NumberLiteral,
  StringLiteral,
  UnterminatedString,
  True,
  False,
  Null,
  Identifier,
  Dot,
  Comma,
  LParen,
  RParen,
  LBracket,
  RBracket,
  EqEq,
  NotEq,
  LtEq,
  GtEq,
  Lt,
  Gt,
  AndAnd,
  OrOr,
  Bang,
  Plus,
  Minus,
  Star,
  Slash,
  BinaryOp,
  UnaryOp,
];
