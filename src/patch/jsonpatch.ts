// application/json-patch+json (RFC 6902) as kube-apiserver v1.27 applies it:
// k8s.io/apiserver's jsonPatcher decodes the body, then evanphx/json-patch
// v4.12.0 (v4 semantics, not v5) applies it to the current object's JSON.
// Applied purely: the input document is never mutated.
//
//   decodeJsonPatch(text, validation)
//       Warn/Strict (the API server's default is Warn): the body is first read
//       strictly into []jsonPatchOp, so bad JSON, a non-array, a non-object
//       operation or a non-string op/path/from is 400 "error decoding patch: …";
//       unknown and repeated members are collected as `json patch unknown field
//       "[0].x"` / `json patch duplicate field "[1].path"` (warnings in Warn, part
//       of the 422 in Strict). Ignore: only evanphx's own decoding (an array of
//       objects), 400 with Go's text and no prefix. Past 10000 operations: 413.
//   applyJsonPatch(doc, ops) / runJsonPatch(doc, ops)
//       the operations in order; the first failure throws PatchError
//       'notApplicable' (422, evanphx's text kept for logs only), and what makes
//       evanphx v4 dereference a nil pointer throws PatchError 'panic' (the API
//       server's panic answer, 500). runJsonPatch also gives the patched
//       document as Go writes it (goJSON), the value of a 422 `patch` cause.
//
// evanphx v4.12.0 behaviour mirrored here (each checked against its source):
// - Values are kept as unparsed JSON text until an operation has to look inside
//   them; an object it looked inside is written back with its keys sorted (a Go
//   map), an untouched value exactly as it was (whitespace removed, "<", ">", "&"
//   escaped). The current object is the text Go's encoder wrote (HTML-escaped).
// - Pointers: see pointer.ts ("" and pointers without "/" address nothing; the
//   first piece is ignored, so "a/b" is "/b"; negative indices count from the end).
// - An operation's parent must exist and be an object or array; a JSON null on
//   the way is missing. Reading a missing object member is not an error in v4.
// - add: object member set or replaced; array index 0..len inserts, "-" appends,
//   -len-1..-1 count from the end (so "-1" appends); a missing "value" adds null.
// - remove: a missing member or index fails ("Unable to remove nonexistent key").
// - replace: a missing object member SUCCEEDS and adds it (v4 only checks that the
//   parent exists); an array index must exist. Path "" replaces the whole
//   document with an object or array value; any other value leaves it unchanged.
// - move: the source member is read (missing reads as nothing), removed (which
//   fails when missing), then added at the destination, looked up after the
//   removal (so moving into its own child fails).
// - copy: a missing source member copies as null; the bytes copied are counted
//   against the 3 MiB limit the API server sets (JSONPatchMaxCopyBytes).
// - test: compares parsed objects and arrays member by member and anything else
//   by its compacted text (1 ≠ 1.0, "<" ≠ "\u003c"); a missing or null location
//   passes against `"value": null` and fails against anything else.
// - Nil-pointer panics of v4 (the API server answers its panic 500): test of a
//   missing or null location without a "value" member; test or replace of ""
//   without "value"; a test that reaches a null array element; an operation
//   through a null the same patch added (`"value": null`); add/replace inside a
//   copied null.
// - "op", "path", "from" that are missing, null or not strings: an unknown op, or
//   "<op> operation failed to decode path/from".
import { PatchError } from './errors.js';
import { decodeBody } from './gojson.js';
import { goJsonKind } from '../schema/gotypes.js';
import { type JsonObject, type JsonValue, isObject, put } from './json.js';
import { atoi, parsePointer } from './pointer.js';
import { arrayElements, compactText, compareGoKeys, goEncode, objectMembers, textKind } from './rawjson.js';

/** handlers.maxJSONPatchOperations in k8s.io/apiserver. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** genericapiserver Config.JSONPatchMaxCopyBytes (3 MiB), armed as evanphx's AccumulatedCopySizeLimit. */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;
/** sigs.k8s.io/json stops collecting strict-decoding problems at 100. */
const MAX_STRICT_PROBLEMS = 100;

