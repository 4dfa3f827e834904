// Serving the documents, with kube-openapi's HTTP behaviour:
//
//   GET /openapi/v2                JSON, or gnostic protobuf when the Accept asks for
//                                  application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf
//                                  (answered with the `.v1.0` spelling: Go's mime parser rejects `@`)
//   GET /openapi/v3                {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=…"},…}}
//   GET /openapi/v3/<api/v1|apis/<group>/<version>>[?hash=H]
//                                  the group-version's OpenAPI 3.0 document; with the current H it is
//                                  immutable (Cache-Control: public, immutable; Expires in a year),
//                                  with another H a 301 to the current URL; unknown: 404
//
// Every answer carries an ETag (the SHA-512 of its bytes, upper-case hex, quoted) and a
// matching If-None-Match gets 304. Documents are built on first use and their bytes kept.
import { createHash } from 'node:crypto';
import { parseAccept } from '../endpoints/negotiate.js';
import { kubernetesGroup } from '../endpoints/requestinfo.js';
import type { ServedResource } from '../registry/registry.js';
import type { RequestContext } from '../server/context.js';
import { Definitions } from './definitions.js';
import { Documents } from './documents.js';
import { encodeDocument } from './gnostic.js';
import { routesFor, type Route } from './routes.js';

export const PROTOBUF_V2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PROTOBUF_V2_REQUESTED = [PROTOBUF_V2, 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf'];
const JSON_RANGES = ['application/json', 'application/*', '*/*'];

interface Encoded {
  readonly body: Buffer;
  /** Upper-case hex SHA-512 of the body, unquoted. */
  readonly hash: string;
}

const encoded = (body: Buffer | Uint8Array): Encoded => {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.length);
  return { body: b, hash: createHash('sha512').update(b).digest('hex').toUpperCase() };
};

export class OpenAPIService {
  private docs?: Documents;
  private v2Value?: ReturnType<Documents['v2']>;
  private v2Json?: Encoded;
  private v2Proto?: Encoded;
  private v3?: { readonly index: Encoded; readonly byPath: ReadonlyMap<string, Encoded> };

  constructor(private readonly resources: readonly ServedResource[]) {}

