// Watch over HTTP: chunked newline-delimited JSON events (ADDED, MODIFIED,
// DELETED, BOOKMARK, ERROR), started per the spec's watch table — unset or
// "0": synthetic ADDED for every existing object, then changes; a revision:
// the changes after it only — with selectors (an object leaving a selector is
// DELETED, one entering it ADDED), timeoutSeconds, and bookmarks.
//
// Fan-out: events come from the watch cache, the same event objects for every
// watcher of a resource. An event's line (`{"type":…,"object":…}\n`) is made
// once per type and API version, spliced from the stored bytes
// (registry/encoded.ts), and the same Buffer is written to every watcher that
// wants it; a watcher gets one write per batch of events.
//
// Slow clients: unsent output is counted per watch and for all of a server's
// watches (WatchBudget). A watch past its own cap, or the slowest watches
// when the total passes the server's cap, are closed and their unsent output
// dropped, as Kubernetes terminates unresponsive watchers; clients resume
// from their last resourceVersion.
import { newResourceExpired, statusFromUnknown } from '../api/meta/index.js';
import type { KeyValue, WatchEvent, WatchHandle } from '../storage/interface.js';
import { isStorageError } from '../storage/errors.js';
import type { GenericStore, ListEntry } from '../registry/store.js';
import { withTypeMeta, type ApiObject } from '../registry/object.js';
import { planWatch } from '../registry/listoptions.js';
import { onceThisTurn, servedJSON } from '../registry/encoded.js';
import { encodeWatchFrame } from '../protobuf/index.js';
import { connectionGone, drained } from '../server/drain.js';
import { bulkLane } from '../server/bulklane.js';
import type { RequestContext } from '../server/context.js';
import { writeError } from '../server/respond.js';
import { watchEventRecorderFor } from '../metrics/apiserver.js';
import { queryBool } from './requestinfo.js';
import { WatchBudget, type BudgetedWatch } from './watchbudget.js';

export interface WatchSettings {
  /** How often BOOKMARK events are sent when the client allows them (Kubernetes: about a minute). */
  readonly bookmarkIntervalMs: number;
  /** Without timeoutSeconds, a watch ends after a random time in [min, 2·min] (Kubernetes: 30–60 min). */
  readonly minTimeoutMs: number;
  /** A client this far behind is disconnected rather than buffered without bound. */
  readonly maxBufferedBytes: number;
  /** Unsent output of all of a server's watches together; past it the slowest watches are closed. */
  readonly maxTotalBufferedBytes: number;
  /** The WatchList feature gate: sendInitialEvents is accepted only when on. */
  readonly watchList: boolean;
}

export const DEFAULT_WATCH_SETTINGS: WatchSettings = { bookmarkIntervalMs: 60_000, minTimeoutMs: 1_800_000, maxBufferedBytes: 64 << 20, maxTotalBufferedBytes: 256 << 20, watchList: false };

/**
 * The annotation on the BOOKMARK that ends the initial events of a
 * sendInitialEvents watch: ours, and the spelling stock clients (client-go's
 * reflector) look for.
 */
export const INITIAL_EVENTS_END_ANNOTATIONS: Readonly<Record<string, string>> = { 'svc.io/initial-events-end': 'true', 'k8s.io/initial-events-end': 'true' };

export interface WatchRequest {
  readonly store: GenericStore;
  readonly namespace: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly predicate: ((obj: ApiObject) => boolean) | undefined;
  readonly settings: WatchSettings;
  /** A conversion of each event's object (Table, PartialObjectMetadata); absent: the object itself. */
  readonly render?: (obj: ApiObject) => unknown;
  /** The stream's Content-Type (default application/json). */
  readonly contentType?: string;
  /** Protobuf frames (4-byte length + WatchEvent) instead of JSON lines; contentType is then `<type>;stream=watch`. */
  readonly protobuf?: boolean;
  /** Storage version → the request's version, for kinds served in several (src/endpoints/versioning.ts). */
  readonly convert?: (obj: ApiObject) => ApiObject;
  /**
   * The same, asynchronous (a custom resource's conversion webhook): each batch of events is
   * converted in one call before its lines are written, in order; a failed conversion ends the
   * watch with an ERROR event carrying the failure.
   */
  readonly convertMany?: (objs: ApiObject[]) => Promise<ApiObject[]>;
}

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** Initial events are written in pieces of about this size, each after the client took the previous one. */
const INITIAL_PIECE_BYTES = 64 * 1024;

/** Changes held for a watch still taking its initial events, past which it is closed. */
const MAX_PENDING_EVENTS = 100_000;

