// What a /status write of a kind with a status subresource stores (the
// store's prepareUpdate): the live object with the request's metadata and
// status — the request's spec and any other part are not taken. Only the
// parts kept from the live object are copied: its metadata and status are
// replaced, and copying them (a ResourceQuota's managedFields are most of it,
// written on every admitted batch) was most of the work.
import { clone, type ApiObject } from './object.js';

/** The live object (copied, less metadata and status) with `meta` and `status`, keys in the live object's order; a status the live object lacked comes last; `status` undefined: none. */
export function statusWrite(old: ApiObject, meta: ApiObject['metadata'], status: unknown): ApiObject {
  const next: Record<string, unknown> = {};
  const put = (k: string, v: unknown) => {
    // a '__proto__' key of decoded JSON stays a plain property, as a spread keeps it
    if (k === '__proto__') Object.defineProperty(next, k, { value: v, enumerable: true, writable: true, configurable: true });
    else next[k] = v;
  };
  for (const k of Object.keys(old)) {
    if (k === 'metadata') next.metadata = meta;
    else if (k !== 'status') put(k, clone((old as Record<string, unknown>)[k]));
    else if (status !== undefined) next.status = status;
  }
  if (!Object.hasOwn(next, 'metadata')) next.metadata = meta;
  if (status !== undefined && !Object.hasOwn(next, 'status')) next.status = status;
  return next as unknown as ApiObject;
}
