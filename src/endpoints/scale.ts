// The scale subresource (deployments, replicasets, statefulsets,
// replicationcontrollers): an autoscaling/v1 Scale view of spec.replicas.
import { newBadRequest, newConflict } from '../api/meta/index.js';
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import type { GenericStore, WriteContext } from '../registry/store.js';
import type { ResourceRequestInfo } from './requestinfo.js';
import { schemaFor } from '../api/schemas.js';
import { finishGoDecode } from '../schema/gozero.js';

const SCALE = schemaFor('autoscaling', 'v1', 'Scale');

/** The Scale view of an object, as Go writes it (ScaleSpec.replicas is omitempty, ScaleStatus.replicas always written). */
export function getScale(obj: ApiObject): Record<string, unknown> {
  const spec = isObject(obj.spec) ? obj.spec : {};
  const status = isObject(obj.status) ? obj.status : {};
  const m = obj.metadata;
  const scale = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 0 },
    status: { replicas: typeof status.replicas === 'number' ? status.replicas : 0, ...(selectorString(spec.selector) ? { selector: selectorString(spec.selector) } : {}) },
  };
  if (SCALE) finishGoDecode(SCALE, scale);
  return scale;
}

export async function updateScale(store: GenericStore, info: ResourceRequestInfo, body: Record<string, unknown>, ctx: WriteContext): Promise<ApiObject> {
  return store.guaranteedUpdate(info.namespace, info.name, (cur) => withScale(store, info, cur, body), ctx);
}

/**
 * PATCH on /scale (kubectl scale sends a merge patch): the patch applies to
 * the current Scale view, inside the update, so a conflict is retried.
 */
export async function patchScale(store: GenericStore, info: ResourceRequestInfo, patch: (scale: Record<string, unknown>) => Record<string, unknown>, ctx: WriteContext): Promise<ApiObject> {
  return store.guaranteedUpdate(info.namespace, info.name, (cur) => withScale(store, info, cur, patch(getScale(cur))), ctx);
}

/** `cur` with the replicas of a Scale body, after its checks (resourceVersion, replicas). */
function withScale(store: GenericStore, info: ResourceRequestInfo, cur: ApiObject, body: Record<string, unknown>): ApiObject {
  const spec = isObject(body.spec) ? body.spec : {};
  const replicas = spec.replicas;
  if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)) {
    throw newBadRequest(`spec.replicas must be a non-negative integer`);
  }
  const wantRV = isObject(body.metadata) ? (body.metadata.resourceVersion as string | undefined) : undefined;
  if (wantRV && wantRV !== cur.metadata.resourceVersion) throw newConflict(store.qualifiedResource, info.name, 'the object has been modified; please apply your changes to the latest version and try again');
  cur.spec = { ...(isObject(cur.spec) ? cur.spec : {}), replicas: (replicas as number | undefined) ?? 0 };
  return cur;
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
