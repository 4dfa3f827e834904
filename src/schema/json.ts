// JSON decoding that reports duplicate keys, which JSON.parse silently folds
// (the last one wins, as in Go). The fast path is JSON.parse plus one cheap
// pass that counts key tokens by jumping from quote to quote (indexOf); when
// that count exceeds the number of keys the parsed value holds, a second,
// exact scan names the duplicates by path (`metadata.name`,
// `spec.containers[0].image`). Malformed input is re-scanned to throw an error
// worded like Go's encoding/json ("invalid character '}' looking for
// beginning of value", "unexpected end of JSON input").

export interface Decoded {
  value: unknown;
  /** Paths of keys that appeared more than once in their object, in document order, each once. */
  duplicates: string[];
}

/** A syntax error in Go's wording; `offset` is the character index where it was found. */
export class JsonSyntaxError extends SyntaxError {
  override readonly name = 'JsonSyntaxError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Go's encoding/json syntax error for raw bytes (which need not be UTF-8), or undefined when they are valid JSON. */
export function goJsonSyntaxError(bytes: Uint8Array): string | undefined {
  try {
    new Scanner(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'), true).document();
    return undefined;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e.message;
    throw e;
  }
}

export function decodeJson(input: string | Uint8Array): Decoded {
  const text = typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    new Scanner(text).document(); // throws the Go-worded error
    throw new JsonSyntaxError(err instanceof Error ? err.message : String(err), 0);
  }
  if (typeof value !== 'object' || value === null || countKeyTokens(text) === countKeys(value)) return { value, duplicates: [] };
  const scanner = new Scanner(text);
  scanner.document();
  if (scanner.duplicates.length === 0) return { value, duplicates: [] };
  return { value: new MergingParser(text).document(), duplicates: [...new Set(scanner.duplicates)] };
}

/**
 * Builds the value of valid JSON as Go decodes repeated keys into structs and
 * maps: a repeated object merges into the earlier one (fields it names win),
 * anything else replaces it. Only used when duplicates were found.
 */
class MergingParser {
  private i = 0;
  constructor(private readonly s: string) {}

  document(): unknown {
    return this.value();
  }

  private ws(): void {
    while (isWs(this.s.charCodeAt(this.i))) this.i++;
  }

  private value(): unknown {
    this.ws();
    const c = this.s.charCodeAt(this.i);
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    const start = this.i;
    while (this.i < this.s.length && !/[,\]}\s]/.test(this.s[this.i]!)) this.i++;
    return JSON.parse(this.s.slice(start, this.i));
  }

  private string(): string {
    const start = this.i;
    let j = this.s.indexOf('"', start + 1);
    while (escaped(this.s, j)) j = this.s.indexOf('"', j + 1);
    this.i = j + 1;
    return JSON.parse(this.s.slice(start, this.i)) as string;
  }

  private object(): { [k: string]: unknown } {
    const out: { [k: string]: unknown } = {};
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return (this.i++, out);
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      this.i++; // ':'
      const v = this.value();
      const prev = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
      const merged = isPlain(prev) && isPlain(v) ? mergeInto(prev, v) : v;
      Object.defineProperty(out, key, { value: merged, enumerable: true, writable: true, configurable: true });
      this.ws();
      if (this.s[this.i++] === '}') return out;
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return (this.i++, out);
    for (;;) {
      out.push(this.value());
      this.ws();
      if (this.s[this.i++] === ']') return out;
    }
  }
}

const isPlain = (v: unknown): v is { [k: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);

function mergeInto(a: { [k: string]: unknown }, b: { [k: string]: unknown }): { [k: string]: unknown } {
  for (const k of Object.keys(b)) {
    const prev = Object.prototype.hasOwnProperty.call(a, k) ? a[k] : undefined;
    a[k] = isPlain(prev) && isPlain(b[k]) ? mergeInto(prev, b[k] as { [k: string]: unknown }) : b[k];
  }
  return a;
}

/** Number of strings followed by ':' in valid JSON. Outside strings there are no quotes, so this jumps quote to quote. */
function countKeyTokens(s: string): number {
  let n = 0;
  let i = s.indexOf('"');
  while (i !== -1) {
    let j = s.indexOf('"', i + 1);
    while (escaped(s, j)) j = s.indexOf('"', j + 1);
    let k = j + 1;
    let c = s.charCodeAt(k);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = s.charCodeAt(++k);
    if (c === 0x3a) n++;
    i = s.indexOf('"', k);
  }
  return n;
}

function escaped(s: string, quote: number): boolean {
  let b = 0;
  while (s.charCodeAt(quote - 1 - b) === 0x5c) b++;
  return (b & 1) === 1;
}

function countKeys(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) n += countKeys(x);
    return n;
  }
  const o = v as { [k: string]: unknown };
  for (const k in o) n += 1 + countKeys(o[k]);
  return n;
}

