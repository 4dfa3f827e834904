// application/json-patch+json (RFC 6902) with the semantics Kubernetes v1.27 gets
// from evanphx/json-patch v4 (gopkg.in/evanphx/json-patch.v4), applied purely: the
// input document is never mutated.
//
//   decodeJsonPatch(text)   body → operations; 400 (malformed) for bad JSON or a body
//                           that is not an array of operation objects, worded as the
//                           API server's strict decoder ("error decoding patch: …");
//                           413 (tooManyOperations) past 10000 operations.
//   applyJsonPatch(doc, ops) runs add/remove/replace/move/copy/test in order; the first
//                           failure throws PatchError 'notApplicable' (422) with the
//                           evanphx error text, which the API server does not echo.
//
// evanphx behaviour kept on purpose (it is what clients of v1.27 observe):
// - An operation's parent must exist: adding "/a/b" when "/a" is missing fails
//   ("doc is missing path"); the empty pointer "" addresses nothing and fails too.
// - Array indices are Go integers: "01" and "+1" are 1; negative indices count from
//   the end ("-1" is the last element; for add, "-1" appends); "-" appends.
// - A missing "value" member reads as null. "test" of a missing location against
//   null passes; test compares structurally (1 and 1.0 are equal here, unlike Go's
//   byte comparison of raw numbers).
// - "replace" requires the location to exist (evanphx ≥ 4.9 follows RFC 6902).
// - "move" removes first, then adds, so moving a value into its own child fails.
// - "copy" counts the JSON size it adds; past 3 MiB in total the patch fails, as the
//   API server arms jsonpatch.AccumulatedCopySizeLimit from JSONPatchMaxCopyBytes.
import { PatchError } from './errors.js';
import { decodeBody } from './gojson.js';
import { goJsonKind } from '../schema/gotypes.js';
import { type JsonObject, type JsonValue, deepCopy, deepEqual, has, isObject, jsonSize, put } from './json.js';
import { atoi, parsePointer } from './pointer.js';

/** handlers.maxJSONPatchOperations in k8s.io/apiserver. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** genericapiserver Config.JSONPatchMaxCopyBytes (3 MiB). */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

export interface JsonPatchOp {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly value?: JsonValue;
}

export interface JsonPatchOptions {
  /** Total bytes "copy" may add (0 disables the check). */
  readonly maxCopyBytes?: number;
}

