// Parity of a set of kinds with one official document, one shared type at a
// time. Every component reachable from the kinds (each kind's root included)
// is compared once with the reference component of the same id, using
// schema/parity.ts's compareWithReference; nested shared types are cut to
// their own level on both sides (type, format, enum, markers, but no fields),
// so each type's fields are compared exactly once and recursive types such as
// JSONSchemaProps terminate. A second walk checks each use of a shared type:
// that both sides use the same one (our `id` against the reference's `$ref`),
// and that where either side overrides a marker at the use (a granular
// ObjectReference, a `retainKeys` strategy, a `replace` selector) the
// markers in effect there agree.
//
// Differences are strings `<Component> <path>: <kind>: ours …, reference …`
// with the component's short name (its id after the last dot-separated
// package, e.g. `PolicyRule`, or `core.v1.TopologySelectorTerm` when outside
// the kinds' package), or `<Component>: absent` when the document lacks it.
import { collectComponents } from '../../schema/openapi.js';
import { compareWithReference, formatDifference, type DifferenceKind, type OpenAPIDocument, type RefSchema } from '../../schema/parity.js';
import type { JsonValue, Schema } from '../../schema/model.js';

export interface CompareOptions {
  /** The kinds' package, e.g. `io.k8s.api.rbac.v1`; ids under it are shown without it. */
  package: string;
  /** Ids compared elsewhere. Default: the meta/v1 pieces of src/schema/common.ts, which its parity test covers. */
  skip?: readonly string[];
  /**
   * Shared types as written at their definition, by id, where the first use
   * found could carry a use's override (core/v1 `definitions`). Default: the
   * first use found stands for the definition.
   */
  definitions?: Iterable<Schema>;
}

export const DEFAULT_SKIP: readonly string[] = [
  ...['ObjectMeta', 'ListMeta', 'LabelSelector', 'LabelSelectorRequirement', 'OwnerReference', 'ManagedFieldsEntry', 'FieldsV1', 'Time', 'MicroTime']
    .map((n) => `io.k8s.apimachinery.pkg.apis.meta.v1.${n}`),
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
];
const ROOT = '#root';
const IDENTITY = ['type', 'format', 'x-kubernetes-int-or-string', 'oneOf', 'anyOf', 'id'] as const;
/** The markers a use of a shared type may override. */
const USE_MARKERS: readonly [DifferenceKind, keyof Schema][] = [
  ['listType', 'x-kubernetes-list-type'],
  ['listMapKeys', 'x-kubernetes-list-map-keys'],
  ['mapType', 'x-kubernetes-map-type'],
  ['patchStrategy', 'x-kubernetes-patch-strategy'],
  ['patchMergeKey', 'x-kubernetes-patch-merge-key'],
];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The short name of a component id, relative to `pkg`. */
export function shortName(id: string, pkg: string): string {
  if (id.startsWith(`${pkg}.`)) return id.slice(pkg.length + 1);
  return id.replace(/^io\.k8s\.(api\.|apimachinery\.pkg\.apis\.|apiextensions-apiserver\.pkg\.apis\.|kube-aggregator\.pkg\.apis\.)?/, '');
}

/** What a use of a shared type shows of it: only what kind of value it is; its own markers are compared once, at the type. */
function identity<T extends object>(s: T): T {
  const out: { [k: string]: unknown } = {};
  for (const k of IDENTITY) if (k in s) out[k] = (s as { [k: string]: unknown })[k];
  return out as T;
}

/** `s` with every nested shared type cut to its identity (the root itself stays whole). */
function cut(s: Schema, root: boolean): Schema {
  if (!root && s.id !== undefined) return identity(s);
  const out: Schema = { ...s };
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, cut(p, false)]));
  if (s.items) out.items = cut(s.items, false);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = cut(s.additionalProperties, false);
  return out;
}

function table(doc: OpenAPIDocument): { [name: string]: RefSchema } {
  return doc.components?.schemas ?? doc.definitions ?? {};
}

const refName = (r: RefSchema): string | undefined => {
  const one = (x: unknown) => (typeof x === 'object' && x !== null && typeof (x as RefSchema).$ref === 'string' ? ((x as RefSchema).$ref as string) : undefined);
  const ref = one(r) ?? (Array.isArray(r.allOf) && r.allOf.length === 1 ? one(r.allOf[0]) : undefined);
  return ref?.slice(ref.lastIndexOf('/') + 1);
};

