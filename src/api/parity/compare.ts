// Parity of a set of kinds with one official document, one shared type at a
// time. Every component reachable from the kinds (each kind's root included)
// is compared once with the reference component of the same id, using
// schema/parity.ts's compareWithReference; nested shared types are cut to
// their own level on both sides (type, format, enum, markers, but no fields),
// so each type's fields are compared exactly once and recursive types such as
// JSONSchemaProps terminate. A second walk checks that both sides agree on
// where shared types are used: our `id` against the reference's `$ref`.
//
// Differences are strings `<Component> <path>: <kind>: ours …, reference …`
// with the component's short name (its id after the last dot-separated
// package, e.g. `PolicyRule`, or `core.v1.TopologySelectorTerm` when outside
// the kinds' package), or `<Component>: absent` when the document lacks it.
import { collectComponents } from '../../schema/openapi.js';
import { compareWithReference, formatDifference, type OpenAPIDocument, type RefSchema } from '../../schema/parity.js';
import type { Schema } from '../../schema/model.js';

export interface CompareOptions {
  /** The kinds' package, e.g. `io.k8s.api.rbac.v1`; ids under it are shown without it. */
  package: string;
  /** Ids compared elsewhere. Default: the meta/v1 pieces of src/schema/common.ts, which its parity test covers. */
  skip?: readonly string[];
}

export const DEFAULT_SKIP: readonly string[] = [
  ...['ObjectMeta', 'ListMeta', 'LabelSelector', 'LabelSelectorRequirement', 'OwnerReference', 'ManagedFieldsEntry', 'FieldsV1', 'Time', 'MicroTime']
    .map((n) => `io.k8s.apimachinery.pkg.apis.meta.v1.${n}`),
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
];
const ROOT = '#root';
const IDENTITY = ['type', 'format', 'x-kubernetes-int-or-string', 'oneOf', 'anyOf', 'id'] as const;

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

/** Where ours and the reference disagree on which shared type is used (within one component, not descending into others). */
function idDifferences(ours: Schema, ref: RefSchema, path: string, root: boolean, out: string[]): void {
  const name = root ? undefined : refName(ref);
  if (!root && (ours.id !== undefined || name !== undefined)) {
    if (ours.id !== name) out.push(`${path || '(root)'}: id: ours ${ours.id ?? 'none'}, reference ${name ?? 'none'}`);
    return;
  }
  const child = (k: string) => (path ? `${path}.${k}` : k);
  const refProps = (ref.properties ?? {}) as { [k: string]: RefSchema };
  for (const [k, p] of Object.entries(ours.properties ?? {})) if (refProps[k] !== undefined) idDifferences(p, refProps[k]!, child(k), false, out);
  if (ours.items && typeof ref.items === 'object' && ref.items !== null) idDifferences(ours.items, ref.items as RefSchema, `${path}[]`, false, out);
  if (typeof ours.additionalProperties === 'object' && typeof ref.additionalProperties === 'object' && ref.additionalProperties !== null) {
    idDifferences(ours.additionalProperties, ref.additionalProperties as RefSchema, `${path}{}`, false, out);
  }
}

/** Every difference between the kinds (and the shared types they use) and `doc`. */
export function componentDifferences(kinds: Iterable<Schema>, doc: OpenAPIDocument, opts: CompareOptions): string[] {
  const components = new Map<string, Schema>();
  for (const k of kinds) {
    if (k.id === undefined) throw new Error('parity: a kind has no id');
    collectComponents(k, components);
  }
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
    const local: OpenAPIDocument = { components: { schemas: { ...shallow, [ROOT]: reference } } };
    for (const d of compareWithReference(cut(ours, true), local, ROOT)) out.push(`${name} ${formatDifference(d)}`);
    const ids: string[] = [];
    idDifferences(ours, reference, '', true, ids);
    for (const d of ids) out.push(`${name} ${d}`);
  }
  return out;
}
