// The scale subresource (deployments, replicasets, statefulsets,
// replicationcontrollers): an autoscaling/v1 Scale view of spec.replicas.
// A write takes the current Scale (with the parent's field ownership as its
// managedFields, see scalefields.ts), makes the new Scale (PUT body, patch,
// or apply, with the Scale's field manager), and moves its replicas and
// ownership back to the parent.
import { fieldPath, invalid, newBadRequest, newConflict, newInvalid } from '../api/meta/index.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import type { GenericStore, WriteLens } from '../registry/store.js';
import type { UserInfo } from '../authn/user.js';
import type { ResourceRequestInfo } from './requestinfo.js';
import { scaleOwnership, type ReplicasPaths } from './scalefields.js';

export type Scale = Record<string, unknown>;

/**
 * Where a kind keeps what its Scale shows: the built-in kinds spec.replicas, status.replicas and
 * the label selector object spec.selector; a custom resource the paths its CRD names
 * (CustomResourceSubresourceScale: `.spec.replicas`, `.status.replicas`, a selector in string form).
 */
export interface ScalePaths {
  readonly specReplicas: readonly string[];
  readonly statusReplicas: readonly string[];
  readonly selector?: readonly string[];
  /** The selector at `selector` is already a string (custom resources); else a LabelSelector object. */
  readonly selectorIsString?: boolean;
}

export const BUILTIN_SCALE_PATHS: ScalePaths = { specReplicas: ['spec', 'replicas'], statusReplicas: ['status', 'replicas'], selector: ['spec', 'selector'] };

/** A CRD's `.a.b` JSON path as field names. */
export function scalePathOf(jsonPath: string): string[] {
  return jsonPath.split('.').slice(1);
}

function valueAt(obj: unknown, path: readonly string[]): unknown {
  let v = obj;
  for (const k of path) {
    if (!isObject(v)) return undefined;
    v = v[k];
  }
  return v;
}

function setAt(obj: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let o = obj;
  for (const k of path.slice(0, -1)) {
    const next = o[k];
    o = o[k] = isObject(next) ? { ...next } : {};
  }
  o[path[path.length - 1]!] = value;
}

/**
 * The Scale of `obj`, as Go writes autoscaling/v1 Scale: spec.replicas left
 * out when 0 (omitempty), status.replicas always, status.selector when set.
 * `managedFields` (the Scale's own, for its field manager) only when given.
 */
export function getScale(obj: ApiObject, managedFields?: unknown, paths: ScalePaths = BUILTIN_SCALE_PATHS): Scale {
  const m = obj.metadata;
  const specReplicas = valueAt(obj, paths.specReplicas);
  const statusReplicas = valueAt(obj, paths.statusReplicas);
  const replicas = typeof specReplicas === 'number' ? specReplicas : 0;
  const rawSelector = paths.selector ? valueAt(obj, paths.selector) : undefined;
  const selector = paths.selectorIsString ? (typeof rawSelector === 'string' ? rawSelector : '') : selectorString(rawSelector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp, ...(managedFields ? { managedFields } : {}) },
    spec: replicas !== 0 ? { replicas } : {},
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(selector ? { selector } : {}) },
  };
}

/** A write on /scale: the new Scale from the current one (which carries the Scale's managedFields when ownership is tracked). */
export type ScaleWrite = (current: Scale) => Scale;

export interface ScaleWriteContext {
  readonly dryRun: boolean;
  readonly user?: UserInfo;
  /** Field ownership: the request's group/version and the resource's replicas paths (absent: managedFields are left alone). */
  readonly ownership?: { readonly groupVersion: string; readonly paths: ReplicasPaths };
  /** Where the parent keeps the Scale's values (default: the built-in kinds'). */
  readonly paths?: ScalePaths;
  /** The parent's version converts through a webhook: the update works in it (WriteContext.lens). */
  readonly lens?: WriteLens;
}

/**
 * PUT, PATCH or apply on /scale: `write` runs on the current Scale inside the
 * update, so a conflict is retried with the object read again.
 */
export async function writeScale(store: GenericStore, info: ResourceRequestInfo, write: ScaleWrite, ctx: ScaleWriteContext): Promise<ApiObject> {
  return store.guaranteedUpdate(info.namespace, info.name, (cur) => {
    const owned = ctx.ownership && scaleOwnership(cur, ctx.ownership.groupVersion, ctx.ownership.paths);
    const next = write(getScale(cur, owned?.scaleEntries, ctx.paths));
    withScale(store, info, cur, next, ctx.paths ?? BUILTIN_SCALE_PATHS);
    if (owned) {
      const entries = owned.parentEntries(isObject(next.metadata) ? next.metadata.managedFields : undefined);
      if (entries) cur.metadata.managedFields = entries as ApiObject['metadata']['managedFields'];
      else delete cur.metadata.managedFields;
    }
    return cur;
  }, { dryRun: ctx.dryRun, ...(ctx.user ? { user: ctx.user } : {}), ...(ctx.lens ? { lens: ctx.lens } : {}) });
}

/** `cur` with the replicas of a Scale body, after its checks (resourceVersion, replicas). */
function withScale(store: GenericStore, info: ResourceRequestInfo, cur: ApiObject, body: Scale, paths: ScalePaths): void {
  const spec = isObject(body.spec) ? body.spec : {};
  const replicas = spec.replicas;
  if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas))) {
    throw newBadRequest(`spec.replicas must be an integer`);
  }
  // autoscaling validation.ValidateScale, before the store's resourceVersion check.
  if (typeof replicas === 'number' && replicas < 0) {
    throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, info.name, [invalid(fieldPath('spec.replicas'), replicas, 'must be greater than or equal to 0')]);
  }
  const wantRV = isObject(body.metadata) ? (body.metadata.resourceVersion as string | undefined) : undefined;
  if (wantRV && wantRV !== cur.metadata.resourceVersion) throw newConflict(store.qualifiedResource, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
  setAt(cur, paths.specReplicas, (replicas as number | undefined) ?? 0);
}

/** matchLabels as "k=v,..." in key order, then matchExpressions in Kubernetes' form. */
function selectorString(sel: unknown): string {
  if (typeof sel === 'string') return sel;
  if (!isObject(sel)) return '';
  const parts: string[] = [];
  const ml = isObject(sel.matchLabels) ? sel.matchLabels : {};
  for (const k of Object.keys(ml).sort()) parts.push(`${k}=${String(ml[k])}`);
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  for (const e of exprs) {
    if (!isObject(e)) continue;
    const vals = Array.isArray(e.values) ? [...(e.values as string[])].sort().join(',') : '';
    if (e.operator === 'In') parts.push(`${String(e.key)} in (${vals})`);
    else if (e.operator === 'NotIn') parts.push(`${String(e.key)} notin (${vals})`);
    else if (e.operator === 'Exists') parts.push(String(e.key));
    else if (e.operator === 'DoesNotExist') parts.push(`!${String(e.key)}`);
  }
  return parts.join(',');
}
