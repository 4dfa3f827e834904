// JSONPath templates as client-go's util/jsonpath (v0.27) parses them — the
// language of kubectl's -o jsonpath and of a CRD's additionalPrinterColumns,
// whose jsonPath Kubernetes wraps as `{<jsonPath>}`. A template is text with
// `{…}` actions; an action is a chain of nodes:
//
//   .field  ..field (recursive)  *  [n] [a:b:c] (slices)  ['key']  [a,b] (union)
//   [?(@.x == 'y')] (filter)  'text' "text"  numbers  true/false  range … end
//
// Parse errors carry client-go's texts ("unclosed action", "invalid array
// index x", "unrecognized character in action: U+0023 '#'", …).

export interface ParamsEntry {
  value: number;
  /** The value was given (or derived) at parse time. */
  known: boolean;
  /** The end of a single index `[n]`: n+1. */
  derived: boolean;
}

export interface ListNode { readonly type: 'list'; readonly nodes: Node[] }
export type Node =
  | ListNode
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'field'; readonly name: string }
  | { readonly type: 'identifier'; readonly name: string }
  | { readonly type: 'array'; readonly params: readonly [ParamsEntry, ParamsEntry, ParamsEntry] }
  | { readonly type: 'filter'; readonly left: ListNode; readonly right: ListNode; readonly operator: string }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'wildcard' }
  | { readonly type: 'recursive' }
  | { readonly type: 'union'; readonly nodes: ListNode[] };

/** A template that does not parse; the message is client-go's. */
export class JSONPathParseError extends Error {
  override readonly name = 'JSONPathParseError';
}

const EOF = -1;
const DICT_KEY = /^'([^']*)'$/;
const SLICE = /^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$/;
const FILTER = /^([^!<>=]+)([!<>=~]+)(.+?)$/s;

const newList = (): ListNode => ({ type: 'list', nodes: [] });
const isSpace = (r: number) => r === 0x20 || r === 0x09;
const isEndOfLine = (r: number) => r === 0x0d || r === 0x0a;
const isDigit = (r: number) => r >= 0 && /\p{Nd}/u.test(String.fromCodePoint(r));
const isAlphaNumeric = (r: number) => r >= 0 && (r === 0x5f || /[\p{L}\p{Nd}]/u.test(String.fromCodePoint(r)));
const TERMINATORS = new Set(['.', ',', '[', ']', '$', '@', '{', '}'].map((c) => c.charCodeAt(0)));
const isTerminator = (r: number) => r === EOF || isSpace(r) || isEndOfLine(r) || TERMINATORS.has(r);

/** Go's %#U: U+0023 '#' (the character left out when it does not print). */
function sharpU(r: number): string {
  const code = `U+${r.toString(16).toUpperCase().padStart(4, '0')}`;
  const ch = String.fromCodePoint(r);
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(ch) ? `${code} '${ch}'` : code;
}

/** strconv.Atoi: an optional sign and ASCII digits, within int64. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return Math.abs(n) <= 9223372036854775807 ? n : undefined;
}

/** strconv.ParseFloat for what the number scanner reads (sign, digits, dots). */
function parseFloatGo(s: string): number | undefined {
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(s) ? Number(s) : undefined;
}

const SIMPLE: Readonly<Record<string, string>> = { a: '\u0007', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\u000b', '\\': '\\' };

/** UnquoteExtend: strconv.Unquote that also takes single-quoted strings of any length. */
export function unquoteExtend(s: string): string {
  const syntax = () => new JSONPathParseError('invalid syntax');
  if (s.length < 2) throw syntax();
  const quote = s[0]!;
  if (quote !== s[s.length - 1] || (quote !== '"' && quote !== "'")) throw syntax();
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === quote) throw syntax();
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) throw syntax();
    if (e in SIMPLE) out += SIMPLE[e];
    else if (e === "'" || e === '"') {
      if (e !== quote) throw syntax();
      out += e;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) throw syntax();
      const v = parseInt(hex, 16);
      if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v < 0xe000))) throw syntax();
      out += String.fromCodePoint(v);
      i += n;
    } else if (e >= '0' && e <= '7') {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) throw syntax();
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else throw syntax();
  }
  return out;
}

class Parser {
  readonly root: ListNode = newList();
  private pos = 0;
  private start = 0;
  private width = 0;

  constructor(private readonly input: string) {}

