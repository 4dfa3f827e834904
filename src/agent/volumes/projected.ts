// Projected volumes (kube's projected plugin): the files of several sources
// in one folder — configMap, secret, downwardAPI and serviceAccountToken
// (a TokenRequest bound to the pod; mode 0600 when the pod has an fsGroup or
// a single runAsUser, owned by that user). Errors of every source are gathered
// (Go's aggregate), the other sources still read.
import { aggregateErrors } from '../../api/meta/aggregate.js';
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import type { Payload } from './atomicwriter.js';
import { downwardAPIPayload, type DownwardAPIFile } from './downwardapi.js';
import { PluginError } from './errors.js';
import { keyedPayload, objectData, type KeyToPath } from './keyed.js';
import type { ResourceList } from './resources.js';
import { getKeyed } from './sources.js';
import type { TokenManager } from './tokens.js';
import { serviceAccountOf } from './podinfo.js';

const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;

interface KeyedProjection {
  name?: string;
  items?: KeyToPath[];
  optional?: boolean;
}

export interface VolumeProjection {
  configMap?: KeyedProjection;
  secret?: KeyedProjection;
  downwardAPI?: { items?: DownwardAPIFile[] };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
}

export interface ProjectedContext {
  readonly api: AgentApi;
  readonly tokens: TokenManager;
  readonly allocatable: () => ResourceList;
  readonly fsUser?: number;
  readonly fsGroup?: number;
}

export async function projectedPayload(ctx: ProjectedContext, pod: ApiObject, sources: readonly VolumeProjection[], defaultMode: number): Promise<Payload> {
  const out: Payload = new Map();
  const errors: string[] = [];
  const namespace = pod.metadata.namespace ?? '';
  for (const source of sources) {
    try {
      let part: Payload = new Map();
      if (source.configMap || source.secret) {
        const kind = source.configMap ? 'configmap' : 'secret';
        const p = (source.configMap ?? source.secret)!;
        const optional = p.optional === true;
        const obj = await getKeyed(ctx.api, kind, namespace, p.name ?? '', optional);
        part = keyedPayload(kind, objectData(kind, obj), p.items, defaultMode, optional);
      } else if (source.downwardAPI) {
        part = downwardAPIPayload(pod, source.downwardAPI.items ?? [], defaultMode, ctx.allocatable);
      } else if (source.serviceAccountToken) {
        const tp = source.serviceAccountToken;
        const mode = ctx.fsUser !== undefined || ctx.fsGroup !== undefined ? 0o600 : defaultMode;
        const token = await ctx.tokens.get(namespace, serviceAccountOf(pod), {
          audiences: tp.audience ? [tp.audience] : [],
          expirationSeconds: tp.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS,
          boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
        });
        part.set(tp.path, { data: Buffer.from(token), mode, ...(ctx.fsUser !== undefined ? { fsUser: ctx.fsUser } : {}) });
      }
      for (const [k, v] of part) out.set(k, v);
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  if (errors.length > 0) throw new PluginError(aggregateErrors(errors));
  return out;
}
