// Content negotiation: which media type a response is written in and how a
// request body is read. JSON is the default; YAML on request. Protobuf and
// Table/PartialObjectMetadata conversions arrive with later issues; a client
// that accepts JSON (or */*) gets JSON meanwhile, and one that accepts
// nothing we can produce gets 406.
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

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

export const CONTENT_TYPES: Record<Encoding, string> = { json: 'application/json', yaml: 'application/yaml' };

export function encode(value: unknown, enc: Encoding): string {
  return enc === 'json' ? JSON.stringify(value) : stringifyYaml(value, { lineWidth: 0 });
}

/** Decodes a request body by its Content-Type; null for a media type we cannot read. */
export function decodeBody(body: Buffer, contentType: string | undefined): unknown | null {
  const type = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  const text = body.toString('utf8');
  if (type === 'application/json' || type === '') return JSON.parse(text);
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') return parseYaml(text);
  return null;
}
