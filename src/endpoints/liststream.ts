// Collections as JSON, written from the stored bytes: each item's JSON is
// spliced from its stored value (src/registry/encoded.ts servedJSON), not
// decoded and re-encoded, and the body goes out in pieces of about 64 KiB,
// waiting for the client when the connection's buffer is full. A paged list
// is one page of one snapshot; an unpaged one streams storage chunks (or the
// watch cache's snapshot) item by item, so a list of 150,000 pods never
// becomes one string, one array of objects, or a buffer the client cannot drain.
import type { ApiObject } from '../registry/object.js';
import type { GenericStore, ListEntry } from '../registry/store.js';
import type { ListPlan } from '../registry/listoptions.js';
import { servedJSON } from '../registry/encoded.js';
import type { RequestContext } from '../server/context.js';

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
}

/** The size of the pieces the body is written in. */
export const PIECE_BYTES = 64 * 1024;

/** Answers a list request whose response is JSON objects (the common case: kubectl, client-go, informers). */
export async function serveListJSON(ctx: RequestContext, r: ListJSONRequest): Promise<void> {
  const item = itemWriter(r);
  const head = (metadata: Record<string, unknown>) => `{"kind":${JSON.stringify(r.kind)},"apiVersion":${JSON.stringify(r.apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
  if (r.plan.limit > 0) {
    const page = await r.store.listEntries(r.namespace, { predicate: r.predicate, plan: r.plan });
    const out = new BodyWriter(ctx);
    out.add(head({ resourceVersion: page.resourceVersion, ...(page.continue ? { continue: page.continue } : {}), ...(page.remainingItemCount ? { remainingItemCount: page.remainingItemCount } : {}) }));
    for (let i = 0; i < page.entries.length; i++) {
      if (i > 0) out.add(',');
      out.add(item(page.entries[i]!));
      if (out.full && !(await out.flush())) return;
    }
    out.add(']}');
    return out.end();
  }
  let out: BodyWriter | undefined;
  let first = true;
  for await (const chunk of r.store.scan(r.namespace, r.plan.mode, r.predicate)) {
    if (!out) {
      out = new BodyWriter(ctx);
      out.add(head({ resourceVersion: String(chunk.revision) }));
    }
    for (const e of chunk.entries) {
      if (!first) out.add(',');
      first = false;
      out.add(item(e));
      if (out.full && !(await out.flush())) return; // the client went away
    }
  }
  if (!out) throw new Error('a list scan yielded no chunk'); // scan always yields at least one
  out.add(']}');
  out.end();
}

/** An entry's JSON as a list item (no kind or apiVersion), spliced from its stored bytes when nothing converts it. */
function itemWriter(r: ListJSONRequest): (e: ListEntry) => Buffer | string {
  const convert = r.convert;
  const slow = (e: ListEntry) => {
    const obj = e.obj ?? r.store.decode(e.kv);
    const { apiVersion: _a, kind: _k, ...rest } = convert ? convert(obj) : obj;
    return JSON.stringify(rest);
  };
  if (convert) return slow;
  return (e) => servedJSON(e.kv.value, String(e.kv.modRevision)) ?? slow(e);
}

/**
 * A response body written in pieces: small bodies go out in one end() (with
 * a Content-Length on HTTP/1.1), large ones in ~64 KiB writes that wait for
 * the client to drain the connection.
 */
class BodyWriter {
  private parts: Buffer[] = [];
  private size = 0;
  private closed = false;
  private wake: (() => void) | undefined;

  constructor(private readonly ctx: RequestContext) {
    const res = ctx.res;
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.once('close', () => {
      this.closed = true;
      this.wake?.();
    });
    this.closed = connectionGone(res);
  }

  get full(): boolean {
    return this.size >= PIECE_BYTES;
  }

  add(part: Buffer | string): void {
    const b = typeof part === 'string' ? Buffer.from(part) : part;
    this.parts.push(b);
    this.size += b.length;
  }

  /** Writes what was added, then waits while the connection's buffer is full; false once the client has gone away. */
  async flush(): Promise<boolean> {
    const res = this.ctx.res;
    if (this.closed) return false;
    if (!res.write(this.take()) && !this.closed) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        res.once('drain', resolve);
      });
      res.off('drain', this.wake!);
      this.wake = undefined;
    }
    return !this.closed;
  }

  end(): void {
    if (this.closed || this.ctx.res.writableEnded) return;
    this.ctx.res.end(this.take());
  }

  private take(): Buffer {
    const piece = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    return piece;
  }
}

/** Whether the response can no longer be written (the client went away before the body started). */
function connectionGone(res: unknown): boolean {
  const r = res as { destroyed?: boolean; stream?: { destroyed?: boolean } };
  return r.destroyed === true || r.stream?.destroyed === true;
}
