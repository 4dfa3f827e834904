// Aggregated discovery (apidiscovery v2beta1): /api and /apis answer one
// APIGroupDiscoveryList with every group, version and resource when the
// client asks for it in Accept, so a client needs two requests instead of one
// per group-version. Asked as `g=apidiscovery.k8s.io` (every stock client) it
// is answered in that spelling; `g=apidiscovery.svc.io` gets ours. v1.27
// serves only v2beta1: a `v=v2` entry is skipped, so the next entry in the
// list (v2beta1, or legacy JSON) is used.
import { createHash } from 'node:crypto';
import type { ServedResource } from '../registry/registry.js';
import { encode, parseAccept } from './negotiate.js';
import { kubernetesGroup } from './requestinfo.js';

export type Spelling = 'svc.io' | 'k8s.io';
export type DiscoveryEncoding = 'json' | 'yaml';

export const AGGREGATED_VERSION = 'v2beta1';
export const AGGREGATED_KIND = 'APIGroupDiscoveryList';

const GROUP_SPELLINGS: Readonly<Record<string, Spelling>> = {
  'apidiscovery.svc.io': 'svc.io',
  'apidiscovery.k8s.io': 'k8s.io',
};

export interface AggregatedTarget {
  readonly spelling: Spelling;
  readonly encoding: DiscoveryEncoding;
  /** The Content-Type of the answer: the media type with the g, v and as the client asked for. */
  readonly contentType: string;
}

function encodingOf(type: string): DiscoveryEncoding | undefined {
  if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'json';
  if (type === 'application/yaml') return 'yaml';
  return undefined;
}

/**
 * Whether an Accept header asks for the aggregated document: the first entry we
 * can serve decides. A plain entry (no `as=`) first means legacy discovery;
 * entries for other kinds, versions or media types are skipped.
 */
export function negotiateAggregated(accept: string | undefined): AggregatedTarget | undefined {
  for (const m of parseAccept(accept)) {
    const encoding = encodingOf(m.type);
    if (!encoding) continue;
    if (m.params.as === undefined) return undefined;
    const g = m.params.g ?? '';
    const spelling = GROUP_SPELLINGS[g];
    if (m.params.as !== AGGREGATED_KIND || m.params.v !== AGGREGATED_VERSION || !spelling) continue;
    const type = encoding === 'json' ? 'application/json' : 'application/yaml';
    return { spelling, encoding, contentType: `${type};g=${g};v=${AGGREGATED_VERSION};as=${AGGREGATED_KIND}` };
  }
  return undefined;
}

/** One group as a discovery document lists it: its name as listed, and its versions (preferred first) with their resources. */
export interface GroupResources {
  readonly name: string;
  readonly versions: readonly { readonly version: string; readonly resources: readonly ServedResource[] }[];
}

interface GVK {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The APIGroupDiscoveryList for `groups`, with responseKind groups in the document's spelling. */
export function aggregatedList(groups: readonly GroupResources[], spelling: Spelling): Record<string, unknown> {
  const spell = (g: string) => (spelling === 'k8s.io' ? kubernetesGroup(g) : g);
  return {
    kind: AGGREGATED_KIND,
    apiVersion: `apidiscovery.${spelling}/${AGGREGATED_VERSION}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: { ...(g.name !== '' ? { name: g.name } : {}), creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v.version,
        resources: v.resources.map((r) => resourceEntry(r, spell)),
        freshness: 'Current',
      })),
    })),
  };
}

function resourceEntry(r: ServedResource, spell: (g: string) => string): Record<string, unknown> {
  const subresources = [...r.subresources]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((s) => {
      const kind: GVK = { group: s.group === undefined ? '' : spell(s.group), version: s.version ?? '', kind: s.kind };
      return { subresource: s.name, responseKind: kind, verbs: [...s.verbs] };
    });
  return {
    resource: r.resource,
    responseKind: { group: '', version: '', kind: r.kind } satisfies GVK,
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName ?? '',
    verbs: [...r.verbs],
    ...(r.shortNames?.length ? { shortNames: [...r.shortNames] } : {}),
    ...(r.categories?.length ? { categories: [...r.categories] } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

/** An encoded aggregated document and its entity tag (quoted, as the ETag header carries it). */
export interface EncodedDocument {
  readonly body: string;
  readonly etag: string;
}

/** Encodes a document; the tag is the SHA-512 of its JSON, so it changes exactly when the content does. */
export function encodeDocument(doc: unknown, encoding: DiscoveryEncoding): EncodedDocument {
  const json = JSON.stringify(doc);
  const etag = `"${createHash('sha512').update(json).digest('hex').toUpperCase()}"`;
  return { body: encoding === 'json' ? json : encode(doc, 'yaml'), etag };
}

/** Whether an If-None-Match header names the tag (a list of tags, or `*`). */
export function matchesETag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
