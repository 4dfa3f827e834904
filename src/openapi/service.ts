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
//
// Custom resources (setCustomResources: the Established CRDs) join the built-in documents
// without rebuilding them: /openapi/v2 is the built-in document with the CRDs' paths and
// definitions added (JSON: spliced into the built-in text; protobuf: the built-in bytes
// followed by a Document of the additions, which protobuf merges field by field), and
// each CRD group-version gets its own v3 document, rebuilt only when one of its CRDs
// changes. A path or definition the built-ins already have is not taken from a CRD.
import { createHash } from 'node:crypto';
import { parseAccept } from '../endpoints/negotiate.js';
import { kubernetesGroup } from '../endpoints/requestinfo.js';
import type { ServedResource } from '../registry/registry.js';
import type { RequestContext } from '../server/context.js';
import type { CustomResourceDefinition } from '../apiextensions/types.js';
import { CustomResourceSet } from '../apiextensions/openapi/set.js';
import type { PublishedVersion } from '../apiextensions/openapi/build.js';
import type { JsonValue } from '../schema/model.js';
import { Definitions } from './definitions.js';
import { Documents, type ExtraComponent } from './documents.js';
import type { Json } from './emit.js';
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

/** The built-in Swagger 2.0 document, kept as its JSON text in pieces and its protobuf bytes. */
interface BuiltInV2 {
  /** Each top-level key's JSON text, in document order. */
  readonly texts: readonly (readonly [key: string, text: string])[];
  readonly paths: ReadonlySet<string>;
  readonly definitions: ReadonlySet<string>;
  /** The document's value, until its protobuf bytes are made. */
  doc?: Json;
  proto?: Buffer;
}

/** What the custom resources add to /openapi/v2. */
interface V2Additions {
  readonly paths: Json;
  readonly definitions: Json;
}

export class OpenAPIService {
  private docs?: Documents;
  private builtInV2?: BuiltInV2;
  private v2Adds?: V2Additions;
  private v2Json?: Encoded;
  private v2Proto?: Encoded;
  private builtInV3?: ReadonlyMap<string, Encoded>;
  private readonly crdV3 = new Map<string, Encoded>();
  private v3?: { readonly index: Encoded; readonly byPath: ReadonlyMap<string, Encoded> };
  private readonly crds = new CustomResourceSet();
  private readonly perVersion = new WeakMap<PublishedVersion, V2Additions & { proto?: Buffer }>();

  constructor(private readonly resources: readonly ServedResource[]) {}

