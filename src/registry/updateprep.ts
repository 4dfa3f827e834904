// What an update stores (kube's registry store BeforeUpdate and the
// strategies' PrepareForUpdate, the parts every kind shares).
import { type ApiObject, clone, deepEqual } from './object.js';
import { statusWrite } from './statuswrite.js';
import type { Strategy } from './strategy.js';

/**
 * The object an update stores, from the request's object and the stored one:
 * identity, creation and deletion metadata kept from the stored object; a
 * /status write changes status only, any other write keeps the stored status
 * (when the kind has the subresource); generation moves with the spec; then
 * the kind's own rules (strategy.prepareForUpdate). Modifies and answers `obj`
 * (or, for /status, a new object).
 */
export function prepareUpdate(obj: ApiObject, old: ApiObject, strategy: Strategy, apiVersion: string, kind: string, subresource: string | undefined): ApiObject {
  const meta = obj.metadata ?? (obj.metadata = {});
  const oldMeta = old.metadata;
  meta.name = oldMeta.name;
  if (strategy.namespaced) meta.namespace = oldMeta.namespace;
  else delete meta.namespace;
  meta.uid ||= oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) {
    meta.deletionTimestamp = oldMeta.deletionTimestamp;
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  obj.apiVersion = apiVersion;
  obj.kind = kind;
  if (subresource === 'status') {
    // /status changes status only (and what metadata an update may change, less what the kind keeps).
    for (const k of strategy.statusKeepsMetadata ?? []) {
      const v = (oldMeta as Record<string, unknown>)[k];
      if (v === undefined) delete (meta as Record<string, unknown>)[k];
      else (meta as Record<string, unknown>)[k] = clone(v);
    }
    obj = statusWrite(old, meta, obj.status);
  } else if (strategy.hasStatus && !(subresource && strategy.statusWriters?.includes(subresource))) {
    if (old.status !== undefined) obj.status = clone(old.status);
    else delete obj.status;
  }
  if (strategy.tracksGeneration) {
    meta.generation = oldMeta.generation ?? 1;
    if (!deepEqual(specOf(obj), specOf(old))) meta.generation += 1;
  } else delete meta.generation;
  strategy.prepareForUpdate(obj, old, subresource);
  return obj;
}

/** Everything but metadata and status: what bumps generation. */
function specOf(obj: ApiObject): Record<string, unknown> {
  const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}
