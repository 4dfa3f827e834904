// Collections as JSON, written from the stored bytes: each item's JSON is
// spliced from its stored value (src/registry/encoded.ts servedJSON), not
// decoded and re-encoded, and the body goes out in pieces of about 64 KiB,
// waiting for the client when the connection's buffer is full and taking
// turns with other bulk work (src/server/bulklane.ts). A paged list
// is one page of one snapshot; an unpaged one streams storage chunks (or the
// watch cache's snapshot) item by item, so a list of 150,000 pods never
// becomes one string, one array of objects, or a buffer the client cannot drain.
import { timed } from '../metrics/latencytrackers.js';
import { auditResponseText, auditWantsResponse } from '../audit/record.js';
import { createGzip, type Gzip } from 'node:zlib';
import { endBody, GZIP_THRESHOLD_BYTES, shouldCompress } from '../server/compress.js';
import { connectionGone, drained } from '../server/drain.js';
import { bulkLane } from '../server/bulklane.js';
import type { ApiObject } from '../registry/object.js';
import type { GenericStore, ListEntry } from '../registry/store.js';
import type { ListPlan } from '../registry/listoptions.js';
import { writeServedJSON, writeServedJSONCached, type PieceSink } from '../registry/encoded.js';
import { countResponseBytes, type RequestContext } from '../server/context.js';

export interface ListJSONRequest {
  readonly store: GenericStore;
  readonly namespace: string;
  readonly plan: ListPlan;
  readonly predicate: ((obj: ApiObject) => boolean) | undefined;
  /** The list kind (`PodList`). */
  readonly kind: string;
  /** The request's API version spelling. */
  readonly apiVersion: string;
  /** Storage version → the request's version, for kinds served in several; absent: items are written as stored. */
  readonly convert?: (obj: ApiObject) => ApiObject;
  /**
   * Custom resources list as unstructured lists do: each item with its kind and apiVersion, and
   * the list's metadata with `continue` even when empty.
   */
  readonly unstructured?: { readonly kind: string };
}

/** The size of the pieces the body is written in. */
export const PIECE_BYTES = 64 * 1024;

/** Answers a list request whose response is JSON objects (the common case: kubectl, client-go, informers). */
export async function serveListJSON(ctx: RequestContext, r: ListJSONRequest): Promise<void> {
  // A list is bulk work from its start: it waits for its turn before reading anything.
  const turn = bulkLane.turn();
  if (turn) await turn;
  const item = itemWriter(r);
  const head = (metadata: Record<string, unknown>) => `{"kind":${JSON.stringify(r.kind)},"apiVersion":${JSON.stringify(r.apiVersion)},"metadata":${JSON.stringify(r.unstructured ? { continue: '', ...metadata } : metadata)},"items":[`;
  if (r.plan.limit > 0) {
    const page = await r.store.listEntries(r.namespace, { predicate: r.predicate, plan: r.plan, latency: ctx });
    const out = new BodyWriter(ctx);
    out.text(head({ resourceVersion: page.resourceVersion, ...(page.continue ? { continue: page.continue } : {}), ...(page.remainingItemCount ? { remainingItemCount: page.remainingItemCount } : {}) }));
    for (let i = 0; i < page.entries.length; i++) {
      if (i > 0) out.text(',');
      item(out, page.entries[i]!);
      if (out.pieceDone && !(await out.flush())) return;
    }
    out.text(']}');
    return out.end();
  }
  let out: BodyWriter | undefined;
  let first = true;
  for await (const chunk of r.store.scan(r.namespace, r.plan.mode, r.predicate, { keepDecoded: r.convert !== undefined, latency: ctx })) {
    if (!out) {
      out = new BodyWriter(ctx);
      out.text(head({ resourceVersion: String(chunk.revision) }));
    }
    for (const e of chunk.entries) {
      if (!first) out.text(',');
      first = false;
      item(out, e, chunk.cached === true);
      if (out.pieceDone && !(await out.flush())) return; // the client went away
    }
  }
  if (!out) throw new Error('a list scan yielded no chunk'); // scan always yields at least one
  out.text(']}');
  out.end();
}

/**
 * Writes an entry's JSON as a list item (no kind or apiVersion), spliced from its stored bytes when nothing converts
 * it; `cached`: the value is the watch cache's, whose layout is kept for the next list.
 */
function itemWriter(r: ListJSONRequest): (out: BodyWriter, e: ListEntry, cached?: boolean) => void {
  const convert = r.convert;
  const typeMeta = r.unstructured ? { kind: r.unstructured.kind, apiVersion: r.apiVersion } : undefined;
  const slow = (out: BodyWriter, e: ListEntry) => {
    const obj = e.obj ?? r.store.decode(e.kv);
    const { apiVersion: _a, kind: _k, ...rest } = convert ? convert(obj) : obj;
    out.text(JSON.stringify(typeMeta ? { ...typeMeta, ...rest } : rest));
  };
  if (convert) return slow;
  const form = typeMeta ? { typeMeta } : {};
  return (out, e, cached) => {
    const kv = e.kv;
    if (!(cached ? writeServedJSONCached(out, kv.value, kv.modRevision, form) : writeServedJSON(out, kv.value, String(kv.modRevision), form))) slow(out, e);
  };
}

