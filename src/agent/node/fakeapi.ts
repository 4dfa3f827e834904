// An in-memory AgentApi for the agent's unit tests: objects by resource,
// namespace and name, UIDs and resourceVersions assigned, merge patches
// applied, kube's NotFound/AlreadyExists errors, every call recorded. Not a
// server: no admission, no authorization (the e2e suites cover those).
import { randomUUID } from 'node:crypto';
import { newAlreadyExists, newConflict, newNotFound } from '../../api/meta/status.js';
import type { DeleteOptions, Target } from '../../controllers/client.js';
import type { ResourceHandler } from '../../controllers/shared.js';
import { applyMergePatch } from '../../patch/mergepatch.js';
import type { JsonValue } from '../../patch/json.js';
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi, ObjectCache } from '../api.js';

export interface FakeCall {
  readonly verb: 'get' | 'create' | 'update' | 'patch' | 'delete' | 'createSubresource';
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly body?: unknown;
  readonly opts?: DeleteOptions;
}

const resourceKey = (t: Target) => `${t.group}/${t.resource}`;

class FakeCache implements ObjectCache {
  private readonly handlers: ResourceHandler[] = [];
  constructor(private readonly items: () => ApiObject[]) {}
  get(namespace: string, name: string) {
    return this.items().find((o) => (o.metadata.namespace ?? '') === namespace && o.metadata.name === name);
  }
  list() {
    return this.items();
  }
  addHandler(h: ResourceHandler) {
    this.handlers.push(h);
  }
  emit(kind: 'add' | 'update' | 'delete', obj: ApiObject, old?: ApiObject) {
    for (const h of this.handlers) {
      if (kind === 'add') h.onAdd?.(obj);
      else if (kind === 'update') h.onUpdate?.(old!, obj);
      else h.onDelete?.(obj);
    }
  }
  async start() {}
  async waitForSync() {}
}

export class FakeAgentApi implements AgentApi {
  readonly calls: FakeCall[] = [];
  private readonly store = new Map<string, Map<string, ApiObject>>();
  private rv = 1;
  private readonly podCache = new FakeCache(() => this.all('/pods').filter((p) => (p.spec as { nodeName?: string } | undefined)?.nodeName === this.nodeName));
  /** Throws instead of answering when set (the API unreachable). */
  failWith: Error | undefined;

  constructor(readonly nodeName: string) {}

  private bucket(t: Target): Map<string, ApiObject> {
    const k = resourceKey(t);
    let b = this.store.get(k);
    if (!b) this.store.set(k, (b = new Map()));
    return b;
  }

  all(key: string): ApiObject[] {
    return [...(this.store.get(key)?.values() ?? [])];
  }

  /** Puts an object as another writer would (no call recorded). */
  seed(t: Target, obj: ApiObject): ApiObject {
    const stored = this.stamp(obj);
    this.bucket(t).set(`${obj.metadata.namespace ?? ''}/${obj.metadata.name}`, stored);
    if (t.resource === 'pods') this.podCache.emit('add', stored);
    return stored;
  }

  private stamp(obj: ApiObject, old?: ApiObject): ApiObject {
    return structuredClone({
      ...obj,
      metadata: { ...obj.metadata, uid: old?.metadata.uid ?? obj.metadata.uid ?? randomUUID(), resourceVersion: String(++this.rv), creationTimestamp: old?.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
    });
  }

  private check(): void {
    if (this.failWith) throw this.failWith;
  }

  async get(t: Target, namespace: string, name: string): Promise<ApiObject> {
    this.calls.push({ verb: 'get', resource: t.resource, namespace, name });
    this.check();
    const o = this.bucket(t).get(`${namespace}/${name}`);
    if (!o) throw newNotFound({ group: t.group, resource: t.resource }, name);
    return structuredClone(o);
  }

  async create(t: Target, namespace: string, obj: ApiObject): Promise<ApiObject> {
    this.calls.push({ verb: 'create', resource: t.resource, namespace, name: obj.metadata.name ?? '', body: structuredClone(obj) });
    this.check();
    const key = `${namespace}/${obj.metadata.name}`;
    if (this.bucket(t).has(key)) throw newAlreadyExists({ group: t.group, resource: t.resource }, obj.metadata.name ?? '');
    const stored = this.stamp({ ...obj, metadata: { ...obj.metadata, ...(namespace ? { namespace } : {}), uid: undefined } });
    this.bucket(t).set(key, stored);
    if (t.resource === 'pods') this.podCache.emit('add', stored);
    return structuredClone(stored);
  }

  private replace(t: Target, namespace: string, name: string, next: (cur: ApiObject) => ApiObject): ApiObject {
    const key = `${namespace}/${name}`;
    const cur = this.bucket(t).get(key);
    if (!cur) throw newNotFound({ group: t.group, resource: t.resource }, name);
    const changed = next(structuredClone(cur));
    // the status subresource changes only status; the object itself, anything but status
    const merged = t.subresource === 'status' ? { ...cur, status: changed.status } : { ...changed, status: cur.status };
    const stored = this.stamp(merged, cur);
    this.bucket(t).set(key, stored);
    if (t.resource === 'pods') this.podCache.emit('update', stored, cur);
    return structuredClone(stored);
  }

  async update(t: Target, namespace: string, name: string, mutate: (current: ApiObject) => ApiObject): Promise<ApiObject> {
    this.check();
    const out = this.replace(t, namespace, name, mutate);
    this.calls.push({ verb: 'update', resource: t.subresource ? `${t.resource}/${t.subresource}` : t.resource, namespace, name, body: out });
    return out;
  }

  async patch(t: Target, namespace: string, name: string, patch: Record<string, unknown>): Promise<ApiObject> {
    this.calls.push({ verb: 'patch', resource: t.subresource ? `${t.resource}/${t.subresource}` : t.resource, namespace, name, body: structuredClone(patch) });
    this.check();
    return this.replace(t, namespace, name, (cur) => applyMergePatch(cur as unknown as JsonValue, patch as JsonValue) as unknown as ApiObject);
  }

  async delete(t: Target, namespace: string, name: string, opts?: DeleteOptions): Promise<unknown> {
    this.calls.push({ verb: 'delete', resource: t.resource, namespace, name, opts });
    this.check();
    const key = `${namespace}/${name}`;
    const cur = this.bucket(t).get(key);
    if (!cur) throw newNotFound({ group: t.group, resource: t.resource }, name);
    if (opts?.preconditions?.uid && opts.preconditions.uid !== cur.metadata.uid) {
      throw newConflict({ group: t.group, resource: t.resource }, name, `Precondition failed: UID in precondition: ${opts.preconditions.uid}, UID in object meta: ${cur.metadata.uid}`);
    }
    this.bucket(t).delete(key);
    if (t.resource === 'pods') this.podCache.emit('delete', cur);
    return cur;
  }

  async createSubresource(t: Target & { readonly subresource: string }, namespace: string, name: string, body: ApiObject): Promise<ApiObject> {
    this.calls.push({ verb: 'createSubresource', resource: `${t.resource}/${t.subresource}`, namespace, name, body });
    this.check();
    return body;
  }

  pods(): ObjectCache {
    return this.podCache;
  }
  services(): ObjectCache {
    return new FakeCache(() => this.all('/services'));
  }
  node(): ObjectCache {
    return new FakeCache(() => this.all('/nodes').filter((n) => n.metadata.name === this.nodeName));
  }
  close(): void {}
}