/** An operation written as an object (programmatic callers and tests). */
export interface JsonPatchOp {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly value?: JsonValue;
}

/** One operation as evanphx holds it: each member's raw JSON text, null for a member that is JSON null. */
export type JsonPatchOperation = ReadonlyMap<string, string | null>;

export interface DecodedJsonPatch {
  readonly operations: readonly JsonPatchOperation[];
  /** The body's own strict-decoding problems, worded as the API server reports them (Warn and Strict only). */
  readonly strict: readonly string[];
}

export type JsonPatchValidation = 'Ignore' | 'Warn' | 'Strict';

export interface JsonPatchOptions {
  /** Total bytes "copy" may add (0 disables the check). */
  readonly maxCopyBytes?: number;
}

export interface JsonPatchResult {
  /** The patched document (object keys in the document's order, new ones last). */
  readonly value: JsonValue;
  /** The patched document as evanphx returns it: Go's json.Marshal of what it parsed, raw text elsewhere. */
  goJSON(): string;
}

const OP_MEMBERS = new Set(['op', 'path', 'from', 'value']);

/** Decodes a JSON patch request body as the v1.27 API server does under `validation`. */
export function decodeJsonPatch(text: string, validation: JsonPatchValidation = 'Warn'): DecodedJsonPatch {
  const strict = validation !== 'Ignore';
  // Warn/Strict: kjson.UnmarshalStrict into []handlers.jsonPatchOp; Ignore: jsonpatch.DecodePatch alone.
  const prefix = strict ? 'error decoding patch: ' : '';
  const body = decodeBody(text, prefix);
  const fail = (what: string): never => {
    throw new PatchError('malformed', `${prefix}json: cannot unmarshal ${what}`);
  };
  if (body === null) return { operations: [], strict: [] };
  if (!Array.isArray(body)) return fail(`${goJsonKind(body)} into Go value of type ${strict ? '[]handlers.jsonPatchOp' : 'jsonpatch.Patch'}`);
  for (const op of body) {
    if (op === null) continue;
    if (!isObject(op)) return fail(`${goJsonKind(op)} into Go value of type ${strict ? 'handlers.jsonPatchOp' : 'jsonpatch.Operation'}`);
    if (!strict) continue; // evanphx reads op/path/from only when it applies the operation
    for (const key of Object.keys(op)) {
      const v = op[key]!;
      if ((key === 'op' || key === 'path' || key === 'from') && v !== null && typeof v !== 'string') {
        fail(`${goJsonKind(v)} into Go struct field jsonPatchOp.${key} of type string`);
      }
    }
  }
  const elements = arrayElements(text, 0);
  const problems = strict ? strictProblems(text, elements) : [];
  if (elements.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new PatchError('tooManyOperations', `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${elements.length}`);
  }
  const operations = elements.map(({ raw, at }) => {
    const members = new Map<string, string | null>();
    if (raw !== 'null') for (const m of objectMembers(text, at)) members.set(m.key, m.raw === 'null' ? null : m.raw);
    return members;
  });
  return { operations, strict: problems };
}

/**
 * Unknown and repeated members, as sigs.k8s.io/json finds them reading the body
 * into []jsonPatchOp: in document order, each message once, at most 100, and
 * prefixed "json patch " by the API server. Repeated keys are found inside
 * "value" too (it decodes as interface{}); an unknown member is only unknown.
 */
function strictProblems(text: string, elements: readonly { raw: string; at: number }[]): string[] {
  const found: { at: number; message: string }[] = [];
  const repeatedIn = (raw: string, at: number, path: string): void => {
    const kind = textKind(raw);
    if (kind === 'array') arrayElements(text, at).forEach((e, i) => repeatedIn(e.raw, e.at, `${path}[${i}]`));
    if (kind !== 'object') return;
    const seen = new Set<string>();
    for (const m of objectMembers(text, at)) {
      if (seen.has(m.key)) found.push({ at: m.at, message: `duplicate field "${path}.${m.key}"` });
      seen.add(m.key);
      repeatedIn(m.raw, m.valueAt, `${path}.${m.key}`);
    }
  };
  elements.forEach(({ raw, at }, i) => {
    if (textKind(raw) !== 'object') return;
    const seen = new Set<string>();
    for (const m of objectMembers(text, at)) {
      const path = `[${i}].${m.key}`;
      if (!OP_MEMBERS.has(m.key)) found.push({ at: m.at, message: `unknown field "${path}"` });
      else if (seen.has(m.key)) found.push({ at: m.at, message: `duplicate field "${path}"` });
      seen.add(m.key);
      if (m.key === 'value') repeatedIn(m.raw, m.valueAt, path);
    }
  });
  const messages = [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.message))];
  return messages.slice(0, MAX_STRICT_PROBLEMS).map((m) => `json patch ${m}`);
}

