// An informer over HTTPS (client-go's reflector + store, small): a paged
// list, then a watch from the list's resourceVersion with bookmarks; a watch
// that ends is started again from the last version seen, one answered 410
// Gone (or failing) relists after a second, and a relist reconciles: what is
// missing is delivered as deleted, what changed as updated.
import { isObject, type ApiObject } from '../../registry/object.js';
import type { ResourceHandler } from '../../controllers/shared.js';
import type { ObjectCache } from '../api.js';
import type { ApiHttp } from '../../client/http.js';

const PAGE = 500;
const RETRY_MS = 1000;

export class RemoteInformer implements ObjectCache {
  private readonly objects = new Map<string, ApiObject>();
  private readonly handlers: ResourceHandler[] = [];
  private started: Promise<void> | undefined;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private watch: { close(): void } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private resourceVersion = '';

  /**
   * `path` is the collection (e.g. /api/v1/pods); `selector` extra query
   * (labelSelector=…, fieldSelector=…), or ''; `who` names the user in messages.
   */
  constructor(private readonly http: ApiHttp, private readonly path: string, private readonly selector = '', private readonly who = 'simulated nodes') {}

  get(namespace: string, name: string): ApiObject | undefined {
    return this.objects.get(`${namespace}/${name}`);
  }

  list(): ApiObject[] {
    return [...this.objects.values()];
  }

  addHandler(h: ResourceHandler): void {
    this.handlers.push(h);
    if (h.onAdd) for (const o of this.objects.values()) h.onAdd(o);
  }

  start(): Promise<void> {
    this.started ??= this.relist();
    return this.started;
  }

  waitForSync(): Promise<void> {
    return this.synced ? Promise.resolve() : new Promise((r) => this.syncWaiters.push(r));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.watch?.close();
  }

  private query(extra: string): string {
    return `${this.path}?${[this.selector, extra].filter(Boolean).join('&')}`;
  }

  private async relist(): Promise<void> {
    const items: ApiObject[] = [];
    let cont = '';
    let rv = '';
    do {
      const page = await this.http.json('GET', this.query(`limit=${PAGE}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`));
      const meta = isObject(page.metadata) ? page.metadata : {};
      if (Array.isArray(page.items)) items.push(...(page.items as ApiObject[]));
      cont = typeof meta.continue === 'string' ? meta.continue : '';
      if (!rv) rv = typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '';
    } while (cont);
    if (this.stopped) return;
    this.replace(items);
    this.resourceVersion = rv;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
    this.startWatch();
  }

  private startWatch(): void {
    if (this.stopped) return;
    this.watch = this.http.stream(this.query(`watch=true&allowWatchBookmarks=true&resourceVersion=${this.resourceVersion}`), (line) => this.event(line), (err) => {
      if (this.stopped) return;
      // a clean end (the server's watch timeout): go on from the last version; otherwise relist
      if (!err && this.resourceVersion) return this.startWatch();
      this.later(() => this.relist());
    });
  }

  private later(fn: () => Promise<void>): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void fn().catch((e) => {
      console.error(`${this.who}: listing ${this.path} failed (${(e as Error).message}); again in a second`);
      this.later(fn);
    }), RETRY_MS);
    this.timer.unref();
  }

  private event(line: string): void {
    let e: { type?: string; object?: ApiObject & { code?: number } };
    try {
      e = JSON.parse(line);
    } catch {
      return;
    }
    const obj = e.object;
    if (!obj) return;
    if (e.type === 'ERROR') {
      // 410 Gone and other watch errors: relist (the stream's end does it)
      this.resourceVersion = '';
      this.watch?.close();
      this.later(() => this.relist());
      return;
    }
    if (obj.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
    if (e.type === 'BOOKMARK') return;
    if (e.type === 'DELETED') this.remove(obj);
    else this.put(obj);
  }

  private replace(items: readonly ApiObject[]): void {
    const seen = new Set(items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`));
    for (const [k, o] of [...this.objects]) if (!seen.has(k)) this.remove(o);
    for (const o of items) this.put(o);
  }

  private put(obj: ApiObject): void {
    const key = `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    const old = this.objects.get(key);
    if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
    this.objects.set(key, obj);
    for (const h of this.handlers) (old ? h.onUpdate?.(old, obj) : h.onAdd?.(obj));
  }

  private remove(obj: ApiObject): void {
    const key = `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    const last = this.objects.get(key);
    if (!last) return;
    this.objects.delete(key);
    for (const h of this.handlers) h.onDelete?.(last);
  }
}