/** `r` (a component) with the markers written at its uses of other components removed: those are compared by useDifferences. */
function withoutUseMarkers(r: RefSchema, root: boolean): RefSchema {
  if (!root && refName(r) !== undefined) {
    const out = { ...r };
    for (const [, key] of USE_MARKERS) delete out[key];
    return out;
  }
  const out: RefSchema = { ...r };
  if (typeof r.properties === 'object' && r.properties !== null) {
    out.properties = Object.fromEntries(Object.entries(r.properties as { [k: string]: RefSchema }).map(([k, p]) => [k, withoutUseMarkers(p, false)]));
  }
  if (typeof r.items === 'object' && r.items !== null) out.items = withoutUseMarkers(r.items as RefSchema, false);
  if (typeof r.additionalProperties === 'object' && r.additionalProperties !== null) out.additionalProperties = withoutUseMarkers(r.additionalProperties as RefSchema, false);
  return out;
}

interface UseContext {
  ours: Map<string, Schema>;
  reference: { [name: string]: RefSchema };
  /** Formatted differences. */
  out: string[];
}

/**
 * The uses of shared types within one component (not descending into others):
 * the same type on both sides, and the same markers in effect wherever either
 * side overrides one at the use.
 */
function useDifferences(ours: Schema, ref: RefSchema, path: string, root: boolean, cx: UseContext): void {
  const name = root ? undefined : refName(ref);
  if (!root && (ours.id !== undefined || name !== undefined)) {
    if (ours.id !== name) {
      cx.out.push(`${path || '(root)'}: id: ours ${ours.id ?? 'none'}, reference ${name ?? 'none'}`);
      return;
    }
    const ourDef = cx.ours.get(ours.id!) ?? {};
    const refDef = cx.reference[name!] ?? {};
    for (const [kind, key] of USE_MARKERS) {
      const here = ours[key] as JsonValue | undefined;
      const theirs = (key in ref ? ref[key] : refDef[key]) as JsonValue | undefined;
      const overridden = !same(here, ourDef[key]) || key in ref;
      if (overridden && !same(here, theirs)) cx.out.push(formatDifference({ path, kind, ...(here === undefined ? {} : { ours: here }), ...(theirs === undefined ? {} : { reference: theirs }) }));
    }
    return;
  }
  const child = (k: string) => (path ? `${path}.${k}` : k);
  const refProps = (ref.properties ?? {}) as { [k: string]: RefSchema };
  for (const [k, p] of Object.entries(ours.properties ?? {})) if (refProps[k] !== undefined) useDifferences(p, refProps[k]!, child(k), false, cx);
  if (ours.items && typeof ref.items === 'object' && ref.items !== null) useDifferences(ours.items, ref.items as RefSchema, `${path}[]`, false, cx);
  if (typeof ours.additionalProperties === 'object' && typeof ref.additionalProperties === 'object' && ref.additionalProperties !== null) {
    useDifferences(ours.additionalProperties, ref.additionalProperties as RefSchema, `${path}{}`, false, cx);
  }
}

/** Every difference between the kinds (and the shared types they use) and `doc`. */
export function componentDifferences(kinds: Iterable<Schema>, doc: OpenAPIDocument, opts: CompareOptions): string[] {
  const used = new Map<string, Schema>();
  for (const k of kinds) {
    if (k.id === undefined) throw new Error('parity: a kind has no id');
    collectComponents(k, used);
  }
  // The types the kinds use, each as its definition when one is given.
  const defined = new Map<string, Schema>();
  for (const d of opts.definitions ?? []) if (d.id !== undefined) defined.set(d.id, d);
  const components = new Map([...used].map(([id, s]) => [id, defined.get(id) ?? s]));
  const skip = opts.skip ?? DEFAULT_SKIP;
  const full = table(doc);
  const shallow: { [name: string]: RefSchema } = Object.fromEntries(Object.entries(full).map(([n, r]) => [n, identity(r)]));
  const out: string[] = [];
  for (const [id, ours] of components) {
    if (skip.includes(id)) continue;
    const name = shortName(id, opts.package);
    const reference = full[id];
    if (reference === undefined) {
      out.push(`${name}: absent`);
      continue;
    }
    // The root under a name of its own, so that a type's uses of itself resolve to the cut form.
    const local: OpenAPIDocument = { components: { schemas: { ...shallow, [ROOT]: withoutUseMarkers(reference, true) } } };
    for (const d of compareWithReference(cut(ours, true), local, ROOT)) out.push(`${name} ${formatDifference(d)}`);
    const uses: UseContext = { ours: components, reference: full, out: [] };
    useDifferences(ours, reference, '', true, uses);
    for (const d of uses.out) out.push(`${name} ${d}`);
  }
  return out;
}