  /** Serves `path` when it is an OpenAPI path; false otherwise (the router goes on). */
  handle(ctx: RequestContext, path: string): boolean {
    const method = ctx.req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    if (path === '/openapi/v2') {
      const want = pick(ctx.req.headers.accept, [...JSON_RANGES, ...PROTOBUF_V2_REQUESTED]);
      if (want === undefined) return notAcceptable(ctx);
      const proto = PROTOBUF_V2_REQUESTED.includes(want);
      send(ctx, proto ? this.v2ProtoBytes() : this.v2JsonBytes(), proto ? PROTOBUF_V2 : 'application/json', {});
      return true;
    }
    if (path === '/openapi/v3') {
      send(ctx, this.v3Docs().index, 'application/json', {});
      return true;
    }
    if (!path.startsWith('/openapi/v3/')) return false;
    const key = path.slice('/openapi/v3/'.length);
    const doc = this.v3Docs().byPath.get(key);
    if (doc === undefined) {
      writePlain(ctx, 404, '404 page not found\n');
      return true;
    }
    ctx.res.setHeader('Vary', 'Accept');
    if (pick(ctx.req.headers.accept, JSON_RANGES) === undefined) return notAcceptable(ctx);
    const hash = ctx.url.searchParams.get('hash');
    if (hash !== null && hash !== '' && hash !== doc.hash) {
      ctx.res.statusCode = 301;
      ctx.res.setHeader('Location', serverRelativeURL(key, doc.hash));
      ctx.res.setHeader('Cache-Control', 'no-cache, private');
      ctx.res.end();
      return true;
    }
    const immutable: Record<string, string> = hash === doc.hash
      ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString() }
      : {};
    send(ctx, doc, 'application/json', immutable);
    return true;
  }

  /** The Swagger 2.0 document's JSON bytes (built on first use). */
  v2JsonBytes(): Encoded {
    this.v2Json ??= encoded(Buffer.from(JSON.stringify(this.v2Document())));
    if (this.v2Proto !== undefined) this.v2Value = undefined;
    return this.v2Json;
  }

  /** The Swagger 2.0 document as gnostic protobuf (built on first use). */
  v2ProtoBytes(): Encoded {
    this.v2Proto ??= encoded(encodeDocument(this.v2Document()));
    if (this.v2Json !== undefined) this.v2Value = undefined;
    return this.v2Proto;
  }

  /** The v3 index and every group-version document, by index path (built on first use). */
  v3Docs(): { readonly index: Encoded; readonly byPath: ReadonlyMap<string, Encoded> } {
    if (this.v3 === undefined) {
      const byPath = new Map<string, Encoded>();
      for (const gv of this.groupVersions()) byPath.set(gv.key, encoded(Buffer.from(JSON.stringify(this.documents().v3(gv.routes())))));
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const key of [...byPath.keys()].sort()) paths[key] = { serverRelativeURL: serverRelativeURL(key, byPath.get(key)!.hash) };
      this.v3 = { index: encoded(Buffer.from(JSON.stringify({ paths }))), byPath };
    }
    return this.v3;
  }

  /** The v2 document's value, kept until both encodings are made. */
  private v2Document(): ReturnType<Documents['v2']> {
    this.v2Value ??= this.documents().v2(this.groupVersions().flatMap((gv) => gv.routes()));
    return this.v2Value;
  }

  private documents(): Documents {
    this.docs ??= new Documents(new Definitions(this.resources));
    return this.docs;
  }

  /** Every served group-version in each spelling of its group: its v3 index path and its routes. */
  private groupVersions(): { key: string; routes: () => Route[] }[] {
    const byGv = new Map<string, ServedResource[]>();
    for (const r of this.resources) {
      const k = `${r.group}/${r.version}`;
      byGv.set(k, [...(byGv.get(k) ?? []), r]);
    }
    const out: { key: string; routes: () => Route[] }[] = [];
    for (const list of byGv.values()) {
      const { group, version } = list[0]!;
      for (const spelled of new Set([group, kubernetesGroup(group)])) {
        const key = spelled === '' ? `api/${version}` : `apis/${spelled}/${version}`;
        out.push({ key, routes: () => routesFor(this.documents().defs, list, spelled) });
      }
    }
    return out;
  }
}

function serverRelativeURL(key: string, hash: string): string {
  return `/openapi/v3/${key}?hash=${hash}`;
}

/** The first of `offered` the Accept header takes (by q, then order), matching exactly or by wildcard. */
function pick(accept: string | undefined, offered: readonly string[]): string | undefined {
  for (const range of parseAccept(accept)) {
    const [type, sub] = range.type.split('/');
    for (const o of offered) {
      const [ot, os] = o.split('/');
      if ((type === '*' || type === ot) && (sub === '*' || sub === os)) return o;
    }
  }
  return undefined;
}

function send(ctx: RequestContext, doc: Encoded, contentType: string, headers: Record<string, string>): void {
  const etag = `"${doc.hash}"`;
  ctx.res.setHeader('ETag', etag);
  ctx.res.setHeader('Content-Type', contentType);
  ctx.res.setHeader('Cache-Control', 'no-cache, private');
  for (const [k, v] of Object.entries(headers)) ctx.res.setHeader(k, v);
  if (ifNoneMatch(ctx.req.headers['if-none-match'], etag)) {
    ctx.res.statusCode = 304;
    ctx.res.end();
    return;
  }
  ctx.res.statusCode = 200;
  ctx.res.setHeader('Content-Length', doc.body.length);
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : doc.body);
}

function ifNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const values = (Array.isArray(header) ? header.join(',') : header).split(',').map((v) => v.trim().replace(/^W\//, ''));
  return values.includes('*') || values.includes(etag);
}

function notAcceptable(ctx: RequestContext): true {
  writePlain(ctx, 406, '');
  return true;
}

function writePlain(ctx: RequestContext, code: number, text: string): void {
  ctx.res.statusCode = code;
  ctx.res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  ctx.res.setHeader('Cache-Control', 'no-cache, private');
  ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
  ctx.res.end(text);
}
