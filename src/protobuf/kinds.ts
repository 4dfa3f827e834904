// Which message an object is, by its apiVersion and kind: the built-in kinds
// (api/schemas.ts, either group spelling), their List kinds, and the meta
// kinds (Status, DeleteOptions, WatchEvent, PartialObjectMetadata[List]).
// Kinds without a message here (Table, discovery documents, custom resources)
// have no protobuf form.
import { schemaFor } from '../api/schemas.js';
import { DeleteOptions, listKind } from '../schema/common.js';
import { S, toSchema } from '../schema/dsl.js';
import type { Schema } from '../schema/model.js';
import { canonicalGroup } from '../endpoints/requestinfo.js';
import { PartialObjectMetadata, PartialObjectMetadataList, Status, WatchEvent } from './meta.js';
import './apiextensions.js';

const META_GROUPS = new Set(['meta.k8s.io', 'meta.svc.io']);
const lists = new Map<Schema, Schema>();

/** The group and version of an apiVersion (`v1` is the core group). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The message schema of a kind, or undefined when it has no protobuf form. */
export function messageFor(apiVersion: string, kind: string): Schema | undefined {
  const { group, version } = splitApiVersion(apiVersion);
  switch (kind) {
    case 'Status':
      return Status;
    case 'DeleteOptions':
      return toSchema(DeleteOptions);
    case 'WatchEvent':
      return WatchEvent;
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      if (!META_GROUPS.has(group)) return undefined;
      return kind === 'PartialObjectMetadata' ? PartialObjectMetadata : PartialObjectMetadataList;
  }
  const g = canonicalGroup(group);
  const own = schemaFor(g, version, kind);
  if (own || !kind.endsWith('List')) return own;
  const item = schemaFor(g, version, kind.slice(0, -4));
  if (!item) return undefined;
  let l = lists.get(item);
  if (!l) lists.set(item, (l = toSchema(listKind(new S(item)))));
  return l;
}
