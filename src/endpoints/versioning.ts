// The request's version of a kind and its storage version (spec "Versioning":
// objects round-trip between versions). Every served version of a resource
// shares one store, in the storage version; a request in another version (HPA
// autoscaling/v1, flowcontrol v1beta2, events.svc.io/v1 Events) is converted
// on the way in and out by src/conversion. For the kinds served in one
// version, both directions are the identity.
import { convert, ConversionError, needsConversion, parseApiVersion } from '../conversion/index.js';
import { defaulterFor } from '../api/defaults.js';
import { schemaFor } from '../api/schemas.js';
import { fillGoZeroValues } from '../schema/gozero.js';
import type { FeatureGates } from '../features/gates.js';
import type { ApiObject } from '../registry/object.js';
import type { CustomKind, ServedResource } from '../registry/registry.js';
import type { WriteLens } from '../registry/store.js';
import type { VersionConverter } from '../smd/index.js';
import type { JsonObject } from '../smd/typed.js';

export interface Versioner {
  /** False when request and storage version are the same (both directions are the identity). */
  readonly converts: boolean;
  /** A stored object as the request's version shows it. */
  toRequest(obj: ApiObject): ApiObject;
  /** A decoded and defaulted request object as it is stored: converted, then defaulted in the storage version as Kubernetes does. */
  toStorage(obj: ApiObject): ApiObject;
  /**
   * Set when the conversion is asynchronous (a custom resource's conversion webhook): writes give
   * it to the store (WriteContext.lens), which then reads and answers in the request's version;
   * reads convert what they return through `toRequestMany`. toRequest and toStorage are then the
   * identity.
   */
  readonly lens?: AsyncLens;
}

export interface AsyncLens extends WriteLens {
  /** Stored objects in the request's version, in one conversion (`list`: a list's items). */
  toRequestMany(objs: readonly ApiObject[], list: boolean): Promise<ApiObject[]>;
}

const IDENTITY: Versioner = { converts: false, toRequest: (o) => o, toStorage: (o) => o };

/** Where a served resource's objects are stored: its own group, or the group it shares storage with (events.svc.io → core). */
export function storageOf(served: ServedResource): { group: string; version: string; kind: string } {
  const shared = served.sharesStorageWith;
  return { group: shared?.group ?? served.group, version: served.storageVersion, kind: shared?.kind ?? served.kind };
}

const versioners = new WeakMap<ServedResource, WeakMap<FeatureGates, Versioner>>();

/** The versioner of a served resource (made once per resource and gate set). */
export function versionerFor(served: ServedResource, gates: FeatureGates): Versioner {
  let byGates = versioners.get(served);
  if (!byGates) versioners.set(served, (byGates = new WeakMap()));
  let v = byGates.get(gates);
  if (!v) byGates.set(gates, (v = makeVersioner(served, gates)));
  return v;
}

function makeVersioner(served: ServedResource, gates: FeatureGates): Versioner {
  if (served.custom) return customVersioner(served.custom, `${served.group}/${served.version}`);
  const storage = storageOf(served);
  const request = { group: served.group, version: served.version, kind: served.kind };
  const inbound = needsConversion(request.group, request.version, storage.group, storage.version, storage.kind);
  const outbound = needsConversion(storage.group, storage.version, request.group, request.version, request.kind);
  if (!inbound && !outbound) return IDENTITY;
  const storageSchema = schemaFor(storage.group, storage.version, storage.kind);
  const requestSchema = schemaFor(request.group, request.version, request.kind);
  const storageDefaults = defaulterFor(storage.group, storage.version, storage.kind, gates);
  const apiVersionOf = (gv: { group: string; version: string }) => (gv.group ? `${gv.group}/${gv.version}` : gv.version);
  return {
    converts: true,
    toRequest: (o) => {
      if (!outbound) return o;
      const out = convert({ ...o, apiVersion: apiVersionOf(storage), kind: storage.kind }, request) as ApiObject;
      // What kube-apiserver's encoder writes for the request version's Go type (e.g. events.svc.io/v1 deprecatedSource {}).
      if (requestSchema) fillGoZeroValues(requestSchema, out);
      return out;
    },
    toStorage: (o) => {
      if (!inbound) return o;
      const out = convert({ ...o, apiVersion: apiVersionOf(request), kind: request.kind }, storage) as ApiObject;
      storageDefaults?.(out);
      if (storageSchema) fillGoZeroValues(storageSchema, out);
      return out;
    },
  };
}

