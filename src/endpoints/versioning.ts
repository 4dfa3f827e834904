// The request's version of a kind and its storage version (spec "Versioning":
// objects round-trip between versions). Every served version of a resource
// shares one store, in the storage version; a request in another version (HPA
// autoscaling/v1, flowcontrol v1beta2, events.svc.io/v1 Events) is converted
// on the way in and out by src/conversion. For the kinds served in one
// version, both directions are the identity.
import { convert, needsConversion } from '../conversion/index.js';
import { defaulterFor } from '../api/defaults.js';
import { schemaFor } from '../api/schemas.js';
import { fillGoZeroValues } from '../schema/gozero.js';
import type { FeatureGates } from '../features/gates.js';
import type { ApiObject } from '../registry/object.js';
import type { ServedResource } from '../registry/registry.js';

export interface Versioner {
  /** False when request and storage version are the same (both directions are the identity). */
  readonly converts: boolean;
  /** A stored object as the request's version shows it. */
  toRequest(obj: ApiObject): ApiObject;
  /** A decoded and defaulted request object as it is stored: converted, then defaulted in the storage version as Kubernetes does. */
  toStorage(obj: ApiObject): ApiObject;
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
  const storage = storageOf(served);
  const request = { group: served.group, version: served.version, kind: served.kind };
  const inbound = needsConversion(request.group, request.version, storage.group, storage.version, storage.kind);
  const outbound = needsConversion(storage.group, storage.version, request.group, request.version, request.kind);
  if (!inbound && !outbound) return IDENTITY;
  const storageSchema = schemaFor(storage.group, storage.version, storage.kind);
  const storageDefaults = defaulterFor(storage.group, storage.version, storage.kind, gates);
  const apiVersionOf = (gv: { group: string; version: string }) => (gv.group ? `${gv.group}/${gv.version}` : gv.version);
  return {
    converts: true,
    toRequest: (o) => (outbound ? (convert({ ...o, apiVersion: apiVersionOf(storage), kind: storage.kind }, request) as ApiObject) : o),
    toStorage: (o) => {
      if (!inbound) return o;
      const out = convert({ ...o, apiVersion: apiVersionOf(request), kind: request.kind }, storage) as ApiObject;
      storageDefaults?.(out);
      if (storageSchema) fillGoZeroValues(storageSchema, out);
      return out;
    },
  };
}
