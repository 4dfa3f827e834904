// Watch over HTTP: chunked newline-delimited JSON events (ADDED, MODIFIED,
// DELETED, BOOKMARK, ERROR), started per the spec's watch table — unset or
// "0": synthetic ADDED for every existing object, then changes; a revision:
// the changes after it only — with selectors (an object leaving a selector is
// DELETED, one entering it ADDED), timeoutSeconds, and bookmarks.
//
// Events come from the storage watch (the watch cache will sit in front of it).
import { newResourceExpired, statusFromUnknown } from '../api/meta/index.js';
import type { KeyValue, WatchEvent, WatchHandle } from '../storage/interface.js';
import { isStorageError } from '../storage/errors.js';
import type { GenericStore } from '../registry/store.js';
import { withTypeMeta, type ApiObject } from '../registry/object.js';
import { planWatch } from '../registry/listoptions.js';
import { textOnce } from '../registry/encoded.js';
import type { RequestContext } from '../server/context.js';
import { writeError } from '../server/respond.js';
import { queryBool } from './requestinfo.js';

export interface WatchSettings {
  /** How often BOOKMARK events are sent when the client allows them (Kubernetes: about a minute). */
  readonly bookmarkIntervalMs: number;
  /** Without timeoutSeconds, a watch ends after a random time in [min, 2·min] (Kubernetes: 30–60 min). */
  readonly minTimeoutMs: number;
  /** A client this far behind is disconnected rather than buffered without bound. */
  readonly maxBufferedBytes: number;
  /** The WatchList feature gate: sendInitialEvents is accepted only when on. */
  readonly watchList: boolean;
}

export const DEFAULT_WATCH_SETTINGS: WatchSettings = { bookmarkIntervalMs: 60_000, minTimeoutMs: 1_800_000, maxBufferedBytes: 64 << 20, watchList: false };

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
}

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * Every watcher of a resource receives the same event objects from the watch
 * cache; the JSON of an event's object is computed once per API version (the
 * request's group spelling) and shared by all of them.
 */
function objectJson(e: WatchEvent, which: 'new' | 'old', apiVersion: string, make: () => unknown): string {
  return textOnce(e, `${which}\u0000${apiVersion}`, () => JSON.stringify(make()));
}

export async function serveWatch(ctx: RequestContext, w: WatchRequest): Promise<void> {
  const q = ctx.url.searchParams;
  const plan = planWatch(q, w.settings.watchList);
  const bookmarks = queryBool(q, 'allowWatchBookmarks');
  const timeoutText = q.get('timeoutSeconds');
  const timeoutMs = timeoutText && /^\d+$/.test(timeoutText) && Number(timeoutText) > 0
    ? Number(timeoutText) * 1000
    : w.settings.minTimeoutMs * (1 + Math.random());
  const matches = (o: ApiObject) => !w.predicate || w.predicate(o);
  const encode = (type: EventType, obj: unknown) => `${JSON.stringify({ type, object: obj })}\n`;
  const typed = (o: ApiObject) => withTypeMeta(o, w.apiVersion, w.kind);
  const render = w.render;
  const view = (o: ApiObject) => (render ? render(typed(o)) : typed(o));

  // Where to start: the state read per the plan's mode, or the changes after a revision.
  let initial: ApiObject[] = [];
  let from: number;
  if (plan.start === 'state') {
    const list = await w.store.list(w.namespace, { predicate: w.predicate, plan: { mode: plan.mode, limit: 0, continuing: false } });
    initial = list.items;
    from = Number(list.resourceVersion);
  } else {
    from = plan.revision === 'now' ? await w.store.currentRevision() : plan.revision;
  }
  const initialEventsEnd = plan.start === 'state' && plan.initialEventsEnd && bookmarks;

  const res = ctx.res;
  let closed = false;
  let handle: WatchHandle | undefined;
  let lastRevision = from;
  const timers: NodeJS.Timeout[] = [];
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  const finish = () => {
    if (closed) return;
    closed = true;
    done();
    handle?.close();
    for (const t of timers) clearTimeout(t);
    if (!res.writableEnded) res.end();
  };
  let buffered = 0;
  const send = (chunk: string) => {
    if (closed) return;
    buffered += chunk.length;
    if (!res.write(chunk)) {
      if (buffered > w.settings.maxBufferedBytes) {
        console.error(`svc: closing a watch that fell ${buffered} bytes behind (${ctx.req.url})`);
        finish();
      }
    } else buffered = 0;
  };
  const bookmark = (annotations?: Record<string, string>) =>
    send(encode('BOOKMARK', { kind: w.kind, apiVersion: w.apiVersion, metadata: { resourceVersion: String(lastRevision), ...(annotations ? { annotations } : {}) } }));

  const pending: WatchEvent[][] = [];
  let started = false;
  const line = (type: EventType, json: string) => `{"type":"${type}","object":${json}}\n`;
  // Objects are decoded only when a selector needs them or the JSON is not yet shared.
  const current = (e: WatchEvent & { kv: KeyValue }) => () => typed(w.store.decode(e.kv));
  const previous = (e: WatchEvent) => () => {
    const old = w.store.decode((e as { prev: KeyValue }).prev);
    old.metadata.resourceVersion = String(e.revision);
    return typed(old);
  };
  // Plain objects share one JSON per event and API version; conversions are rendered per watcher.
  const json = (e: WatchEvent, which: 'new' | 'old') => {
    const make = which === 'new' ? current(e as WatchEvent & { kv: KeyValue }) : previous(e);
    return render ? JSON.stringify(render(make())) : objectJson(e, which, w.apiVersion, make);
  };
  const deliver = (events: readonly WatchEvent[]) => {
    for (const e of events) {
      lastRevision = e.revision;
      if (e.type === 'create') {
        if (!w.predicate || matches(w.store.decode(e.kv))) send(line('ADDED', json(e, 'new')));
      } else if (e.type === 'update') {
        const now = !w.predicate || matches(w.store.decode(e.kv));
        const was = !w.predicate || matches(w.store.decode(e.prev));
        if (now && was) send(line('MODIFIED', json(e, 'new')));
        else if (now) send(line('ADDED', json(e, 'new')));
        else if (was) send(line('DELETED', json(e, 'old')));
      } else if (!w.predicate || matches(w.store.decode(e.prev))) {
        send(line('DELETED', json(e, 'old')));
      }
    }
  };

  try {
    handle = await w.store.watchStorage(w.namespace, from, {
      onEvents: (events) => (started ? deliver(events) : pending.push([...events])),
      onError: (err) => {
        const status = isStorageError(err, 'Compacted')
          ? newResourceExpired(`too old resource version: ${from} (${err.revision})`).status
          : statusFromUnknown(err);
        send(encode('ERROR', status));
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
  started = true;
  for (const o of initial) send(encode('ADDED', view(o)));
  if (initialEventsEnd) bookmark({ ...INITIAL_EVENTS_END_ANNOTATIONS }); // lastRevision is still the state's revision here
  for (const batch of pending.splice(0)) deliver(batch);
  // Send the headers now, before any event, so the client knows the watch started.
  const r = res as unknown as { writeHead?: (code: number) => void; flushHeaders?: () => void };
  if (!res.headersSent) r.writeHead?.(200);
  r.flushHeaders?.();

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

export { writeError };
