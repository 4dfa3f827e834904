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
//   metadata.resourceVersion; a read fills that in (here as metadata's first
//   member, where decode + stringify put it last: the same JSON object) and
//   either puts kind and apiVersion first (an object) or drops them (a list
//   item). Parsing and re-stringifying an 8 KiB pod costs over 100 µs;
//   finding kind, apiVersion and metadata at the front of its bytes costs a
//   few. Anything not in the plain shape answers null and the caller decodes.

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

/** Where spliced JSON goes: literal text and ranges of a stored value. */
export interface PieceSink {
  text(s: string): void;
  bytes(b: Buffer, start: number, end: number): void;
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
/** A resourceVersion member anywhere (a quote cannot occur unescaped inside a JSON string, so this is always a name). */
const RESOURCE_VERSION_MEMBER = Buffer.from('"resourceVersion":');

/**
 * The served JSON of a stored object with metadata.resourceVersion filled in
 * (as metadata's first member), in `form`, spliced from `value`; null when
 * `value` is not the plain shape the store writes or already has a
 * resourceVersion member somewhere (then decode and stringify).
 */
export function servedJSON(value: Uint8Array, resourceVersion: string, form: ServedForm = {}): Buffer | null {
  const parts: (string | Buffer)[] = [];
  let size = 0;
  const ok = writeServedJSON(
    {
      text: (t) => {
        const b = Buffer.from(t);
        parts.push(b);
        size += b.length;
      },
      bytes: (b, start, end) => {
        parts.push(b.subarray(start, end));
        size += end - start;
      },
    },
    value,
    resourceVersion,
    form,
  );
  return ok ? Buffer.concat(parts as Buffer[], size) : null;
}

interface Member {
  /** The opening quote of its name. */
  readonly start: number;
  /** The first byte of its value. */
  readonly value: number;
  /** Just past its value. */
  readonly end: number;
}

/**
 * Where the members of a stored object are: those before metadata (kind and
 * apiVersion singled out), metadata's value, and — once something needed
 * them — metadata's end and the members after it.
 */
interface Layout {
  readonly others: readonly Member[];
  readonly apiVersion: Member | undefined;
  readonly kind: Member | undefined;
  readonly metadata: Member;
  /** Read on demand; null when the bytes after metadata are not the plain shape. */
  rest?: { readonly metaEnd: number; readonly after: readonly Member[] } | null;
  /** As a list item at a revision: literal text (Buffers) and [start, end) ranges of the value (two numbers). */
  item?: { readonly revision: number; readonly segments: readonly (Buffer | number)[] } | null;
}

/** Layouts of long-lived stored values (the watch cache's), found once and reused by every list that writes them. */
const layouts = new WeakMap<Uint8Array, Layout | null>();

/**
 * writeServedJSON for a value that stays in memory (a watch cache's): the
 * value's layout is found once and kept beside it, so a list of thousands of
 * cached objects copies their bytes without reading them again.
 */
export function writeServedJSONCached(sink: PieceSink, value: Uint8Array, revision: number, form: ServedForm = {}): boolean {
  const b = asBuffer(value);
  let layout = layouts.get(value);
  if (layout === undefined) {
    layout = layoutOf(b);
    layouts.set(value, layout);
  }
  if (layout === null) return false;
  if (form.typeMeta || form.before || form.after) return writeLayout(sink, b, layout, String(revision), form);
  // A list item: its segments found once per value (a cached value keeps its revision).
  let item = layout.item;
  if (item === undefined || (item !== null && item.revision !== revision)) item = layout.item = listItemOf(b, layout, revision);
  if (!item) return false;
  const segments = item.segments;
  for (let k = 0; k < segments.length; k++) {
    const seg = segments[k]!;
    if (typeof seg === 'number') sink.bytes(b, seg, segments[++k] as number);
    else sink.bytes(seg, 0, seg.length);
  }
  return true;
}

/**
 * writeLayout's list item (no typeMeta) recorded as segments: literal text
 * (a Buffer) or a [start, end) range of `b` (two numbers). Punctuation that is
 * `b`'s own next byte extends the range before it, and adjacent ranges join,
 * so an item is typically three copies: the head, metadata's members, the rest.
 */
function listItemOf(b: Buffer, layout: Layout, revision: number): Layout['item'] {
  const segments: (Buffer | number)[] = [];
  const lastRangeEnd = () => (typeof segments[segments.length - 1] === 'number' ? (segments[segments.length - 1] as number) : -1);
  const literal = (t: Buffer) => {
    const last = segments[segments.length - 1];
    if (Buffer.isBuffer(last)) segments[segments.length - 1] = Buffer.concat([last, t]);
    else segments.push(t);
  };
  const ok = writeLayout(
    {
      text: (t) => {
        const end = lastRangeEnd();
        if (end >= 0 && end + t.length <= b.length && b.toString('latin1', end, end + t.length) === t) segments[segments.length - 1] = end + t.length;
        else literal(Buffer.from(t));
      },
      bytes: (src, start, end) => {
        if (src !== b) literal(Buffer.from(src.subarray(start, end)));
        else if (lastRangeEnd() === start) segments[segments.length - 1] = end;
        else segments.push(start, end);
      },
    },
    b, layout, String(revision), {},
  );
  return ok ? { revision, segments } : null;
}

/**
 * servedJSON into `sink`; false (and nothing written) when the caller must
 * decode instead. Only the members before metadata are read when kind and
 * apiVersion come first, as they do in objects the store wrote from a client's
 * body; the rest is copied unread.
 */
export function writeServedJSON(sink: PieceSink, value: Uint8Array, resourceVersion: string, form: ServedForm = {}): boolean {
  const b = asBuffer(value);
  const layout = layoutOf(b);
  return layout !== null && writeLayout(sink, b, layout, resourceVersion, form);
}

function asBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** The members before metadata; null when `b` is not the plain shape the store writes or has a resourceVersion member somewhere. */
function layoutOf(b: Buffer): Layout | null {
  const n = b.length;
  if (n < 2 || b[0] !== OPEN_BRACE || b[n - 1] !== CLOSE_BRACE) return null;
  if (b.indexOf(RESOURCE_VERSION_MEMBER) >= 0) return null;
  const others: Member[] = [];
  let apiVersion: Member | undefined;
  let kind: Member | undefined;
  let i = 1;
  for (;;) {
    const m = memberAt(b, i, false);
    if (m === null) return null;
    if (nameIs(b, m.start, m.value - 1, NAME_METADATA)) {
      if (b[m.value] !== OPEN_BRACE) return null;
      return { others, apiVersion, kind, metadata: m };
    }
    if (nameIs(b, m.start, m.value - 1, NAME_API_VERSION)) apiVersion = m;
    else if (nameIs(b, m.start, m.value - 1, NAME_KIND)) kind = m;
    else others.push(m);
    if (b[m.end] !== COMMA) return null; // no metadata
    i = m.end + 1;
  }
}

/** Metadata's end and the members after it (kind and apiVersion dropped); null when not the plain shape. */
function restOf(b: Buffer, metadata: Member): NonNullable<Layout['rest']> | null {
  const n = b.length;
  const metaEnd = skipValue(b, metadata.value);
  if (metaEnd < 0) return null;
  const after: Member[] = [];
  let i = metaEnd;
  while (b[i] === COMMA) {
    const m = memberAt(b, i + 1, true);
    if (m === null) return null;
    if (!nameIs(b, m.start, m.value - 1, NAME_API_VERSION) && !nameIs(b, m.start, m.value - 1, NAME_KIND)) after.push(m);
    i = m.end;
  }
  return i === n - 1 ? { metaEnd, after } : null;
}

function writeLayout(sink: PieceSink, b: Buffer, layout: Layout, resourceVersion: string, form: ServedForm): boolean {
  const n = b.length;
  const { others, apiVersion, kind, metadata } = layout;
  const typeMeta = form.typeMeta;
  const open = `"metadata":{"resourceVersion":${JSON.stringify(resourceVersion)}${b[metadata.value + 1] === CLOSE_BRACE ? '' : ','}`;
  const head = typeMeta ? `{"kind":${JSON.stringify(typeMeta.kind)},"apiVersion":${JSON.stringify(typeMeta.apiVersion)},` : '{';
  if (apiVersion && kind && (!typeMeta || others.length === 0)) {
    // Everything after metadata's opening brace is copied as stored.
    if (form.before) sink.text(form.before);
    sink.text(head);
    for (const m of others) {
      sink.bytes(b, m.start, m.end);
      sink.text(',');
    }
    sink.text(open);
    sink.bytes(b, metadata.value + 1, n);
    if (form.after) sink.text(form.after);
    return true;
  }
  // Otherwise metadata's end and the members after it are needed.
  const rest = layout.rest === undefined ? (layout.rest = restOf(b, metadata)) : layout.rest;
  if (!rest) return false;
  if (form.before) sink.text(form.before);
  sink.text(head);
  if (!typeMeta) {
    for (const m of others) {
      sink.bytes(b, m.start, m.end);
      sink.text(',');
    }
  }
  sink.text(open);
  sink.bytes(b, metadata.value + 1, rest.metaEnd);
  for (const m of typeMeta ? [...others, ...rest.after] : rest.after) {
    sink.text(',');
    sink.bytes(b, m.start, m.end);
  }
  sink.text('}');
  if (form.after) sink.text(form.after);
  return true;
}

/** The member whose name starts at `i`; with `skip`, its value is read too (else only the name, and `end` is -1 for metadata). */
function memberAt(b: Buffer, i: number, skip: boolean): Member | null {
  if (b[i] !== QUOTE) return null;
  const nameEnd = skipString(b, i);
  if (nameEnd < 0 || b[nameEnd] !== COLON) return null;
  const value = nameEnd + 1;
  if (!skip && nameIs(b, i, nameEnd, NAME_METADATA)) return { start: i, value, end: -1 };
  const end = skipValue(b, value);
  return end < 0 ? null : { start: i, value, end };
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
