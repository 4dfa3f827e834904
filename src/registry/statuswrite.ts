// What a /status write of a kind with a status subresource stores (the
// store's prepareUpdate): the live object with the request's metadata and
// status — the request's spec and any other part are not taken. Only the
// parts kept from the live object are copied: its metadata and status are
// replaced, and copying them (a ResourceQuota's managedFields are most of it,
// written on every admitted batch) was most of the work.
import { clone, type ApiObject } from './object.js';
import { put, type JsonObject, type JsonValue } from '../patch/json.js';

/** The live object (copied, less metadata and status) with `meta` and `status`, keys in the live object's order; a status the live object lacked comes last; `status` undefined: none. */
export function statusWrite(old: ApiObject, meta: ApiObject['metadata'], status: unknown): ApiObject {
  const next: Record<string, unknown> = {};
  for (const k of Object.keys(old)) {
    if (k === 'metadata') next.metadata = meta;
    // a '__proto__' key of decoded JSON stays a plain property, as a spread keeps it
    else if (k !== 'status') put(next as JsonObject, k, clone((old as Record<string, unknown>)[k]) as JsonValue);
    else if (status !== undefined) next.status = status;
  }
  if (!Object.hasOwn(next, 'metadata')) next.metadata = meta;
  if (status !== undefined && !Object.hasOwn(next, 'status')) next.status = status;
  return next as unknown as ApiObject;
}
