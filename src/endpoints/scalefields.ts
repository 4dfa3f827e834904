// Field ownership of the scale subresource (Kubernetes' managedfields
// ScaleHandler and the registries' scaleUpdatedObjectInfo). A write on /scale
// runs the field manager on the Scale object (autoscaling/v1, subresource
// "scale"), whose managedFields come from the parent's (toSubresource); the
// parent's entries are then rebuilt from the result (toParent):
//
//   toSubresource: every parent entry recorded in a version the resource maps
//     and owning that version's replicas path becomes an autoscaling/v1 entry
//     owning spec.replicas, under the parent entry's key, with its time.
//   toParent: parent entries of an unmapped version are dropped; those without
//     the replicas path are kept; those with it lose it unless their key is
//     among the scale entries (then they are kept whole, and that scale entry
//     is used up); every remaining scale entry owning spec.replicas becomes an
//     entry of the request's version owning its replicas path, whose time is
//     the PARENT's time under the scale entry's key.
//
// Keys are manager identities (managed.ts managerId): an Update entry's key
// names its apiVersion, so the parent's Update entries (apps/v1) never match
// the scale's (autoscaling/v1) and scale-made entries carry no time; an Apply
// entry's key does not, so an applier keeps its entry (and its time) whole.
// The result may hold two entries of one identity (an Update owner of
// replicas whose replicas the write did not change): Kubernetes writes both.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { schemaFor } from '../api/schemas.js';
import { decodeManaged, encodeManaged, type Managed } from '../smd/index.js';
import { FieldSet, field, type Path } from '../smd/fieldpath.js';
import type { ManagedEntry } from '../smd/managed.js';
import { applyTo, trackWrite, type ApplyRequest, type FieldTracking } from './fieldmanager.js';
import type { Scale, ScaleWrite } from './scale.js';

export const SCALE_API_VERSION = 'autoscaling/v1';
const REPLICAS_IN_SCALE: Path = [field('spec'), field('replicas')];
const SPEC_REPLICAS: Path = [field('spec'), field('replicas')];
const SCALE_REPLICAS_SET = FieldSet.of(REPLICAS_IN_SCALE);

/** A parent's group/version → its replicas path (Kubernetes' ResourcePathMappings). */
export type ReplicasPaths = ReadonlyMap<string, Path>;

const mappings = (...versions: string[]): ReplicasPaths => new Map(versions.map((v) => [v, SPEC_REPLICAS]));

/** The versions each kind with /scale has had, as the v1.27 registries list them (group/resource → mappings). */
const REPLICAS_PATHS: Readonly<Record<string, ReplicasPaths>> = {
  'apps/deployments': mappings('apps/v1beta1', 'apps/v1beta2', 'apps/v1'),
  'apps/replicasets': mappings('apps/v1beta2', 'apps/v1'),
  'apps/statefulsets': mappings('apps/v1beta1', 'apps/v1beta2', 'apps/v1'),
  '/replicationcontrollers': mappings('v1'),
};

/** The replicas mappings of a resource with /scale (group as the catalogue spells it, '' for core). */
export function replicasPathsOf(group: string, resource: string): ReplicasPaths | undefined {
  return REPLICAS_PATHS[`${group}/${resource}`];
}

/** The Scale view of the parent's entries (ScaleHandler.ToSubresource), keyed by the parent entries' keys. */
export function toSubresource(parent: Managed, paths: ReplicasPaths): Managed {
  const out: Managed = new Map();
  for (const [id, e] of parent) {
    const path = paths.get(e.apiVersion);
    if (!path || !e.fields.has(path)) continue;
    out.set(id, { ...info(e), apiVersion: SCALE_API_VERSION, fields: SCALE_REPLICAS_SET, ...(e.time ? { time: e.time } : {}) });
  }
  return out;
}

/**
 * The parent's entries after a write on /scale (ScaleHandler.ToParent):
 * `parent` as the parent had them, `scale` as the Scale's field manager left
 * them, `groupVersion` the request's. Keys as Kubernetes keys them (see the
 * file comment); encode the result with encodeManaged.
 */
