// The internal form kube validates (apiextensions, not apiextensions/v1): the
// v1 → internal conversion hoists a schema, subresources or printer columns
// that every version shares to spec.validation / spec.subresources /
// spec.additionalPrinterColumns and clears them in the versions, and sets
// spec.version to the first version's name. Errors are then reported under the
// hoisted paths (`spec.validation.openAPIV3Schema…`) or the per-version ones.
// "Shares" is apiequality.Semantic.DeepEqual over the Go types: nil and empty
// slices and maps are equal, an absent scalar equals its zero value unless the
// Go field is a pointer, and an absent pointer differs from an empty struct.
import type {
  CustomResourceColumnDefinition,
  CustomResourceConversion,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceSubresources,
  JSONSchemaProps,
} from '../types.js';

export interface InternalValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: InternalValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
}

export interface InternalSpec {
  group: string;
  /** The first version's name ('' without versions). */
  version: string;
  names: CustomResourceDefinitionNames;
  scope: string;
  validation?: InternalValidation;
  subresources?: CustomResourceSubresources;
  versions: InternalVersion[];
  /** spec.versions was absent (Go: a nil slice, printed `(nil)`). */
  versionsAbsent: boolean;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;

/** Keys whose Go field is a value (not a pointer): absent equals the zero value. */
const VALUE_FIELDS = new Set([
  // JSONSchemaProps
  'id', '$schema', 'description', 'type', 'nullable', 'format', 'title', 'exclusiveMaximum', 'exclusiveMinimum', 'pattern', 'uniqueItems',
  'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  // ValidationRule, columns, versions, scale, external docs
  'rule', 'message', 'messageExpression', 'name', 'priority', 'jsonPath', 'served', 'storage', 'deprecated',
  'specReplicasPath', 'statusReplicasPath', 'url',
]);
/** Keys holding Go maps: absent equals empty. */
const MAP_FIELDS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
/** Keys holding arbitrary JSON (apiextensions.JSON): compared as plain JSON. */
const RAW_FIELDS = new Set(['default', 'example']);

const isZero = (v: unknown) => v === '' || v === false || v === 0;

function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

function fieldEqual(key: string, a: unknown, b: unknown): boolean {
  if (RAW_FIELDS.has(key)) return (absent(a) && absent(b)) || (!absent(a) && !absent(b) && jsonEqual(a, b));
  if (key === 'enum') {
    const xa = Array.isArray(a) ? a : [];
    const xb = Array.isArray(b) ? b : [];
    return xa.length === xb.length && xa.every((x, i) => jsonEqual(x, xb[i]));
  }
  if (VALUE_FIELDS.has(key) && ((absent(a) && isZero(b)) || (absent(b) && isZero(a)))) return true;
  if (MAP_FIELDS.has(key) && ((absent(a) && isObj(b) && Object.keys(b).length === 0) || (absent(b) && isObj(a) && Object.keys(a).length === 0))) return true;
  return semanticEqual(a, b);
}

/** apiequality.Semantic.DeepEqual over the JSON of the CRD's Go types. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (absent(a) || absent(b)) {
    // nil slices equal empty ones; a nil pointer differs from an empty struct
    return (absent(a) && absent(b)) || (absent(a) && Array.isArray(b) && b.length === 0) || (absent(b) && Array.isArray(a) && a.length === 0);
  }
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!fieldEqual(k, a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/** Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec. */
export function toInternalSpec(spec: CustomResourceDefinitionSpec): InternalSpec {
  const versions: InternalVersion[] = (spec.versions ?? []).map((v) => ({ ...v }));
  const out: InternalSpec = {
    group: spec.group ?? '',
    version: '',
    names: spec.names ?? ({} as CustomResourceDefinitionNames),
    scope: spec.scope ?? '',
    versions,
    versionsAbsent: !Array.isArray(spec.versions),
    conversion: spec.conversion,
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
  if (versions.length === 0) return out;
  out.version = versions[0]!.name ?? '';
  const first = versions[0]!;
  const same = (pick: (v: InternalVersion) => unknown) => versions.every((v) => semanticEqual(pick(v), pick(first)));
  const schemas = same((v) => v.schema);
  const subresources = same((v) => v.subresources);
  const columns = same((v) => v.additionalPrinterColumns);
  if (schemas) out.validation = first.schema;
  if (subresources) out.subresources = first.subresources;
  if (columns) out.additionalPrinterColumns = first.additionalPrinterColumns;
  for (const v of versions) {
    if (schemas) delete v.schema;
    if (subresources) delete v.subresources;
    if (columns) delete v.additionalPrinterColumns;
  }
  return out;
}