const isWs = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's quoteChar: the offending byte (the first UTF-8 byte of a non-ASCII character), quoted with single quotes. */
function quoteChar(s: string, i: number, bytes = false): string {
  const cp = s.codePointAt(i)!;
  const b = cp < 0x80 || bytes ? cp : Buffer.from(String.fromCodePoint(cp), 'utf8')[0]!;
  if (b === 0x27) return `'\\''`;
  if (b === 0x22) return `'"'`;
  const named: { [c: number]: string } = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[b]) return `'${named[b]}'`;
  if (b < 0x20 || b === 0x7f) return `'\\x${b.toString(16).padStart(2, '0')}'`;
  if ((b >= 0x80 && b < 0xa0) || b === 0xad) return `'\\u${b.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(b)}'`;
}

/** An exact recursive-descent scan: Go-worded syntax errors and duplicate-key paths. */
class Scanner {
  i = 0;
  readonly duplicates: string[] = [];
  /** `bytes`: each character of `s` is one byte of the input (latin1), as Go's scanner reads. */
  constructor(private readonly s: string, private readonly bytes = false) {}

  document(): void {
    this.value('', 'looking for beginning of value');
    this.ws();
    if (this.i < this.s.length) this.fail('after top-level value');
  }

  private fail(context: string): never {
    if (this.i >= this.s.length) throw new JsonSyntaxError('unexpected end of JSON input', this.s.length);
    throw new JsonSyntaxError(`invalid character ${quoteChar(this.s, this.i, this.bytes)} ${context}`, this.i);
  }

  private ws(): void {
    while (isWs(this.s.charCodeAt(this.i))) this.i++;
  }

  private value(path: string, context: string): void {
    this.ws();
    const c = this.s.charCodeAt(this.i);
    if (c === 0x7b) return this.object(path);
    if (c === 0x5b) return this.array(path);
    if (c === 0x22) {
      this.string();
      return;
    }
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x74) return this.literal('true');
    if (c === 0x66) return this.literal('false');
    if (c === 0x6e) return this.literal('null');
    this.fail(context);
  }

  /** Consumes an opening bracket; true when the container is empty (its closing bracket follows). */
  private opens(close: number): boolean {
    this.i++;
    this.ws();
    if (this.s.charCodeAt(this.i) !== close) return false;
    this.i++;
    return true;
  }

  /** After an element: true on ',' (more follow), false on the closing bracket, else Go's error. */
  private more(close: number, context: string): boolean {
    this.ws();
    const c = this.s.charCodeAt(this.i);
    if (c !== 0x2c && c !== close) this.fail(context);
    this.i++;
    return c === 0x2c;
  }

  private object(path: string): void {
    if (this.opens(0x7d)) return;
    const seen = new Set<string>();
    do {
      this.ws();
      if (this.s.charCodeAt(this.i) !== 0x22) this.fail('looking for beginning of object key string');
      const key = this.string();
      const child = path ? `${path}.${key}` : key;
      if (seen.has(key)) this.duplicates.push(child);
      else seen.add(key);
      this.ws();
      if (this.s.charCodeAt(this.i) !== 0x3a) this.fail('after object key');
      this.i++;
      this.value(child, 'looking for beginning of value');
    } while (this.more(0x7d, 'after object key:value pair'));
  }

  private array(path: string): void {
    if (this.opens(0x5d)) return;
    let n = 0;
    do this.value(`${path}[${n++}]`, 'looking for beginning of value');
    while (this.more(0x5d, 'after array element'));
  }

  /** Scans a string starting at its opening quote and returns its decoded text. */
  private string(): string {
    const s = this.s;
    let out = '';
    let start = ++this.i;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (this.i >= s.length) this.fail('in string literal');
      if (c === 0x22) {
        out += s.slice(start, this.i++);
        return out;
      }
      if (c < 0x20) this.fail('in string literal');
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(start, this.i);
      const e = s.charCodeAt(++this.i);
      const simple: { [c: number]: string } = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };
      if (simple[e] !== undefined) {
        out += simple[e];
        this.i++;
      } else if (e === 0x75) {
        this.i++;
        for (let k = 0; k < 4; k++) if (!isHex(s.charCodeAt(this.i + k))) ((this.i += k), this.fail('in \\u hexadecimal character escape'));
        out += String.fromCharCode(parseInt(s.slice(this.i, this.i + 4), 16));
        this.i += 4;
      } else this.fail('in string escape code');
      start = this.i;
    }
  }

  private number(): void {
    const s = this.s;
    if (s.charCodeAt(this.i) === 0x2d) {
      this.i++;
      if (!isDigit(s.charCodeAt(this.i))) this.fail('in numeric literal');
    }
    if (s.charCodeAt(this.i) === 0x30) this.i++;
    else while (isDigit(s.charCodeAt(this.i))) this.i++;
    if (s.charCodeAt(this.i) === 0x2e) {
      this.i++;
      if (!isDigit(s.charCodeAt(this.i))) this.fail('after decimal point in numeric literal');
      while (isDigit(s.charCodeAt(this.i))) this.i++;
    }
    const e = s.charCodeAt(this.i);
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = s.charCodeAt(this.i);
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (!isDigit(s.charCodeAt(this.i))) this.fail('in exponent of numeric literal');
      while (isDigit(s.charCodeAt(this.i))) this.i++;
    }
  }

  private literal(word: 'true' | 'false' | 'null'): void {
    for (let k = 1; k < word.length; k++) {
      this.i++;
      if (this.s[this.i] !== word[k]) this.fail(`in literal ${word} (expecting '${word[k]}')`);
    }
    this.i++;
  }
}
