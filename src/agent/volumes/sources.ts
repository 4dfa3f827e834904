// Reading the API objects volumes are made from, through AgentApi (as the
// node, so the Node authorizer limits it to its pods' objects). A missing
// object reads as the kubelet's object cache reports it: `configmap "y" not
// found`, `secret "y" not found` (kube's managers name the resource singular).
import type { Target } from '../../controllers/client.js';
import { isStatusError } from '../../api/meta/status.js';
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import { PluginError } from './errors.js';

export const CONFIGMAPS: Target = { group: '', version: 'v1', resource: 'configmaps' };
export const SECRETS: Target = { group: '', version: 'v1', resource: 'secrets' };
export const PVCS: Target = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
export const PVS: Target = { group: '', version: 'v1', resource: 'persistentvolumes' };
export const SA_TOKEN = { group: '', version: 'v1', resource: 'serviceaccounts', subresource: 'token' } as const;

export function isNotFound(err: unknown): boolean {
  return isStatusError(err) && err.status.code === 404;
}

/** The object, undefined when missing and `optional`; PluginError otherwise. */
export async function getKeyed(api: AgentApi, kind: 'configmap' | 'secret', namespace: string, name: string, optional: boolean): Promise<ApiObject | undefined> {
  try {
    return await api.get(kind === 'configmap' ? CONFIGMAPS : SECRETS, namespace, name);
  } catch (err) {
    if (isNotFound(err)) {
      if (optional) return undefined;
      throw new PluginError(`${kind} ${JSON.stringify(name)} not found`);
    }
    throw new PluginError((err as Error).message);
  }
}