/**
 * A response body built in ~64 KiB pieces: small bodies go out in one end()
 * (with a Content-Length on HTTP/1.1), large ones piece by piece, waiting for
 * the client to drain the connection. Items are copied once, into the piece.
 */
class BodyWriter implements PieceSink {
  private piece = takePiece();
  private at = 0;
  private ready: Buffer[] = [];
  /** Pieces held back before the encoding is chosen. */
  private held = 0;
  private closed = false;
  /** Whether the encoding is chosen: at the first write, once the body is past the gzip threshold or complete. */
  private decided = false;
  /** Set when the body goes out gzip-encoded (APIResponseCompression, src/server/compress.ts). */
  private gz: Gzip | undefined;
  /** The body's text, kept only when the audit policy wants the response (RequestResponse). */
  private readonly audited: string[] | undefined;

  constructor(private readonly ctx: RequestContext) {
    this.audited = auditWantsResponse(ctx) ? [] : undefined;
    const res = ctx.res;
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.once('close', () => {
      this.closed = true;
      this.gz?.destroy();
    });
    this.closed = connectionGone(res);
  }

  /** Whether a piece was completed since the last flush (time to write what can be written and take a turn). */
  get pieceDone(): boolean {
    return this.ready.length > this.held;
  }

  /** Whether the pieces can be written: the encoding is chosen, or the body is past the gzip threshold and now can be. */
  private get writable(): boolean {
    return this.decided || this.ready.length * PIECE_BYTES > GZIP_THRESHOLD_BYTES;
  }

  text(s: string): void {
    if (s.length * 3 <= PIECE_BYTES - this.at) {
      this.audited?.push(s);
      this.at += this.piece.write(s, this.at);
    } else {
      const b = Buffer.from(s);
      this.bytes(b, 0, b.length);
    }
  }

  bytes(b: Buffer, start: number, end: number): void {
    this.audited?.push(b.toString('utf8', start, end));
    while (start < end) {
      const n = Math.min(end - start, PIECE_BYTES - this.at);
      b.copy(this.piece, this.at, start, start + n);
      this.at += n;
      start += n;
      if (this.at === PIECE_BYTES) {
        this.ready.push(this.piece);
        this.piece = takePiece();
        this.at = 0;
      }
    }
  }

  /** Writes the pieces that are ready, waiting while the connection's buffer is full; false once the client has gone away. */
  async flush(): Promise<boolean> {
    if (!this.writable) {
      // the first pieces are held (to choose the encoding) but the writer still takes turns
      this.held = this.ready.length;
      const turn = bulkLane.turn();
      if (turn) await turn;
      return !this.closed;
    }
    if (!this.decided) this.decide(this.ready.length * PIECE_BYTES);
    this.held = 0;
    const res = this.gz ?? this.ctx.res;
    for (const piece of this.ready.splice(0)) {
      if (this.closed) return false;
      countResponseBytes(this.ctx, piece);
      // Once written out, the piece serves the next body (a walk of 50,000 pods writes hundreds of MiB).
      const written = timed(this.ctx, 'responseWriteMs', () => (res as unknown as { write(chunk: Buffer, done: (err?: Error | null) => void): boolean }).write(piece, (err) => !err && givePiece(piece)));
      if (!written && !this.closed) await drained(res, this.ctx.res);
    }
    // the next piece waits for a bulk turn once this one has had its slice of the loop
    const turn = bulkLane.turn();
    if (turn) await turn;
    return !this.closed;
  }

  end(): void {
    if (this.closed || this.ctx.res.writableEnded) return;
    if (this.audited) auditResponseText(this.ctx, this.audited.join(''));
    timed(this.ctx, 'responseWriteMs', () => this.writeRest());
  }

  /** The pieces not written yet, and the last one, ending the response. */
  private writeRest(): void {
    const last = this.piece.subarray(0, this.at);
    // A body that never needed a flush goes out in one piece (gzip-encoded if large enough).
    if (!this.decided) return endBody(this.ctx, this.ready.length === 0 ? Buffer.from(last) : Buffer.concat([...this.ready.splice(0), last]));
    const res = this.gz ?? this.ctx.res;
    for (const piece of this.ready.splice(0)) {
      countResponseBytes(this.ctx, piece);
      res.write(piece);
    }
    countResponseBytes(this.ctx, last);
    res.end(last);
  }

  private decide(size: number): void {
    this.decided = true;
    if (!shouldCompress(this.ctx, size)) return;
    const res = this.ctx.res;
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Vary', 'Accept-Encoding');
    this.gz = createGzip();
    this.gz.pipe(res as unknown as NodeJS.WritableStream);
  }
}

const freePieces: Buffer[] = [];

function takePiece(): Buffer {
  return freePieces.pop() ?? Buffer.allocUnsafe(PIECE_BYTES);
}

function givePiece(piece: Buffer): void {
  if (freePieces.length < 16) freePieces.push(piece);
}
