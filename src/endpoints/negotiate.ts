// Content negotiation: which media type a response is written in and how a
// request body is read. JSON is the default; YAML and the binary envelope
// (application/vnd.svc.protobuf, or Kubernetes' vnd.kubernetes.protobuf) on
// request; the protobuf entry counts only where the kind has a protobuf form
// (`protobuf: false` skips it). On reads, an
// Accept entry may also ask for a conversion (`as=Table` or
// `as=PartialObjectMetadata[List]`, with `g=meta.svc.io|meta.k8s.io` and
// `v=v1|v1beta1`); entries we cannot serve are skipped so a fallback later in
// the list is used, and a list with nothing we can produce is 406.
import { parseGoYaml, stringifyGoYaml } from './yaml.js';
import { decodeJson, type Decoded } from '../schema/json.js';
import { decodeObject, isProtobufType, PROTOBUF_TYPES } from '../protobuf/index.js';

export type Encoding = 'json' | 'yaml' | 'protobuf';

/** What the response's kind can be written in: every built-in kind has a protobuf form, Tables and custom resources not. */
export interface Capabilities {
  readonly protobuf?: boolean;
}

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
export function negotiate(accept: string | undefined, caps: Capabilities = {}): Encoding | null {
  for (const m of parseAccept(accept)) {
    // Conversions (as=Table, as=PartialObjectMetadata) apply to reads only: skip them so a
    // plain fallback later in the list is used, as clients expect.
    if (m.params.as !== undefined) continue;
    const e = encodingOf(m.type, caps);
    if (e) return e;
  }
  return null;
}

/** The protobuf media type in the spelling the client's Accept names first (Kubernetes' when it names none). */
export function protobufMediaType(accept: string | undefined): string {
  for (const m of parseAccept(accept)) if (isProtobufType(m.type)) return m.type;
  return PROTOBUF_TYPES[1];
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

function encodingOf(type: string, caps: Capabilities): Encoding | null {
  if (type === 'application/json' || type === '*/*' || type === 'application/*') return 'json';
  if (type === 'application/yaml') return 'yaml';
  if (isProtobufType(type) && caps.protobuf !== false) return 'protobuf';
  return null;
}

/**
 * The response target of a read (get, list, watch): the first Accept entry
 * we can serve. `list` says which PartialObjectMetadata kind fits.
 */
export function negotiateTarget(accept: string | undefined, list: boolean, caps: Capabilities = {}): Target | null {
  for (const m of parseAccept(accept)) {
    const as = m.params.as;
    // PartialObjectMetadata has a protobuf form whatever the kind; a Table only JSON and YAML (as Kubernetes).
    const encoding = encodingOf(m.type, as === undefined ? caps : { protobuf: as !== 'Table' });
    if (!encoding) continue;
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

/** The Content-Type of a target: kube-apiserver names the plain media type for conversions too (protobuf in Kubernetes' spelling; respond.ts answers the client's). */
export function contentTypeOf(t: Target): string {
  return CONTENT_TYPES[t.encoding];
}

export const CONTENT_TYPES: Record<Encoding, string> = { json: 'application/json', yaml: 'application/yaml', protobuf: PROTOBUF_TYPES[1] };

/** Text encodings only; protobuf bodies are written by respond.ts (src/protobuf). */
export function encode(value: unknown, enc: Exclude<Encoding, 'protobuf'>): string {
  return enc === 'json' ? JSON.stringify(value) : stringifyGoYaml(value);
}

/** The media types a request body may have. */
export const BODY_TYPES = ['application/json', 'application/yaml', ...PROTOBUF_TYPES];
/** The body types without protobuf (kinds without a protobuf form: custom resources, Tables). */
export const TEXT_BODY_TYPES = BODY_TYPES.filter((t) => !isProtobufType(t));

/**
 * Decodes a request body by its Content-Type, with the paths of duplicate
 * keys (JSON only; YAML refuses duplicates outright; a protobuf body becomes
 * the JSON object its kind's message stands for); null for a media type we cannot read.
 */
export function decodeBody(body: Buffer, contentType: string | undefined): Decoded | null {
  const type = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type === '') return decodeJson(body);
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') return { value: parseGoYaml(body.toString('utf8')), duplicates: [] };
  if (isProtobufType(type)) return { value: decodeObject(body), duplicates: [] };
  return null;
}

// go-restful's Accept check for a route: no Accept, any type ("*/*"), or one of the types it produces (parameters ignored).
export function acceptsAny(accept: string | undefined, produces: readonly string[]): boolean {
  if (!accept) return true;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase();
    return type === '*/*' || produces.includes(type);
  });
}
