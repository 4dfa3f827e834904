// Token kinds, numbered as the CEL grammar's ANTLR token types (cel-spec
// CEL.g4), so that "expecting {…}" sets print in cel-go's order and with its
// names: literal tokens quoted ('['), the others by symbolic name (NUM_INT).

export const enum T {
  EOF = -1,
  EQUALS = 1,
  NOT_EQUALS = 2,
  IN = 3,
  LESS = 4,
  LESS_EQUALS = 5,
  GREATER_EQUALS = 6,
  GREATER = 7,
  LOGICAL_AND = 8,
  LOGICAL_OR = 9,
  LBRACKET = 10,
  RBRACKET = 11,
  LBRACE = 12,
  RBRACE = 13,
  LPAREN = 14,
  RPAREN = 15,
  DOT = 16,
  COMMA = 17,
  MINUS = 18,
  EXCLAM = 19,
  QUESTIONMARK = 20,
  COLON = 21,
  PLUS = 22,
  STAR = 23,
  SLASH = 24,
  PERCENT = 25,
  TRUE = 26,
  FALSE = 27,
  NULL = 28,
  NUM_FLOAT = 31,
  NUM_INT = 32,
  NUM_UINT = 33,
  STRING = 34,
  BYTES = 35,
  IDENTIFIER = 36,
  ESC_IDENTIFIER = 37,
}

const NAMES: Record<number, string> = {
  [T.EOF]: '<EOF>',
  [T.EQUALS]: "'=='",
  [T.NOT_EQUALS]: "'!='",
  [T.IN]: "'in'",
  [T.LESS]: "'<'",
  [T.LESS_EQUALS]: "'<='",
  [T.GREATER_EQUALS]: "'>='",
  [T.GREATER]: "'>'",
  [T.LOGICAL_AND]: "'&&'",
  [T.LOGICAL_OR]: "'||'",
  [T.LBRACKET]: "'['",
  [T.RBRACKET]: "']'",
  [T.LBRACE]: "'{'",
  [T.RBRACE]: "'}'",
  [T.LPAREN]: "'('",
  [T.RPAREN]: "')'",
  [T.DOT]: "'.'",
  [T.COMMA]: "','",
  [T.MINUS]: "'-'",
  [T.EXCLAM]: "'!'",
  [T.QUESTIONMARK]: "'?'",
  [T.COLON]: "':'",
  [T.PLUS]: "'+'",
  [T.STAR]: "'*'",
  [T.SLASH]: "'/'",
  [T.PERCENT]: "'%'",
  [T.TRUE]: "'true'",
  [T.FALSE]: "'false'",
  [T.NULL]: "'null'",
  [T.NUM_FLOAT]: 'NUM_FLOAT',
  [T.NUM_INT]: 'NUM_INT',
  [T.NUM_UINT]: 'NUM_UINT',
  [T.STRING]: 'STRING',
  [T.BYTES]: 'BYTES',
  [T.IDENTIFIER]: 'IDENTIFIER',
  [T.ESC_IDENTIFIER]: 'ESC_IDENTIFIER',
};

/** ANTLR's display of an expected-token set: one name bare, several in braces. */
export function expectingText(kinds: readonly T[]): string {
  const sorted = [...kinds].sort((a, b) => a - b);
  if (sorted.length === 1) return NAMES[sorted[0]];
  return '{' + sorted.map((k) => NAMES[k]).join(', ') + '}';
}

/** Tokens that can start a unary expression (ANTLR's expected set there). */
export const UNARY_START: readonly T[] = [
  T.LBRACKET, T.LBRACE, T.LPAREN, T.DOT, T.MINUS, T.EXCLAM, T.TRUE, T.FALSE, T.NULL,
  T.NUM_FLOAT, T.NUM_INT, T.NUM_UINT, T.STRING, T.BYTES, T.IDENTIFIER,
];

const unaryStart = new Uint8Array(40);
for (const k of UNARY_START) unaryStart[k] = 1;
export function startsUnary(k: T): boolean {
  return k > 0 && unaryStart[k] === 1;
}

/** Tokens that can start a primary (a unary start other than `!`; `-` signs a number). */
export function startsPrimary(k: T): boolean {
  return k !== T.EXCLAM && startsUnary(k);
}
