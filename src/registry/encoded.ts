// JSON as it is served, made without parsing where possible, and made once
// where many readers want the same bytes.
//
// - textOnce: text made once per immutable value and variant (an API version
//   spelling) and shared by every reader (gets from the watch cache). Entries
//   live as long as the value they belong to.
// - onceThisTurn: bytes (or a decoded object) made once per value and variant
//   until the event loop turns (a watch event fanned out to many watchers:
//   every watcher of the same API version writes the same Buffer); nothing
//   outlives the fan-out.
// - servedJSON: an object's served JSON spliced from its stored bytes. The
//   store writes objects with JSON.stringify and without
//   metadata.resourceVersion; a read fills that in (appended to metadata,
//   as decode does) and either puts kind and apiVersion first (an object) or
//   drops them (a list item). Parsing and re-stringifying a 4 KiB pod costs
//   tens of µs; finding three top-level members in its bytes costs a few.
//   Anything not in the plain shape answers null and the caller decodes.

const texts = new WeakMap<object, Map<string, string>>();

/** The text for (`owner`, `variant`), made by `make` the first time it is asked for. */
export function textOnce(owner: object, variant: string, make: () => string): string {
  let byVariant = texts.get(owner);
  if (!byVariant) texts.set(owner, (byVariant = new Map()));
  let text = byVariant.get(variant);
  if (text === undefined) byVariant.set(variant, (text = make()));
  return text;
}

let turn = new Map<object, Map<string, unknown>>();
let clearing = false;

/**
 * The value for (`owner`, `variant`) made by `make` at most once until the
 * event loop turns; callers sharing a variant must treat the value as frozen.
 */
export function onceThisTurn<T extends object>(owner: object, variant: string, make: () => T): T {
  let byVariant = turn.get(owner);
  if (!byVariant) {
    turn.set(owner, (byVariant = new Map()));
    if (!clearing) {
      clearing = true;
      setImmediate(() => {
        turn = new Map();
        clearing = false;
      });
    }
  }
  let value = byVariant.get(variant) as T | undefined;
  if (value === undefined) byVariant.set(variant, (value = make()));
  return value;
}

export interface ServedForm {
  /** An object served alone: kind and apiVersion first, as withTypeMeta writes them. Absent: a list item, without them. */
  readonly typeMeta?: { readonly kind: string; readonly apiVersion: string };
  /** Text written before and after the object (a watch event's frame). */
  readonly before?: string;
  readonly after?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const NAME_METADATA = Buffer.from('"metadata"');
const NAME_API_VERSION = Buffer.from('"apiVersion"');
const NAME_KIND = Buffer.from('"kind"');
const NAME_RESOURCE_VERSION = Buffer.from('"resourceVersion"');

/**
 * The served JSON of a stored object with `resourceVersion` filled in, in
 * `form`, spliced from `value` — byte for byte what JSON.stringify writes for
 * the decoded object; null when `value` is not the plain shape the store
 * writes (then decode and stringify).
 */
export function servedJSON(value: Uint8Array, resourceVersion: string, form: ServedForm = {}): Buffer | null {
  const b = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  const top = topLevel(b);
  if (top === null) return null;
  const { metadata, apiVersion, kind } = top;
  if (metadata === undefined) return null;
  const metaBody = membersOf(b, metadata.value);
  if (metaBody === null || metaBody.hasResourceVersion) return null;

  // The pieces, in order: literal strings and byte ranges of `b`.
  const pieces: (string | [number, number])[] = [];
  const rv = `${metaBody.empty ? '' : ','}"resourceVersion":${JSON.stringify(resourceVersion)}}`;
  const metaWithRV = (withName: boolean) => {
    pieces.push([withName ? metadata.start : metadata.value, metaBody.close], rv);
  };
  if (form.before) pieces.push(form.before);
  if (form.typeMeta) {
    pieces.push(`{"kind":${JSON.stringify(form.typeMeta.kind)},"apiVersion":${JSON.stringify(form.typeMeta.apiVersion)},"metadata":`);
    metaWithRV(false);
    for (const m of top.members) if (m !== metadata && m !== apiVersion && m !== kind) pieces.push(',', [m.start, m.end]);
    if (top.rest < top.close) pieces.push(',', [top.rest, top.close]);
  } else {
    let sep = '{';
    for (const m of top.members) {
      if (m === apiVersion || m === kind) continue;
      pieces.push(sep);
      sep = ',';
      if (m === metadata) metaWithRV(true);
      else pieces.push([m.start, m.end]);
    }
    if (top.rest < top.close) pieces.push(sep, [top.rest, top.close]);
    else if (sep === '{') pieces.push('{');
  }
  pieces.push('}');
  if (form.after) pieces.push(form.after);

  let size = 0;
  for (const p of pieces) size += typeof p === 'string' ? Buffer.byteLength(p) : p[1] - p[0];
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of pieces) at += typeof p === 'string' ? out.write(p, at) : b.copy(out, at, p[0], p[1]);
  return out;
}

