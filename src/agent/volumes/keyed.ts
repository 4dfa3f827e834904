// ConfigMap and Secret data as volume files (kube's configmap.MakePayload and
// secret.MakePayload): every key under its own name, or only the listed items
// at their paths; a listed key that is missing fails unless the source is optional.
import type { ApiObject } from '../../registry/object.js';
import type { Payload } from './atomicwriter.js';
import { PluginError } from './errors.js';

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

/** The data of a ConfigMap (`data` as text, `binaryData` base64) or a Secret (`data` base64), by key. */
export function objectData(kind: 'configmap' | 'secret', obj: ApiObject | undefined): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!obj) return out;
  const entries = (v: unknown) => Object.entries((v ?? {}) as Record<string, string>);
  if (kind === 'configmap') {
    for (const [k, v] of entries(obj.data)) out.set(k, Buffer.from(v, 'utf8'));
    for (const [k, v] of entries(obj.binaryData)) out.set(k, Buffer.from(v, 'base64'));
  } else {
    for (const [k, v] of entries(obj.data)) out.set(k, Buffer.from(v, 'base64'));
  }
  return out;
}

export function keyedPayload(kind: 'configmap' | 'secret', data: Map<string, Buffer>, items: readonly KeyToPath[] | undefined, defaultMode: number, optional: boolean): Payload {
  const out: Payload = new Map();
  if (!items || items.length === 0) {
    for (const [k, v] of data) out.set(k, { data: v, mode: defaultMode });
    return out;
  }
  for (const item of items) {
    const v = data.get(item.key);
    if (v === undefined) {
      if (optional) continue;
      throw new PluginError(kind === 'configmap' ? `configmap references non-existent config key: ${item.key}` : `references non-existent secret key: ${item.key}`);
    }
    out.set(item.path, { data: v, mode: item.mode ?? defaultMode });
  }
  return out;
}