export function toParent(parent: Managed, scale: Managed, groupVersion: string, paths: ReplicasPaths): Managed {
  const out: Managed = new Map();
  const left = new Map(scale);
  for (const [id, e] of parent) {
    // An entry of a version the resource never had is dropped.
    if (!paths.has(e.apiVersion)) continue;
    const path = paths.get(e.apiVersion);
    if (!path || !e.fields.has(path)) {
      out.set(id, e);
    } else if (left.has(id)) {
      out.set(id, e);
      left.delete(id);
    } else {
      const rest = e.fields.difference(FieldSet.of(path));
      if (!rest.empty()) out.set(id, { ...e, fields: rest });
    }
  }
  const target = paths.get(groupVersion);
  for (const [id, e] of left) {
    if (!e.fields.has(REPLICAS_IN_SCALE)) continue;
    const time = parent.get(id)?.time;
    out.set(id, { ...info(e), apiVersion: groupVersion, fields: target ? FieldSet.of(target) : new FieldSet(), ...(time ? { time } : {}) });
  }
  return out;
}

function info(e: ManagedEntry): Pick<ManagedEntry, 'manager' | 'operation' | 'subresource'> {
  return { manager: e.manager, operation: e.operation, ...(e.subresource ? { subresource: e.subresource } : {}) };
}

/** How the Scale's own field manager runs (Kubernetes installs one per scale endpoint, for autoscaling/v1 Scale). */
export function scaleTracking(manager: string): FieldTracking {
  return { manager, apiVersion: SCALE_API_VERSION, kind: 'Scale', schema: schemaFor('autoscaling', 'v1', 'Scale'), subresource: 'scale' };
}

/** The field ownership of one /scale write on one parent object. */
export interface ScaleOwnership {
  /** The parent's entries as the Scale's managedFields (what its field manager starts from). */
  readonly scaleEntries: unknown;
  /** The parent's managedFields after the write, given the Scale's after its field manager ran. */
  parentEntries(scaleEntries: unknown): unknown;
}

/** The scale ownership of `parent` for a write through the request's group/version. */
export function scaleOwnership(parent: ApiObject, groupVersion: string, paths: ReplicasPaths): ScaleOwnership {
  const meta = isObject(parent.metadata) ? parent.metadata : {};
  const managed = decodeManaged((meta as { managedFields?: unknown }).managedFields);
  return {
    scaleEntries: encodeManaged(toSubresource(managed, paths)),
    parentEntries: (scaleEntries) => encodeManaged(toParent(managed, decodeManaged(scaleEntries), groupVersion, paths)),
  };
}

/**
 * The Scale a PUT or patch produced, as its field manager sees it (Go's typed
 * autoscaling/v1 Scale): the current metadata, spec.replicas when a positive
 * integer (0 is left out, omitempty), status.replicas and status.selector when
 * well typed. Anything else in the body is for the scale checks to reject.
 */
export function typedScale(body: Scale, current: Scale): Scale {
  const spec = isObject(body.spec) ? body.spec : {};
  const status = isObject(body.status) ? body.status : {};
  const int = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
  const { managedFields: _, ...meta } = (isObject(current.metadata) ? current.metadata : {}) as Record<string, unknown>;
  return {
    kind: 'Scale',
    apiVersion: SCALE_API_VERSION,
    metadata: meta,
    spec: int(spec.replicas) && spec.replicas > 0 ? { replicas: spec.replicas } : {},
    status: { replicas: int(status.replicas) ? status.replicas : 0, ...(typeof status.selector === 'string' && status.selector ? { selector: status.selector } : {}) },
  };
}

/** `scale` carrying `managedFields` (none when undefined). */
function withManagedFields(scale: Scale, managedFields: unknown): Scale {
  const { managedFields: _, ...meta } = (isObject(scale.metadata) ? scale.metadata : {}) as Record<string, unknown>;
  return { ...scale, metadata: managedFields ? { ...meta, managedFields } : meta };
}

/**
 * The three writes on /scale, each with the Scale's field manager run for `manager` (Kubernetes' scale request scope).
 * `untracked` (custom resources, as kube v1.26–1.27 serve their /scale): PUT and patch record no manager for the
 * Scale, so the parent's entries lose replicas and nobody gains them.
 */
export function scaleWrites(manager: string, untracked = false): { update(body: Scale): ScaleWrite; patch(patch: (scale: Scale) => Scale): ScaleWrite; apply(req: ApplyRequest): ScaleWrite } {
  const t = scaleTracking(manager);
  const updated = (current: Scale, next: Scale): Scale => {
    if (untracked) return withManagedFields(next, undefined);
    const tracked = trackWrite(t, current as unknown as ApiObject, typedScale(next, current) as unknown as ApiObject);
    return withManagedFields(next, tracked.metadata?.managedFields);
  };
  return {
    update: (body) => (current) => updated(current, body),
    patch: (patch) => (current) => updated(current, patch(current)),
    apply: (req) => (current) => applyTo(t, current as unknown as ApiObject, req) as unknown as Scale,
  };
}
