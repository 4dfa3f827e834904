// A schema's declared properties as a Map, made once per `properties` object
// (schemas are never changed once built). The walks over objects (validation,
// unknown fields and pruning) look every key of a value up in its schema's
// properties: one Map lookup is ~3× cheaper than an indexed read of a
// many-keyed object plus an own-property check.
import type { Schema } from './model.js';

const indexes = new WeakMap<object, Map<string, unknown>>();

/** `props` as a Map from name to schema (own properties only), made on first use. */
export function propertyIndex<S = Schema>(props: { readonly [name: string]: S }): Map<string, S> {
  let m = indexes.get(props) as Map<string, S> | undefined;
  if (m === undefined) indexes.set(props, (m = new Map(Object.entries(props))));
  return m;
}