interface Member {
  /** The opening quote of its name. */
  readonly start: number;
  /** The first byte of its value. */
  readonly value: number;
  /** Just past its value. */
  readonly end: number;
}

interface TopLevel {
  /** The members read, in order (up to the last of metadata, apiVersion and kind). */
  readonly members: Member[];
  readonly metadata?: Member;
  readonly apiVersion?: Member;
  readonly kind?: Member;
  /** Where the members not read begin (== close when every member was read). */
  readonly rest: number;
  /** The object's closing brace. */
  readonly close: number;
}

/** The top-level members of the object in `b`, read until metadata, apiVersion and kind are found. */
function topLevel(b: Buffer): TopLevel | null {
  const n = b.length;
  if (n < 2 || b[0] !== OPEN_BRACE || b[n - 1] !== CLOSE_BRACE) return null;
  const members: Member[] = [];
  let metadata: Member | undefined;
  let apiVersion: Member | undefined;
  let kind: Member | undefined;
  let i = 1;
  if (b[i] === CLOSE_BRACE) return i === n - 1 ? { members, rest: i, close: i } : null;
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const start = i;
    const nameEnd = skipString(b, i);
    if (nameEnd < 0 || b[nameEnd] !== COLON) return null;
    const value = nameEnd + 1;
    const end = skipValue(b, value);
    if (end < 0) return null;
    const m: Member = { start, value, end };
    members.push(m);
    if (nameIs(b, start, nameEnd, NAME_METADATA)) metadata = m;
    else if (nameIs(b, start, nameEnd, NAME_API_VERSION)) apiVersion = m;
    else if (nameIs(b, start, nameEnd, NAME_KIND)) kind = m;
    if (b[end] === CLOSE_BRACE) return end === n - 1 ? { members, metadata, apiVersion, kind, rest: end, close: end } : null;
    if (b[end] !== COMMA) return null;
    i = end + 1;
    // Names are unique (the store writes them with JSON.stringify): the rest is copied as it is.
    if (metadata && apiVersion && kind) return { members, metadata, apiVersion, kind, rest: i, close: n - 1 };
  }
}

/** Whether the object at `i` is empty and whether it has a resourceVersion member; null if it is not an object. */
function membersOf(b: Buffer, i: number): { close: number; empty: boolean; hasResourceVersion: boolean } | null {
  if (b[i] !== OPEN_BRACE) return null;
  i++;
  if (b[i] === CLOSE_BRACE) return { close: i, empty: true, hasResourceVersion: false };
  let hasResourceVersion = false;
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const nameEnd = skipString(b, i);
    if (nameEnd < 0 || b[nameEnd] !== COLON) return null;
    if (nameIs(b, i, nameEnd, NAME_RESOURCE_VERSION)) hasResourceVersion = true;
    const end = skipValue(b, nameEnd + 1);
    if (end < 0) return null;
    if (b[end] === CLOSE_BRACE) return { close: end, empty: false, hasResourceVersion };
    if (b[end] !== COMMA) return null;
    i = end + 1;
  }
}

function nameIs(b: Buffer, start: number, end: number, name: Buffer): boolean {
  if (end - start !== name.length) return false;
  for (let k = 1; k < name.length - 1; k++) if (b[start + k] !== name[k]) return false;
  return true;
}

/** Just past the string whose opening quote is at `i`; -1 if unterminated. */
function skipString(b: Buffer, i: number): number {
  const n = b.length;
  for (let j = i + 1; j < n; j++) {
    const c = b[j];
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH) j++;
  }
  return -1;
}

/** Just past the JSON value starting at `i` (no whitespace, as JSON.stringify writes); -1 if malformed. */
function skipValue(b: Buffer, i: number): number {
  const n = b.length;
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < n; j++) {
      const d = b[j];
      if (d === QUOTE) {
        j = skipString(b, j) - 1;
        if (j < 0) return -1;
      } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  while (j < n) {
    const d = b[j];
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET) break;
    if (d === QUOTE || d === OPEN_BRACE || d === OPEN_BRACKET || d === COLON || d <= 0x20) return -1;
    j++;
  }
  return j === i ? -1 : j;
}