  /**
   * Publishes the custom resources of `crds` (whole CustomResourceDefinitions; those not
   * Established are left out) in place of the previous set: every served version in
   * /openapi/v2 and /openapi/v3/apis/<group>/<version>. Cheap when nothing published
   * changed (same resourceVersions, or same published spec); documents are rebuilt on
   * their next request, built-in ones never.
   */
  setCustomResources(crds: readonly CustomResourceDefinition[]): void {
    const change = this.crds.update(crds);
    if (!change.changed) return;
    this.v2Adds = undefined;
    this.v2Json = undefined;
    this.v2Proto = undefined;
    this.v3 = undefined;
    for (const key of change.groupVersions) this.crdV3.delete(key);
  }

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
    if (this.v2Json === undefined) {
      const adds = this.v2Additions();
      const parts = this.v2BuiltIn().texts.map(([key, text]) => {
        const added = key === 'paths' ? adds.paths : key === 'definitions' ? adds.definitions : {};
        return `${JSON.stringify(key)}:${spliceObject(text, added)}`;
      });
      this.v2Json = encoded(Buffer.from(`{${parts.join(',')}}`));
    }
    return this.v2Json;
  }

  /** The Swagger 2.0 document as gnostic protobuf (built on first use). */
  v2ProtoBytes(): Encoded {
    if (this.v2Proto === undefined) {
      const builtIn = this.v2BuiltIn();
      builtIn.proto ??= Buffer.from(encodeDocument(builtIn.doc!));
      builtIn.doc = undefined;
      const proto = builtIn.proto;
      // Each published version's additions are encoded once and kept while it is unchanged; protobuf
      // merges the concatenated Documents' repeated paths and definitions.
      const pieces = this.crds.all().map((v) => {
        const adds = this.versionAdditions(v);
        if (adds.proto === undefined) adds.proto = Object.keys(adds.paths).length === 0 && Object.keys(adds.definitions).length === 0 ? Buffer.alloc(0) : Buffer.from(encodeDocument({ paths: adds.paths, definitions: adds.definitions }));
        return adds.proto;
      });
      this.v2Proto = encoded(pieces.length === 0 ? proto : Buffer.concat([proto, ...pieces]));
    }
    return this.v2Proto;
  }

  /** The v3 index and every group-version document, by index path (built on first use). */
  v3Docs(): { readonly index: Encoded; readonly byPath: ReadonlyMap<string, Encoded> } {
    if (this.v3 === undefined) {
      if (this.builtInV3 === undefined) {
        const builtIn = new Map<string, Encoded>();
        for (const gv of this.groupVersions()) builtIn.set(gv.key, encoded(Buffer.from(JSON.stringify(this.documents().v3(gv.routes())))));
        this.builtInV3 = builtIn;
      }
      const byPath = new Map(this.builtInV3);
      for (const key of this.crds.keys()) {
        if (byPath.has(key)) continue;
        let doc = this.crdV3.get(key);
        if (doc === undefined) {
          const versions = this.crds.groupVersion(key);
          doc = encoded(Buffer.from(JSON.stringify(this.documents().v3(versions.flatMap((v) => v.routes), componentsOf(versions)))));
          this.crdV3.set(key, doc);
        }
        byPath.set(key, doc);
      }
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const key of [...byPath.keys()].sort()) paths[key] = { serverRelativeURL: serverRelativeURL(key, byPath.get(key)!.hash) };
      this.v3 = { index: encoded(Buffer.from(JSON.stringify({ paths }))), byPath };
    }
    return this.v3;
  }

  /** The built-in v2 document in the pieces the published one is made of (built once). */
  private v2BuiltIn(): BuiltInV2 {
    if (this.builtInV2 === undefined) {
      const doc = this.documents().v2(this.groupVersions().flatMap((gv) => gv.routes()));
      this.builtInV2 = {
        texts: Object.entries(doc).map(([k, v]) => [k, JSON.stringify(v)] as const),
        paths: new Set(Object.keys(doc.paths as Json)),
        definitions: new Set(Object.keys(doc.definitions as Json)),
        doc,
      };
    }
    return this.builtInV2;
  }

  /** The custom resources' paths and definitions the built-in v2 document lacks. */
  private v2Additions(): V2Additions {
    if (this.v2Adds === undefined) {
      const paths: Json = {};
      const definitions: Json = {};
      for (const v of this.crds.all()) {
        const adds = this.versionAdditions(v);
        Object.assign(paths, adds.paths);
        Object.assign(definitions, adds.definitions);
      }
      this.v2Adds = { paths, definitions };
    }
    return this.v2Adds;
  }

  /** What one published version adds to /openapi/v2 (kept while the version is unchanged: CustomResourceSet keeps its object). */
  private versionAdditions(v: PublishedVersion): V2Additions & { proto?: Buffer } {
    let adds = this.perVersion.get(v);
    if (adds === undefined) {
      const builtIn = this.v2BuiltIn();
      const doc = this.documents().v2(v.routes, componentsOf([v]));
      const paths: Json = {};
      const definitions: Json = {};
      for (const [k, x] of Object.entries(doc.paths as Json)) if (!builtIn.paths.has(k)) paths[k] = x;
      for (const [k, x] of Object.entries(doc.definitions as Json)) if (!builtIn.definitions.has(k)) definitions[k] = x;
      this.perVersion.set(v, (adds = { paths, definitions }));
    }
    return adds;
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

/** The components of some published versions (a CRD's components are shared by both spellings of its group). */
function componentsOf(versions: readonly { readonly components: ReadonlyMap<string, ExtraComponent> }[]): Map<string, ExtraComponent> {
  const out = new Map<string, ExtraComponent>();
  for (const v of versions) for (const [id, c] of v.components) if (!out.has(id)) out.set(id, c);
  return out;
}

/** A JSON object's text with more members after its own (the text itself when there are none). */
function spliceObject(text: string, more: { readonly [key: string]: JsonValue }): string {
  if (Object.keys(more).length === 0) return text;
  const added = JSON.stringify(more);
  return text === '{}' ? added : `${text.slice(0, -1)},${added.slice(1)}`;
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