  /**
   * Text and actions alternate: client-go's parser recurses from one node to
   * the next; this one loops, so a long path cannot exhaust the stack.
   */
  parse(): ListNode {
    for (;;) {
      const action = this.parseText();
      if (action === undefined) return this.root;
      this.parseInsideAction(action);
    }
  }

  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.width = r > 0xffff ? 2 : 1;
    this.pos += this.width;
    return r;
  }

  private peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private rest(): string {
    return this.input.slice(this.pos);
  }

  /** Text up to the next `{` (added to the root); the new action's list, or undefined at the end. */
  private parseText(): ListNode | undefined {
    const cur = this.root;
    for (;;) {
      if (this.rest().startsWith('{')) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
        return this.parseLeftDelim(cur);
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
    return undefined;
  }

  private parseLeftDelim(cur: ListNode): ListNode {
    this.pos += 1;
    this.consumeText();
    const node = newList();
    cur.nodes.push(node);
    return node;
  }

  /** The nodes of one action, up to and including its `}`. */
  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.rest();
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new JSONPathParseError('unclosed action');
      if (r === 0x20 || r === 0x40 /* @ */ || r === 0x24 /* $ */) this.consumeText();
      else if (r === 0x5b /* [ */) this.parseArray(cur);
      else if (r === 0x22 || r === 0x27) this.parseQuote(cur, r);
      else if (r === 0x2e /* . */) this.parseField(cur);
      else if (r === 0x2b || r === 0x2d || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else throw new JSONPathParseError(`unrecognized character in action: ${sharpU(r)}`);
    }
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    const last = cur.nodes[cur.nodes.length - 1];
    if (last?.type === 'recursive') throw new JSONPathParseError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    let r = this.peek();
    if (r === 0x2b || r === 0x2d) this.next();
    for (;;) {
      r = this.next();
      if (r !== 0x2e && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    const i = atoi(value);
    if (i !== undefined) cur.nodes.push({ type: 'int', value: i });
    else {
      const f = parseFloatGo(value);
      if (f === undefined) throw new JSONPathParseError(`cannot parse number ${value}`);
      cur.nodes.push({ type: 'float', value: f });
    }
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JSONPathParseError('unterminated array');
      if (r === 0x5d /* ] */) break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';

    const parts = text.split(',');
    if (parts.length > 1) {
      const union = parts.map((p) => parseAction(`[${p.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ type: 'union', nodes: union });
      return;
    }

    const dict = DICT_KEY.exec(text);
    if (dict) {
      for (const n of parseAction(`.${dict[1]}`).nodes) cur.nodes.push(n);
      return;
    }

    const m = SLICE.exec(text);
    if (!m) throw new JSONPathParseError(`invalid array index ${text}`);
    const groups = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: [ParamsEntry, ParamsEntry, ParamsEntry] = [
      { value: 0, known: false, derived: false }, { value: 0, known: false, derived: false }, { value: 0, known: false, derived: false },
    ];
    for (let i = 0; i < 3; i++) {
      let g = groups[i]!;
      if (g !== '') {
        if (i > 0) g = g.slice(1);
        if (i > 0 && g === '') params[i]!.known = false;
        else {
          const n = atoi(g);
          if (n === undefined) throw new JSONPathParseError(`array index ${g} is not a number`);
          params[i] = { value: n, known: true, derived: false };
        }
      } else if (i === 1) {
        params[1] = { value: params[0].value + 1, known: true, derived: true };
      }
    }
    cur.nodes.push({ type: 'array', params });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JSONPathParseError('unterminated filter');
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === 0x29 /* ) */ && begin === end) break;
    }
    if (this.next() !== 0x5d) throw new JSONPathParseError('unclosed array expect ]');
    let text = this.consumeText();
    text = text.slice(0, -2);
    const m = FILTER.exec(text);
    if (!m) cur.nodes.push({ type: 'filter', left: parseAction(text), right: newList(), operator: 'exists' });
    else cur.nodes.push({ type: 'filter', left: parseAction(m[1]!), right: parseAction(m[3]!), operator: m[2]! });
  }

  private parseQuote(cur: ListNode, end: number): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JSONPathParseError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    let s: string;
    try {
      s = unquoteExtend(value);
    } catch (e) {
      throw new JSONPathParseError(`unquote string ${value} error ${(e as Error).message}`);
    }
    cur.nodes.push({ type: 'text', text: s });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance());
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
  }

  private advance(): boolean {
    const r = this.next();
    if (r === 0x5c /* \ */) this.next();
    else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

/** An action's text parsed as `{text}`: its node list (client-go's parseAction). */
function parseAction(text: string): ListNode {
  const root = new Parser(`{${text}}`).parse();
  return root.nodes[0] as ListNode;
}

/** Parses a template; throws JSONPathParseError with client-go's message. */
export function parseJSONPath(template: string): ListNode {
  return new Parser(template).parse();
}