/** Decodes a JSON patch request body as the v1.27 API server does (default, Warn/Strict field validation). */
export function decodeJsonPatch(text: string): JsonValue[] {
  const body = decodeBody(text, 'error decoding patch: ');
  const fail = (what: string): never => {
    throw new PatchError('malformed', `error decoding patch: json: cannot unmarshal ${what}`);
  };
  if (body === null) return [];
  if (!Array.isArray(body)) return fail(`${goJsonKind(body)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of body) {
    if (op === null) continue;
    if (!isObject(op)) return fail(`${goJsonKind(op)} into Go value of type handlers.jsonPatchOp`);
    for (const field of ['op', 'path', 'from'] as const) {
      const v = op[field];
      if (v !== undefined && v !== null && typeof v !== 'string') fail(`${goJsonKind(v)} into Go struct field jsonPatchOp.${field} of type string`);
    }
  }
  if (body.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new PatchError('tooManyOperations', `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${body.length}`);
  }
  return body;
}

/** Applies `ops` to a copy of `doc` and returns the copy. */
export function applyJsonPatch(doc: JsonValue, ops: readonly JsonValue[] | readonly JsonPatchOp[], options: JsonPatchOptions = {}): JsonValue {
  const root = deepCopy(doc);
  const limit = options.maxCopyBytes ?? MAX_JSON_PATCH_COPY_BYTES;
  let copied = 0;
  for (const raw of ops) {
    const op = (isObject(raw) ? raw : {}) as JsonObject;
    const kind = typeof op['op'] === 'string' ? op['op'] : 'unknown';
    const value = op['value'] === undefined ? null : op['value'];
    switch (kind) {
      case 'add': {
        const path = pathOf(op, 'path', kind);
        const at = locate(root, path);
        if (!at) throw missing(`add operation does not apply: doc is missing path: "${path}"`);
        wrap(`error in add for path: '${path}'`, () => add(at, deepCopy(value)));
        break;
      }
      case 'remove': {
        const path = pathOf(op, 'path', kind);
        const at = locate(root, path);
        if (!at) throw missing(`remove operation does not apply: doc is missing path: "${path}"`);
        wrap(`error in remove for path: '${path}'`, () => remove(at));
        break;
      }
      case 'replace': {
        const path = pathOf(op, 'path', kind);
        const at = locate(root, path);
        if (!at) throw missing(`replace operation does not apply: doc is missing path: ${path}`);
        try {
          get(at);
        } catch (e) {
          if (e instanceof OpFailure) throw missing(`replace operation does not apply: doc is missing key: ${path}`);
          throw e;
        }
        set(at, deepCopy(value));
        break;
      }
      case 'move': {
        const from = pathOf(op, 'from', kind);
        const src = locate(root, from);
        if (!src) throw missing(`move operation does not apply: doc is missing from path: ${from}`);
        const v = wrap(`error in move for path: '${src.key}'`, () => get(src));
        wrap(`error in move for path: '${src.key}'`, () => remove(src));
        const path = pathOf(op, 'path', kind);
        const dst = locate(root, path);
        if (!dst) throw missing(`move operation does not apply: doc is missing destination path: ${path}`);
        wrap(`error in move for path: '${path}'`, () => add(dst, v));
        break;
      }
      case 'copy': {
        const from = pathOf(op, 'from', kind);
        const src = locate(root, from);
        if (!src) throw missing(`copy operation does not apply: doc is missing from path: ${from}`);
        const v = wrap(`error in copy for from: '${from}'`, () => get(src));
        const path = pathOf(op, 'path', kind);
        const dst = locate(root, path);
        if (!dst) throw missing(`copy operation does not apply: doc is missing destination path: ${path}`);
        copied += jsonSize(v);
        if (limit > 0 && copied > limit) {
          throw new PatchError('notApplicable', `Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${limit}`);
        }
        wrap('error while adding value during copy', () => add(dst, deepCopy(v)));
        break;
      }
      case 'test': {
        const path = pathOf(op, 'path', kind);
        const at = locate(root, path);
        if (!at) throw missing(`test operation does not apply: is missing path: ${path}`);
        const found = getOrAbsent(at, path);
        const actual = found === ABSENT ? null : found;
        if (!deepEqual(actual, value)) throw new PatchError('notApplicable', `testing value ${path} failed: test failed`);
        break;
      }
      default:
        throw new PatchError('notApplicable', `Unexpected kind: ${kind}`);
    }
  }
  return root;
}

/** A location: the container that holds it and the (unescaped) last token. */
type Location = { readonly container: JsonObject; readonly key: string } | { readonly container: JsonValue[]; readonly key: string };

const ABSENT = Symbol('absent');

class OpFailure extends Error {}

function missing(message: string): PatchError {
  return new PatchError('notApplicable', `${message}: missing value`);
}

function wrap<T>(prefix: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof OpFailure) throw new PatchError('notApplicable', `${prefix}: ${e.message}`);
    throw e;
  }
}

function pathOf(op: JsonObject, field: 'path' | 'from', kind: string): string {
  const v = op[field];
  if (typeof v === 'string') return v;
  const name = field === 'path' ? 'path' : 'from';
  throw new PatchError('notApplicable', `${kind} operation failed to decode ${name}: missing value`);
}

/** The parent container of `path` (evanphx findObject), or undefined when any step is missing. */
function locate(root: JsonValue, path: string): Location | undefined {
  const tokens = parsePointer(path);
  if (!tokens) return undefined;
  let cur: JsonValue = root;
  for (const t of tokens.slice(0, -1)) {
    const next: JsonValue | undefined = step(cur, t);
    if (next === undefined || next === null) return undefined;
    cur = next;
  }
  if (!isObject(cur) && !Array.isArray(cur)) return undefined;
  return { container: cur, key: tokens[tokens.length - 1]! } as Location;
}

function step(cur: JsonValue, token: string): JsonValue | undefined {
  if (isObject(cur)) return has(cur, token) ? cur[token] : undefined;
  if (Array.isArray(cur)) {
    const i = atoi(token);
    if (typeof i === 'string') return undefined;
    const idx = i < 0 ? i + cur.length : i;
    return idx >= 0 && idx < cur.length ? cur[idx] : undefined;
  }
  return undefined;
}

/** An existing array index for get/remove/replace, or an OpFailure. */
function existingIndex(arr: JsonValue[], key: string): number {
  const i = atoi(key);
  if (typeof i === 'string') throw new OpFailure(i);
  if (i >= arr.length || i < -arr.length) throw new OpFailure(`Unable to access invalid index: ${i}: invalid index referenced`);
  return i < 0 ? i + arr.length : i;
}

function getOrAbsent(at: Location, path: string): JsonValue | typeof ABSENT {
  const c = at.container;
  if (!Array.isArray(c)) return has(c, at.key) ? c[at.key]! : ABSENT;
  return wrap(`error in test for path: '${path}'`, () => c[existingIndex(c, at.key)]!);
}

/** The value at a location, or the evanphx error text when there is none (replace checks this). */
function get(at: Location): JsonValue {
  if (!Array.isArray(at.container)) {
    if (!has(at.container, at.key)) throw new OpFailure(`unable to get nonexistent key: ${at.key}: missing value`);
    return at.container[at.key]!;
  }
  return at.container[existingIndex(at.container, at.key)]!;
}

function set(at: Location, v: JsonValue): void {
  if (Array.isArray(at.container)) at.container[existingIndex(at.container, at.key)] = v;
  else put(at.container, at.key, v);
}

function add(at: Location, v: JsonValue): void {
  if (!Array.isArray(at.container)) return put(at.container, at.key, v);
  const arr = at.container;
  if (at.key === '-') {
    arr.push(v);
    return;
  }
  const i = atoi(at.key);
  if (typeof i === 'string') throw new OpFailure(`value was not a proper array index: '${at.key}': ${i}`);
  const size = arr.length + 1;
  if (i >= size || i < -size) throw new OpFailure(`Unable to access invalid index: ${i}: invalid index referenced`);
  arr.splice(i < 0 ? i + size : i, 0, v);
}

function remove(at: Location): void {
  if (!Array.isArray(at.container)) {
    if (!has(at.container, at.key)) throw new OpFailure(`Unable to remove nonexistent key: ${at.key}: missing value`);
    delete at.container[at.key];
    return;
  }
  at.container.splice(existingIndex(at.container, at.key), 1);
}