const budgets = new WeakMap<WatchSettings, WatchBudget>();

/** The budget shared by every watch served with these settings (one server's). */
export function budgetFor(settings: WatchSettings): WatchBudget {
  let b = budgets.get(settings);
  if (!b) budgets.set(settings, (b = new WatchBudget(settings.maxBufferedBytes, settings.maxTotalBufferedBytes)));
  return b;
}

// ---------------------------------------------------------------------------

export async function serveWatch(ctx: RequestContext, w: WatchRequest): Promise<void> {
  const q = ctx.url.searchParams;
  const plan = planWatch(q, w.settings.watchList);
  const bookmarks = queryBool(q, 'allowWatchBookmarks');
  const timeoutText = q.get('timeoutSeconds');
  const timeoutMs = timeoutText && /^\d+$/.test(timeoutText) && Number(timeoutText) > 0
    ? Number(timeoutText) * 1000
    : w.settings.minTimeoutMs * (1 + Math.random());
  const encode = (type: EventType, obj: unknown): string | Buffer =>
    w.protobuf ? (encodeWatchFrame(type, obj as Record<string, unknown>) ?? Buffer.alloc(0)) : `${JSON.stringify({ type, object: obj })}\n`;
  const { convert, convertMany, render, predicate } = w;
  const typeMeta = { kind: w.kind, apiVersion: w.apiVersion };
  // apiserver_watch_events_total and _sizes: every event line or frame this watch sends.
  const sent = watchEventRecorderFor(w.apiVersion, w.kind);
  /** Stored values converted ahead by convertMany, for the batch being written. */
  const ahead = new Map<KeyValue, ApiObject>();
  const decoded = (kv: KeyValue): ApiObject => ahead.get(kv) ?? w.store.decode(kv);
  const typed = (o: ApiObject) => withTypeMeta(convert ? convert(o) : o, w.apiVersion, w.kind);
  const converting = Boolean(convert || convertMany);
  /** Converts the values through convertMany (every value when some are deleted objects at other revisions). */
  const convertAhead = async (kvs: KeyValue[]): Promise<void> => {
    if (!convertMany || kvs.length === 0) return;
    const objs = await convertMany(kvs.map((kv) => w.store.decode(kv)));
    kvs.forEach((kv, i) => ahead.set(kv, objs[i]!));
  };

  // Where to start: the state read per the plan's mode, or the changes after a revision.
  let initial: ListEntry[] = [];
  let from: number;
  if (plan.start === 'state') {
    const list = await w.store.listEntries(w.namespace, { predicate, plan: { mode: plan.mode, limit: 0, continuing: false } });
    initial = list.entries;
    from = Number(list.resourceVersion);
  } else {
    from = plan.revision === 'now' ? await w.store.currentRevision() : plan.revision;
  }
  const initialEventsEnd = plan.start === 'state' && plan.initialEventsEnd && bookmarks;

  const res = ctx.res;
  const out = bodyOf(res);
  const unsent = () => out.writableLength;
  let closed = false;
  let handle: WatchHandle | undefined;
  let lastRevision = from;
  const timers: NodeJS.Timeout[] = [];
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  const budget = budgetFor(w.settings);
  let unsubscribe: (() => void) | undefined;
  const stop = () => {
    if (closed) return false;
    closed = true;
    done();
    unsubscribe?.();
    handle?.close();
    for (const t of timers) clearTimeout(t);
    budget.remove(me);
    return true;
  };
  const finish = () => {
    if (stop() && !res.writableEnded) res.end();
  };
  // Closed by the budget: what is buffered is dropped (ending cleanly would keep it until sent).
  const me: BudgetedWatch = { buffered: 0, name: ctx.req.url ?? '', close: () => stop() && (res as unknown as { destroy(): void }).destroy() };
  let draining = false;
  const onDrain = () => {
    draining = false;
    budget.update(me, unsent());
  };
  const send = (chunk: Buffer | string) => {
    if (closed) return;
    if (out.write(chunk)) return;
    // Over the stream's high-water mark: count what waits until the client takes it.
    if (!draining) {
      draining = true;
      out.once('drain', onDrain);
    }
    budget.update(me, unsent());
  };
  const sendEvent = (chunk: Buffer | string) => {
    sent.record(typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length);
    send(chunk);
  };
  const bookmark = (annotations?: Record<string, string>) =>
    sendEvent(encode('BOOKMARK', { kind: w.kind, apiVersion: w.apiVersion, metadata: { resourceVersion: String(lastRevision), ...(annotations ? { annotations } : {}) } }));

  // An event's object as this watch shows it: the new state, or the old one at the event's revision (DELETED).
  const objectOf = (e: WatchEvent, which: 'new' | 'old'): ApiObject => {
    if (which === 'new') return typed(decoded((e as { kv: KeyValue }).kv));
    const old = decoded((e as { prev: KeyValue }).prev); // a fresh decode, or this watch's own conversion
    old.metadata.resourceVersion = String(e.revision);
    return typed(old);
  };
  // Selectors see each stored version decoded once per turn, shared by the watchers that test it.
  const selected = (e: WatchEvent, which: 'new' | 'old'): boolean => {
    if (!predicate) return true;
    const kv = which === 'new' ? (e as { kv: KeyValue }).kv : (e as { prev: KeyValue }).prev;
    return predicate(onceThisTurn(kv, 'decoded', () => w.store.decode(kv)));
  };
  const variant = (type: EventType, which: 'new' | 'old') => `${type}\u0000${which}\u0000${w.kind}\u0000${w.apiVersion}`;
  const variants = { ADDED: variant('ADDED', 'new'), MODIFIED: variant('MODIFIED', 'new'), DELETED: variant('DELETED', 'old') };
  const line = (type: EventType, json: string) => Buffer.from(`{"type":"${type}","object":${json}}\n`);
  // An event's line: rendered per watcher (Table, PartialObjectMetadata), else made once per turn
  // for every watcher of this kind and API version (the conversion, if any, follows from them).
  const frame = (type: 'ADDED' | 'MODIFIED' | 'DELETED', e: WatchEvent, which: 'new' | 'old'): Buffer => {
    if (w.protobuf) {
      const make = () => encode(type, render ? render(objectOf(e, which)) : objectOf(e, which)) as Buffer;
      return render ? make() : onceThisTurn(e, `pb\u0000${which === 'new' ? variants[type] : variants.DELETED}`, make);
    }
    if (render) return line(type, JSON.stringify(render(objectOf(e, which))));
    return onceThisTurn(e, which === 'new' ? variants[type] : variants.DELETED, () => {
      if (!converting) {
        const kv = which === 'new' ? (e as { kv: KeyValue }).kv : (e as { prev: KeyValue }).prev;
        const spliced = servedJSON(kv.value, String(which === 'new' ? kv.modRevision : e.revision), { typeMeta, before: `{"type":"${type}","object":`, after: '}\n' });
        if (spliced) return spliced;
      }
      return line(type, JSON.stringify(objectOf(e, which)));
    });
  };
  const initialFrame = (entry: ListEntry): Buffer => {
    const obj = () => ahead.get(entry.kv) ?? entry.obj ?? w.store.decode(entry.kv);
    if (w.protobuf) return encode('ADDED', render ? render(typed(obj())) : typed(obj())) as Buffer;
    if (render) return line('ADDED', JSON.stringify(render(typed(obj()))));
    const spliced = converting ? null : servedJSON(entry.kv.value, String(entry.kv.modRevision), { typeMeta, before: '{"type":"ADDED","object":', after: '}\n' });
    return spliced ?? line('ADDED', JSON.stringify(typed(obj())));
  };

  // Changes that arrive while the initial state is being written; a client too slow to take
  // the state before MAX_PENDING_EVENTS more changes arrive is closed like any slow watcher.
  const pending: (readonly WatchEvent[])[] = [];
  let pendingEvents = 0;
  const hold = (events: readonly WatchEvent[]) => {
    pending.push([...events]);
    pendingEvents += events.length;
    if (pendingEvents > MAX_PENDING_EVENTS && !closed) {
      console.error(`svc: closing the watch ${me.name} as unresponsive: ${pendingEvents} changes arrived while it was still taking its initial events; its client resumes from its last resourceVersion`);
      me.close();
    }
  };
  let started = false;
  // The line an event puts on this watch, if any (selectors turn updates into ADDED or DELETED).
  const lineFor = (e: WatchEvent): Buffer | undefined => {
    lastRevision = e.revision;
    if (e.type === 'create') return selected(e, 'new') ? frame('ADDED', e, 'new') : undefined;
    if (e.type === 'delete') return selected(e, 'old') ? frame('DELETED', e, 'old') : undefined;
    const now = selected(e, 'new');
    const was = selected(e, 'old');
    if (now) return frame(was ? 'MODIFIED' : 'ADDED', e, 'new');
    return was ? frame('DELETED', e, 'old') : undefined;
  };
  // One write per batch of events.
  const deliver = (events: readonly WatchEvent[]) => {
    if (events.length === 1) {
      const one = lineFor(events[0]!);
      if (one) sendEvent(one);
      return;
    }
    const lines: Buffer[] = [];
    for (const e of events) {
      const l = lineFor(e);
      if (l) {
        sent.record(l.length);
        lines.push(l);
      }
    }
    if (lines.length > 0) send(lines.length === 1 ? lines[0]! : Buffer.concat(lines));
  };

  // With an asynchronous conversion, batches are converted and written one after the other.
  let converted = Promise.resolve();
  const valuesOf = (events: readonly WatchEvent[]): KeyValue[] => events.flatMap((e) =>
    e.type === 'create' ? [e.kv] : e.type === 'delete' ? [e.prev] : [(e as { kv: KeyValue }).kv, (e as { prev: KeyValue }).prev]);
  const failConversion = (err: unknown) => {
    sendEvent(encode('ERROR', statusFromUnknown(err)));
    finish();
  };
  const deliverConverted = (events: readonly WatchEvent[]) => {
    converted = converted.then(async () => {
      if (closed) return;
      const kvs = valuesOf(events);
      try {
        await convertAhead(kvs);
      } catch (err) {
        return failConversion(err);
      }
      deliver(events);
      for (const kv of kvs) ahead.delete(kv);
    });
  };
  const live = convertMany ? deliverConverted : deliver;

  try {
    handle = await w.store.watchStorage(w.namespace, from, {
      onEvents: (events) => (started ? live(events) : hold(events)),
      onError: (err) => {
        const status = isStorageError(err, 'Compacted')
          ? newResourceExpired(`too old resource version: ${from} (${err.revision})`).status
          : statusFromUnknown(err);
        sendEvent(encode('ERROR', status));
        finish();
      },
    });
  } catch (err) {
    if (isStorageError(err, 'Compacted')) throw newResourceExpired(`too old resource version: ${from} (${err.revision})`);
    throw err;
  }

  res.statusCode = 200;
  res.setHeader('Content-Type', w.contentType ?? 'application/json');
  res.setHeader('Cache-Control', 'no-cache, private');
  ctx.req.once('close', finish);
  res.once('close', finish);
  budget.add(me);
  unsubscribe = ctx.closing?.onBegin(finish);
  // a client gone before the listeners above (while the state was read) sent its 'close' unheard
  if (connectionGone(res)) finish();
  if (closed) return;
  // Send the headers now, before any event, so the client knows the watch started.
  const r = res as unknown as { writeHead?: (code: number) => void; flushHeaders?: () => void };
  if (!res.headersSent) r.writeHead?.(200);
  r.flushHeaders?.();

  // The initial state in pieces, each once the client took the previous one; live events wait in `pending`.
  if (convertMany) {
    try {
      await convertAhead(initial.map((e) => e.kv));
    } catch (err) {
      failConversion(err);
      return;
    }
  }
  let piece: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < initial.length && !closed; i++) {
    const b = initialFrame(initial[i]!);
    sent.record(b.length);
    piece.push(b);
    size += b.length;
    if (size >= INITIAL_PIECE_BYTES || i === initial.length - 1) {
      const ok = out.write(Buffer.concat(piece, size));
      piece = [];
      size = 0;
      if (!ok && !closed) await drained(out, res);
      const turn = bulkLane.turn(); // initial events are bulk work: other requests get their turn between pieces
      if (turn) await turn;
    }
  }
  initial = [];
  ahead.clear();
  if (closed) return;
  if (initialEventsEnd) bookmark({ ...INITIAL_EVENTS_END_ANNOTATIONS }); // lastRevision is still the state's revision here
  started = true;
  for (const batch of pending.splice(0)) live(batch);

  if (bookmarks) {
    const tick = () => {
      if (closed) return;
      bookmark(undefined);
      timers.push(setTimeout(tick, w.settings.bookmarkIntervalMs));
    };
    timers.push(setTimeout(tick, w.settings.bookmarkIntervalMs));
  }
  timers.push(
    setTimeout(() => {
      if (bookmarks) bookmark(undefined); // so a client resuming from here gets no 410
      finish();
    }, timeoutMs),
  );
  await ended;
}

/** What event bytes are written to. */
interface Body {
  readonly writableLength: number;
  write(chunk: Buffer | string): boolean;
  once(event: 'drain', fn: () => void): unknown;
  off(event: 'drain', fn: () => void): unknown;
}

/**
 * The response body, or for HTTP/2 its stream: once the headers are sent,
 * writing to the stream skips the compatibility layer's per-write work (an
 * event goes to every watcher, so that work counts).
 */
function bodyOf(res: RequestContext['res']): Body {
  return (res as unknown as { stream?: Body }).stream ?? (res as unknown as Body);
}

export { writeError };
