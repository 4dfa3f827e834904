// The JSON patches mutating webhooks send are nearly always a few `add` or
// `replace` operations on members of objects the document already has
// (labels, annotations, a field of the spec). Those are applied here
// directly, copying only the objects on each path; anything else — arrays,
// `remove`, `move`, `copy`, `test`, a missing parent, a `replace` of a
// missing member, the whole document — answers undefined and goes to the
// evanphx-compatible engine in src/patch (which first writes the whole
// object as Go's JSON text, ≈ 50 µs for a small object). Both give the same
// document (simplepatch.test.ts compares them).
//
// simpleStepsOf reads such a patch straight from its text with one JSON.parse
// (no evanphx-style decoding into raw member texts first); it answers
// undefined for anything decodeJsonPatch + applySimplePatch would not take
// (then the caller goes that way, which also words the errors).
import type { JsonPatchOperation, JsonValue } from '../../patch/index.js';

type Obj = { [key: string]: JsonValue };
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON pointer's reference tokens; undefined for the whole document or an escape this path does not take. */
function tokens(path: string): string[] | undefined {
  if (!path.startsWith('/')) return undefined;
  const parts = path.slice(1).split('/');
  if (!path.includes('~')) return parts; // nothing escaped (the usual path)
  for (const p of parts) if (/~(?![01])/.test(p)) return undefined;
  return parts.map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function text(raw: string | null | undefined): string | undefined {
  if (typeof raw !== 'string' || !raw.startsWith('"')) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** One add or replace of an object member. */
export interface SimpleStep {
  readonly op: 'add' | 'replace';
  readonly at: readonly string[];
  readonly value: JsonValue;
}

/** Most operations decodeJsonPatch takes (its MAX_JSON_PATCH_OPERATIONS): past it the full path answers 413. */
const MAX_OPERATIONS = 10000;

/**
 * A patch text's steps when it is a JSON array of add/replace operations with
 * a non-null value and a member path (the parsed array too, for the audit
 * annotation); `steps` empty for `[]`; undefined for anything else.
 */
export function simpleStepsOf(patchText: string): { steps: SimpleStep[]; body: unknown[] } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(patchText);
  } catch {
    return undefined;
  }
  if (!Array.isArray(body) || body.length > MAX_OPERATIONS) return undefined;
  const steps: SimpleStep[] = [];
  for (const o of body) {
    if (!isObj(o)) return undefined;
    const op = o.op;
    const path = o.path;
    const value = o.value;
    if ((op !== 'add' && op !== 'replace') || typeof path !== 'string' || value === undefined || value === null || !Object.hasOwn(o, 'value')) return undefined;
    const at = tokens(path);
    if (!at || at.length === 0) return undefined;
    steps.push({ op, at, value });
  }
  return { steps, body };
}

/** The patched document, or undefined when the operations need the full engine. */
export function applySimplePatch(doc: JsonValue, ops: readonly JsonPatchOperation[]): JsonValue | undefined {
  if (!isObj(doc) || ops.length === 0) return undefined;
  const steps: SimpleStep[] = [];
  for (const o of ops) {
    const op = text(o.get('op'));
    const path = text(o.get('path'));
    const raw = o.get('value');
    if ((op !== 'add' && op !== 'replace') || path === undefined || typeof raw !== 'string') return undefined;
    const at = tokens(path);
    if (!at || at.length === 0) return undefined;
    let value: JsonValue;
    try {
      value = JSON.parse(raw) as JsonValue;
    } catch {
      return undefined;
    }
    steps.push({ op, at, value });
  }
  return applySteps(doc, steps);
}

/** `doc` with the steps applied, copying only the objects on their paths; undefined when a step needs the full engine. */
export function applySteps(doc: JsonValue, steps: readonly SimpleStep[]): JsonValue | undefined {
  if (!isObj(doc) || steps.length === 0) return undefined;
  const root: Obj = { ...doc };
  /** Objects already copied in this patch (so a later step writes into the copy): a few, so a list. */
  const copied: Obj[] = [root];
  for (const { op, at, value } of steps) {
    let parent = root;
    for (let i = 0; i < at.length - 1; i++) {
      const next = parent[at[i]!];
      if (!isObj(next)) return undefined;
      let child = next;
      if (!copied.includes(child)) {
        child = { ...next };
        copied.push(child);
        parent[at[i]!] = child;
      }
      parent = child;
    }
    const key = at[at.length - 1]!;
    if (op === 'replace' && !Object.hasOwn(parent, key)) return undefined;
    parent[key] = value;
  }
  return root;
}
