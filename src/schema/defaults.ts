// Defaulting, as apiextensions defaults custom resources: in every object
// that is present, each property that is absent — or null while the property
// is not nullable — gets a deep copy of its schema default; then defaulting
// continues into the values (so defaults nest: a defaulted object receives
// its own properties' defaults). List items and map values that are null and
// not nullable get their schema's default too. Objects that are absent stay
// absent unless their parent defaults them. Works IN PLACE.
// Each schema gets a plan once (memoised): which properties carry a default,
// and which lead to more defaults; subtrees without defaults are never walked.
import { isObject, type JsonValue, type Schema } from './model.js';

interface Plan {
  /** Properties with a default of their own. */
  own: [string, Schema][];
  /** Properties with defaults somewhere below them. */
  deeper: [string, Schema][];
  /** The item or map-value schema, when it or anything below it has a default. */
  each?: Schema;
}

const plans = new WeakMap<Schema, Plan | null>();

/** The plan of `s`, or null when nothing under `s` has a default. */
function planOf(s: Schema): Plan | null {
  const known = plans.get(s);
  if (known !== undefined) return known;
  plans.set(s, null); // a cycle (only possible in hand-built schemas) counts as no defaults
  const leads = (x: Schema) => x.default !== undefined || planOf(x) !== null;
  const own: [string, Schema][] = [];
  const deeper: [string, Schema][] = [];
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    if (p.default !== undefined) own.push([k, p]);
    if (planOf(p) !== null) deeper.push([k, p]);
  }
  const sub = s.items ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
  const each = sub !== undefined && leads(sub) ? sub : undefined;
  const plan = own.length || deeper.length || each ? { own, deeper, ...(each ? { each } : {}) } : null;
  plans.set(s, plan);
  return plan;
}

function clone(v: JsonValue): JsonValue {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(clone);
  const out: { [k: string]: JsonValue } = {};
  for (const k in v) out[k] = clone(v[k]!);
  return out;
}

const needsDefault = (s: Schema, v: unknown) => s.default !== undefined && v === null && !s.nullable;
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** Whether applying the schema's defaults can change a value at all (something under it has a default). */
export function hasDefaults(schema: Schema): boolean {
  return planOf(schema) !== null;
}

/** Applies the schema's defaults to `value` in place and returns it. */
export function applyDefaults<T>(schema: Schema, value: T): T {
  apply(schema, value);
  return value;
}

function apply(s: Schema, v: unknown): void {
  const plan = planOf(s);
  if (plan === null || typeof v !== 'object' || v === null) return;
  const each = plan.each;
  if (Array.isArray(v)) {
    if (each === undefined || s.items === undefined) return;
    for (let i = 0; i < v.length; i++) {
      if (needsDefault(each, v[i])) v[i] = clone(each.default!);
      apply(each, v[i]);
    }
    return;
  }
  if (!isObject(v)) return;
  for (const [k, p] of plan.own) if (!has(v, k) || needsDefault(p, v[k])) v[k] = clone(p.default!);
  for (const [k, p] of plan.deeper) if (has(v, k)) apply(p, v[k]);
  if (each === undefined || typeof s.additionalProperties !== 'object') return;
  const props = s.properties;
  for (const k in v) {
    if (props !== undefined && has(props, k)) continue;
    if (needsDefault(each, v[k])) v[k] = clone(each.default!);
    apply(each, v[k]);
  }
}
