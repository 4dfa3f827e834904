// Content negotiation: which media type a response is written in and how a
// request body is read. JSON is the default; YAML on request. On reads, an
// Accept entry may also ask for a conversion (`as=Table` or
// `as=PartialObjectMetadata[List]`, with `g=meta.svc.io|meta.k8s.io` and
// `v=v1|v1beta1`); entries we cannot serve are skipped so a fallback later in
// the list is used, and a list with nothing we can produce is 406.
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { decodeJson, type Decoded } from '../schema/json.js';

export type Encoding = 'json' | 'yaml';

interface MediaRange {
  readonly type: string;
  readonly params: Record<string, string>;
  readonly q: number;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [{ type: '*/*', params: {}, q: 1 }];
  return header
    .split(',')
    .map((part) => {
      const [type, ...rest] = part.trim().split(';');
      const params: Record<string, string> = {};
      for (const p of rest) {
        const eq = p.indexOf('=');
        if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
      }
      const q = params.q === undefined ? 1 : Number(params.q);
      return { type: (type ?? '').trim().toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((m) => m.type !== '' && m.q > 0)
    .sort((a, b) => b.q - a.q);
}

/** The encoding for a response, or null when nothing acceptable can be produced (406). */
export function negotiate(accept: string | undefined): Encoding | null {
  for (const m of parseAccept(accept)) {
    // Conversions (as=Table, as=PartialObjectMetadata) are not served yet: skip them so a
    // plain fallback later in the list is used, as clients expect.
    if (m.params.as !== undefined) continue;
    if (m.type === 'application/json' || m.type === '*/*' || m.type === 'application/*') return 'json';
    if (m.type === 'application/yaml') return 'yaml';
  }
  return null;
}

/** What a read answers with: the object itself, or a conversion of it. */
export type Target =
  | { readonly as: 'object'; readonly encoding: Encoding }
  | { readonly as: 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList'; readonly encoding: Encoding; readonly group: string; readonly version: string };

const META_GROUPS = new Set(['meta.svc.io', 'meta.k8s.io']);
const CONVERSIONS: Record<string, readonly string[]> = {
  Table: ['v1', 'v1beta1'],
  PartialObjectMetadata: ['v1', 'v1beta1'],
  PartialObjectMetadataList: ['v1', 'v1beta1'],
};

function encodingOf(type: string): Encoding | null {
  if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'json';
  if (type === 'application/yaml') return 'yaml';
  return null;
}

/**
 * The response target of a read (get, list, watch): the first Accept entry
 * we can serve. `list` says which PartialObjectMetadata kind fits.
 */
export function negotiateTarget(accept: string | undefined, list: boolean): Target | null {
  for (const m of parseAccept(accept)) {
    const encoding = encodingOf(m.type);
    if (!encoding) continue;
    const as = m.params.as;
    if (as === undefined) return { as: 'object', encoding };
    const group = m.params.g ?? '';
    const version = m.params.v ?? '';
    if (!META_GROUPS.has(group) || !CONVERSIONS[as]?.includes(version)) continue;
    if (as === 'PartialObjectMetadata' && list) continue;
    if (as === 'PartialObjectMetadataList' && !list) continue;
    return { as: as as 'Table', encoding, group, version };
  }
  return null;
}

/** The Content-Type of a target: kube-apiserver names the plain media type for conversions too. */
export function contentTypeOf(t: Target): string {
  return CONTENT_TYPES[t.encoding];
}

export const CONTENT_TYPES: Record<Encoding, string> = { json: 'application/json', yaml: 'application/yaml' };

export function encode(value: unknown, enc: Encoding): string {
  // As Go's YAML encoder: keys sorted, sequences not indented, YAML 1.1 quoting (timestamps, yes/no).
  return enc === 'json' ? JSON.stringify(value) : stringifyYaml(value, { lineWidth: 0, sortMapEntries: true, indentSeq: false, version: '1.1' });
}

/**
 * Decodes a request body by its Content-Type, with the paths of duplicate
 * keys (JSON only; YAML refuses duplicates outright); null for a media type we cannot read.
 */
export function decodeBody(body: Buffer, contentType: string | undefined): Decoded | null {
  const type = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type === '') return decodeJson(body);
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') return { value: parseYaml(body.toString('utf8')), duplicates: [] };
  return null;
}