/** Applies the operations to a copy of `doc` and returns the copy. */
export function applyJsonPatch(doc: JsonValue, ops: readonly JsonPatchOperation[] | readonly (JsonValue | JsonPatchOp)[], options: JsonPatchOptions = {}): JsonValue {
  return runJsonPatch(doc, ops, options).value;
}

/** Applies the operations; the result also gives the patched document as evanphx writes it. */
export function runJsonPatch(doc: JsonValue, ops: readonly JsonPatchOperation[] | readonly (JsonValue | JsonPatchOp)[], options: JsonPatchOptions = {}): JsonPatchResult {
  const limit = options.maxCopyBytes ?? MAX_JSON_PATCH_COPY_BYTES;
  // The document is parsed at the top (a Go map or slice); every value below stays text until needed.
  let root = new Node(goEncode(doc));
  if (!(root.text!.startsWith('[') ? openArray(root) : openObject(root))) {
    throw new PatchError('notApplicable', `json: cannot unmarshal ${goJsonKind(doc)} into Go value of type jsonpatch.partialDoc`);
  }
  let copied = 0;
  for (const op of (ops as readonly (JsonPatchOperation | JsonValue | JsonPatchOp)[]).map(operationOf)) {
    const kind = opKind(op);
    switch (kind) {
      case 'add': {
        const path = pathOf(op, 'path', () => 'add operation failed to decode path: missing value');
        const at = locate(root, path);
        if (!at) throw notApplicable(`add operation does not apply: doc is missing path: "${path}": missing value`);
        step(`error in add for path: '${path}'`, () => addAt(at, valueOf(op)));
        break;
      }
      case 'remove': {
        const path = pathOf(op, 'path', () => 'remove operation failed to decode path: missing value');
        const at = locate(root, path);
        if (!at) throw notApplicable(`remove operation does not apply: doc is missing path: "${path}": missing value`);
        step(`error in remove for path: '${path}'`, () => removeAt(at));
        break;
      }
      case 'replace': {
        const path = pathOf(op, 'path', (e) => `replace operation failed to decode path: ${e}`);
        if (path === '') {
          const v = valueOf(op);
          if (v === null) throw panic('replace of "" without a value');
          // An object or array value becomes the document; anything else is a no-op (evanphx wraps a nil error).
          if (v.text !== null && (openObjectOnly(v) || openArrayOnly(v))) root = v;
          break;
        }
        const at = locate(root, path);
        if (!at) throw notApplicable(`replace operation does not apply: doc is missing path: ${path}: missing value`);
        try {
          childAt(at); // only an array index can be missing here: a missing object member reads as nothing
        } catch (e) {
          if (e instanceof OpFailure) throw notApplicable(`replace operation does not apply: doc is missing key: ${path}: missing value`);
          throw e;
        }
        setAt(at, valueOf(op));
        break;
      }
      case 'move': {
        const from = pathOf(op, 'from', (e) => `move operation failed to decode from: ${e}`);
        const src = locate(root, from);
        if (!src) throw notApplicable(`move operation does not apply: doc is missing from path: ${from}: missing value`);
        const v = step(`error in move for path: '${src.key}'`, () => childAt(src));
        step(`error in move for path: '${src.key}'`, () => removeAt(src));
        const path = pathOf(op, 'path', (e) => `move operation failed to decode path: ${e}`);
        const dst = locate(root, path);
        if (!dst) throw notApplicable(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
        step(`error in move for path: '${path}'`, () => addAt(dst, v));
        break;
      }
      case 'copy': {
        const from = pathOf(op, 'from', (e) => `copy operation failed to decode from: ${e}`);
        const src = locate(root, from);
        if (!src) throw notApplicable(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
        const v = step(`error in copy for from: '${from}'`, () => childAt(src));
        const path = pathOf(op, 'path', () => 'copy operation failed to decode path: missing value');
        const dst = locate(root, path);
        if (!dst) throw notApplicable(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
        // The copy is the source as Go writes it, as fresh text; its size counts against the limit.
        const copy = v === null ? null : new Node(marshal(v));
        copied += copy === null ? 0 : Buffer.byteLength(copy.text!, 'utf8');
        if (limit > 0 && copied > limit) {
          throw notApplicable(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${limit}`);
        }
        step('error while adding value during copy', () => addAt(dst, copy));
        break;
      }
      case 'test': {
        const path = pathOf(op, 'path', (e) => `test operation failed to decode path: ${e}`);
        if (path === '') {
          if (!same(root, valueOf(op))) throw notApplicable(`testing value ${path} failed: test failed`);
          break;
        }
        const at = locate(root, path);
        if (!at) throw notApplicable(`test operation does not apply: is missing path: ${path}: missing value`);
        const found = step(`error in test for path: '${path}'`, () => childAt(at));
        const want = valueOf(op);
        if (found === null) {
          if (want === null) throw panic('test of a missing or null location without a value');
          if (want.text !== null) throw notApplicable(`testing value ${path} failed: test failed`);
        } else if (want === null || !same(found, want)) {
          throw notApplicable(`testing value ${path} failed: test failed`);
        }
        break;
      }
      default:
        throw notApplicable(`Unexpected kind: ${kind}`);
    }
  }
  const result = root;
  return { value: toValue(result), goJSON: () => marshal(result) };
}

/**
 * A value of the document: JSON text until an operation looks inside it, then
 * its members or items (one level; they are nodes in turn). `text` is null for
 * an operation's `"value": null`, which evanphx keeps as a node with no bytes.
 * A JSON null inside a parsed object or array is no node at all (null in a
 * Slot: Go's nil pointer).
 */
class Node {
  /** Set once parsed as an object; null is Go's nil map (the text was "null"). */
  members: Map<string, Slot> | null | undefined;
  /** Set once parsed as an array; null is Go's nil slice. */
  items: Slot[] | null | undefined;
  constructor(readonly text: string | null) {}
}

type Slot = Node | null;

/** A location: the parsed container and the (unescaped) last token. */
interface Location {
  readonly container: Node;
  readonly key: string;
}

/** A failure evanphx wraps with the operation's context. */
class OpFailure extends Error {}

/** What makes evanphx v4 dereference a nil pointer (or write to a nil map). */
function panic(what: string): PatchError {
  return new PatchError('panic', `evanphx/json-patch v4 panics: ${what}`);
}

function notApplicable(message: string): PatchError {
  return new PatchError('notApplicable', message);
}

function step<T>(context: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof OpFailure) throw notApplicable(`${context}: ${e.message}`);
    throw e;
  }
}

function operationOf(op: JsonPatchOperation | JsonValue | JsonPatchOp): JsonPatchOperation {
  if (op instanceof Map) return op as JsonPatchOperation;
  const members = new Map<string, string | null>();
  if (!isObject(op)) return members;
  for (const [k, v] of Object.entries(op as JsonObject)) if (v !== undefined) members.set(k, v === null ? null : goEncode(v));
  return members;
}

/** A member that must be a JSON string, or undefined. */
function stringMember(raw: string | null | undefined): string | undefined | { error: string } {
  if (raw === null || raw === undefined) return undefined;
  const v = JSON.parse(raw) as JsonValue;
  if (typeof v === 'string') return v;
  return { error: `json: cannot unmarshal ${goJsonKind(v)} into Go value of type string` };
}

function opKind(op: JsonPatchOperation): string {
  const v = stringMember(op.get('op'));
  return typeof v === 'string' ? v : 'unknown';
}

/** "path" or "from"; `failure` words the error (some operations keep the cause, some do not). */
function pathOf(op: JsonPatchOperation, member: 'path' | 'from', failure: (cause: string) => string): string {
  const v = stringMember(op.get(member));
  if (typeof v === 'string') return v;
  const cause = v === undefined ? (member === 'path' ? 'operation missing path field: missing value' : 'operation, missing from field: missing value') : v.error;
  throw notApplicable(failure(cause));
}

/** The operation's value: no node without a "value" member, a text-less node for null. */
function valueOf(op: JsonPatchOperation): Slot {
  const raw = op.get('value');
  return raw === undefined ? null : new Node(raw);
}

function membersOf(text: string): Map<string, Slot> {
  const m = new Map<string, Slot>();
  for (const { key, raw } of objectMembers(text)) m.set(key, raw === 'null' ? null : new Node(raw));
  return m;
}

/** Parses the node as an object (Go: unmarshal into a map; "null" gives a nil map); false when it is not one. */
function openObject(n: Node): boolean {
  if (n.members !== undefined) return true;
  return openObjectOnly(n);
}

function openObjectOnly(n: Node): boolean {
  if (n.text === null) return false;
  const kind = textKind(n.text);
  if (kind !== 'object' && kind !== 'null') return false;
  n.members = kind === 'null' ? null : membersOf(n.text);
  n.items = undefined;
  return true;
}

/** Parses the node as an array (Go: unmarshal into a slice; "null" gives a nil slice); false when it is not one. */
function openArray(n: Node): boolean {
  if (n.items !== undefined) return true;
  return openArrayOnly(n);
}

function openArrayOnly(n: Node): boolean {
  if (n.text === null) return false;
  const kind = textKind(n.text);
  if (kind !== 'array' && kind !== 'null') return false;
  n.items = kind === 'null' ? null : arrayElements(n.text).map(({ raw }) => (raw === 'null' ? null : new Node(raw)));
  n.members = undefined;
  return true;
}

/**
 * The parent of `path` and its last token (evanphx findObject), or undefined
 * when the path has no "/", a step is missing or null, or a step is neither an
 * object nor an array. Each step is parsed as an array when its text starts
 * with "[", else as an object.
 */
function locate(root: Node, path: string): Location | undefined {
  const tokens = parsePointer(path);
  if (!tokens) return undefined;
  let cur = root;
  for (const token of tokens.slice(0, -1)) {
    let next: Slot;
    try {
      next = childAt({ container: cur, key: token });
    } catch (e) {
      if (e instanceof OpFailure) return undefined;
      throw e;
    }
    if (next === null) return undefined;
    if (next.text === null) throw panic(`traversing "${path}" through a null this patch added`);
    if (!(next.text.startsWith('[') ? openArray(next) : openObject(next))) return undefined;
    cur = next;
  }
  return { container: cur, key: tokens[tokens.length - 1]! };
}

const isArrayNode = (n: Node) => n.items !== undefined;

function invalidIndex(i: bigint): OpFailure {
  return new OpFailure(`Unable to access invalid index: ${i}: invalid index referenced`);
}

function indexOf(key: string): bigint {
  const i = atoi(key);
  if (typeof i !== 'bigint') throw new OpFailure(i.error);
  return i;
}

/** An existing array index; negative ones count from the end. */
function existingIndex(len: number, key: string): number {
  let i = indexOf(key);
  const n = BigInt(len);
  if (i < 0n) {
    if (i < -n) throw invalidIndex(i);
    i += n;
  }
  if (i >= n) throw invalidIndex(i);
  return Number(i);
}

/** The value at a location: nothing for a missing object member, an error for a bad array index. */
function childAt(at: Location): Slot {
  const c = at.container;
  if (isArrayNode(c)) {
    const items = c.items ?? [];
    return items[existingIndex(items.length, at.key)]!;
  }
  return c.members?.get(at.key) ?? null;
}

/** replace: the location was read first, so an array index exists here. */
function setAt(at: Location, v: Slot): void {
  const c = at.container;
  if (isArrayNode(c)) {
    const items = c.items ?? (c.items = []);
    items[existingIndex(items.length, at.key)] = v;
    return;
  }
  if (!c.members) throw panic('assignment to entry in nil map');
  c.members.set(at.key, v);
}

function addAt(at: Location, v: Slot): void {
  const c = at.container;
  if (!isArrayNode(c)) {
    if (!c.members) throw panic('assignment to entry in nil map');
    c.members.set(at.key, v);
    return;
  }
  const items = c.items ?? (c.items = []);
  if (at.key === '-') {
    items.push(v);
    return;
  }
  const parsed = atoi(at.key);
  if (typeof parsed !== 'bigint') throw new OpFailure(`value was not a proper array index: '${at.key}': ${parsed.error}`);
  let i = parsed;
  const size = BigInt(items.length + 1);
  if (i >= size) throw invalidIndex(i);
  if (i < 0n) {
    if (i < -size) throw invalidIndex(i);
    i += size;
  }
  items.splice(Number(i), 0, v);
}

function removeAt(at: Location): void {
  const c = at.container;
  if (!isArrayNode(c)) {
    if (!c.members?.has(at.key)) throw new OpFailure(`Unable to remove nonexistent key: ${at.key}: missing value`);
    c.members.delete(at.key);
    return;
  }
  const items = c.items ?? [];
  let i = indexOf(at.key);
  const n = BigInt(items.length);
  if (i >= n) throw invalidIndex(i);
  if (i < 0n) {
    if (i < -n) throw invalidIndex(i);
    i += n;
  }
  items.splice(Number(i), 1);
}

/**
 * "test" equality (evanphx lazyNode.equal): the document side is parsed as an
 * object, else as an array, when it can be — which leaves it parsed, so it is
 * written with sorted keys afterwards; two objects match member by member, two
 * arrays item by item, two other values by their compacted text. A nil on
 * either side of a comparison is a nil-pointer panic, except for object members
 * that are null on both sides (skipped) or on one side (unequal).
 */
function same(n: Slot, o: Slot): boolean {
  if (n === null || o === null) throw panic('comparing against a nil value');
  if (n.members === undefined && n.items === undefined && !openObjectOnly(n) && !openArrayOnly(n)) {
    if (o.members !== undefined || o.items !== undefined) return false;
    return compactOrNil(n.text) === compactOrNil(o.text);
  }
  if (n.members !== undefined) {
    if (o.members === undefined && o.items === undefined && !openObjectOnly(o)) return false;
    if (o.members === undefined) return false;
    const a = n.members ?? new Map<string, Slot>();
    const b = o.members ?? new Map<string, Slot>();
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k)) return false;
      const w = b.get(k)!;
      if ((v === null) !== (w === null)) return false;
      if (v !== null && !same(v, w)) return false;
    }
    return true;
  }
  if (o.items === undefined && !openArrayOnly(o)) return false;
  const a = n.items ?? [];
  const b = o.items ?? [];
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!same(a[i]!, b[i]!)) return false;
  return true;
}

function compactOrNil(text: string | null): string | null {
  return text === null ? null : compactText(text);
}

/** A node as Go's json.Marshal writes it: parsed objects with sorted keys, text compacted and HTML-escaped. */
function marshal(n: Slot): string {
  if (n === null) return 'null';
  if (n.members !== undefined) {
    if (n.members === null) return 'null';
    const keys = [...n.members.keys()].sort(compareGoKeys);
    return `{${keys.map((k) => `${goEncode(k)}:${marshal(n.members!.get(k)!)}`).join(',')}}`;
  }
  if (n.items !== undefined) return n.items === null ? 'null' : `[${n.items.map(marshal).join(',')}]`;
  return n.text === null ? 'null' : compactText(n.text, true);
}

/** A node as a JSON value, object keys in the order they were first set. */
function toValue(n: Slot): JsonValue {
  if (n === null) return null;
  if (n.members !== undefined) {
    if (n.members === null) return null;
    const out: JsonObject = {};
    for (const [k, v] of n.members) put(out, k, toValue(v));
    return out;
  }
  if (n.items !== undefined) return n.items === null ? null : n.items.map(toValue);
  return n.text === null ? null : (JSON.parse(n.text) as JsonValue);
}