/**
 * A custom resource's versions convert with the `None` strategy: only apiVersion changes, which
 * the response's type meta does. Objects read are defaulted in the request's version, as kube's
 * decoder defaults objects stored before a default was added.
 */
function customVersioner(custom: CustomKind, apiVersion: string): Versioner {
  const webhook = custom.webhookConversion;
  if (webhook) {
    return {
      converts: true, toRequest: (o) => o, toStorage: (o) => o,
      lens: {
        apiVersion,
        toRequest: async (o) => (await webhook.toRequest([o], false))[0]!,
        toStorage: (o) => webhook.toStorage(o),
        toRequestMany: (objs, list) => (objs.length === 0 ? Promise.resolve([]) : webhook.toRequest(objs, list)),
      },
    };
  }
  const readDefaults = custom.readDefaults;
  if (!readDefaults) return IDENTITY;
  return {
    converts: true,
    toRequest: (o) => {
      const copy = structuredClone(o);
      readDefaults(copy as Record<string, unknown>);
      return copy;
    },
    toStorage: (o) => o,
  };
}

const converters = new WeakMap<ServedResource, VersionConverter>();

/**
 * The versions of a served kind as managedFields bookkeeping sees them
 * (structured-merge-diff's Converter, as Kubernetes builds it from the
 * scheme): an entry recorded in another version of the kind that converts
 * differently is compared and pruned in that version. A version of the same
 * group this server does not convert (a legacy one, e.g. apps/v1beta2) is read
 * as the request's own, field paths being the same; a version of another
 * group converts to nothing, and its entries are dropped on the next write,
 * as Kubernetes drops entries of versions it does not know. No defaulting.
 */
export function managedFieldsConverter(served: ServedResource): VersionConverter {
  let c = converters.get(served);
  if (c) return c;
  const custom = served.custom;
  if (custom) {
    // Versions of one definition share field paths (None conversion): an entry of another version reads as is.
    const ours = (apiVersion: string) => parseApiVersion(apiVersion).group === served.group;
    c = {
      same: (a, b) => ours(a) && ours(b),
      convert: (value, from, to) => (ours(from) && ours(to) ? { ...value, apiVersion: to } : undefined),
      schemaOf: (apiVersion) => custom.versionSchema(parseApiVersion(apiVersion).version) ?? custom.schema,
    };
    converters.set(served, c);
    return c;
  }
  const kind = storageOf(served).kind;
  const same = (a: string, b: string) => {
    const x = parseApiVersion(a);
    const y = parseApiVersion(b);
    if (x.group === y.group && x.version === y.version) return true;
    try {
      return !needsConversion(x.group, x.version, y.group, y.version, kind);
    } catch (err) {
      if (err instanceof ConversionError) return x.group === y.group;
      throw err;
    }
  };
  c = {
    same,
    convert: (value, from, to) => {
      if (same(from, to)) return { ...value, apiVersion: to };
      try {
        return convert({ ...value, apiVersion: from, kind }, { ...parseApiVersion(to), kind }) as JsonObject;
      } catch (err) {
        if (err instanceof ConversionError) return undefined;
        throw err;
      }
    },
    schemaOf: (apiVersion) => {
      const gv = parseApiVersion(apiVersion);
      return schemaFor(gv.group, gv.version, kind) ?? schemaFor(served.group, served.version, served.kind);
    },
  };
  converters.set(served, c);
  return c;
}
