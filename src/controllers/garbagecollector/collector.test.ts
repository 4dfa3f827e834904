// The collector's decisions against a fake API (as kube's
// TestAttemptToDeleteItem and TestConflictingData): which calls it makes for a
// node — GETs, deletes with their policy and preconditions, ownerReference
// rewrites — and what the graph knows afterwards.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControllerClient, DeleteOptions, Target } from '../client.js';
import type { EventRecorder } from '../events.js';
import type { Registry, ServedResource } from '../../registry/registry.js';
import type { ApiObject, OwnerReference } from '../../registry/object.js';
import { newConflict, newNotFound } from '../../api/meta/index.js';
import { GarbageCollector } from './collector.js';
import { ResourceMapper } from './mapper.js';
import type { GraphEvent } from './graph.js';

const served = (group: string, resource: string, kind: string, namespaced: boolean): ServedResource =>
  ({ group, version: 'v1', resource, kind, namespaced, verbs: ['delete', 'get', 'list', 'update', 'watch'], subresources: [], storageVersion: 'v1' });
const REGISTRY = { resources: () => [served('', 'configmaps', 'ConfigMap', true), served('rbac.authorization.svc.io', 'clusterroles', 'ClusterRole', false)] } as unknown as Registry;

/** The API as the collector's client sees it: objects by `resource/namespace/name`, every call logged. */
class FakeApi {
  readonly objects = new Map<string, ApiObject>();
  readonly actions: string[] = [];
  /** An unrelated write lands right after each GET (the resourceVersion moves, the owners don't). */
  bumpAfterGet = false;

  put(resource: string, o: ApiObject): void {
    this.objects.set(`${resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, structuredClone(o));
  }

  private find(t: Target, ns: string, name: string): ApiObject {
    const o = this.objects.get(`${t.resource}/${ns}/${name}`);
    if (!o) throw newNotFound({ group: t.group, resource: t.resource }, name);
    return o;
  }

  async get(t: Target, ns: string, name: string): Promise<ApiObject> {
    this.actions.push(`get ${t.resource} ${ns}/${name}`);
    const o = structuredClone(this.find(t, ns, name));
    if (this.bumpAfterGet) this.find(t, ns, name).metadata.resourceVersion = String(Number(o.metadata.resourceVersion) + 1);
    return o;
  }

  async delete(t: Target, ns: string, name: string, opts: DeleteOptions = {}): Promise<unknown> {
    const p = opts.preconditions ?? {};
    this.actions.push(`delete ${t.resource} ${ns}/${name} ${opts.propagationPolicy} uid=${p.uid ?? ''} rv=${p.resourceVersion ?? ''}`);
    const o = this.find(t, ns, name);
    if (p.uid !== undefined && p.uid !== o.metadata.uid) throw newConflict({ group: t.group, resource: t.resource }, name, 'uid');
    if (p.resourceVersion !== undefined && p.resourceVersion !== o.metadata.resourceVersion) throw newConflict({ group: t.group, resource: t.resource }, name, 'rv');
    this.objects.delete(`${t.resource}/${ns}/${name}`);
    return {};
  }

  async update(t: Target, ns: string, name: string, mutate: (cur: ApiObject) => ApiObject): Promise<ApiObject> {
    this.actions.push(`update ${t.resource} ${ns}/${name}`);
    const next = mutate(structuredClone(this.find(t, ns, name)));
    this.put(t.resource, next);
    return next;
  }
}

interface Obj { resource?: string; apiVersion?: string; kind?: string; name: string; uid: string; namespace?: string; owners?: OwnerReference[]; finalizers?: string[]; deleting?: boolean }
const cm = (name: string, extra: Partial<Obj> = {}): Obj => ({ name, uid: `uid-${name}`, namespace: 'ns', ...extra });
const ref = (o: Obj, extra: Partial<OwnerReference> = {}): OwnerReference =>
  ({ apiVersion: o.apiVersion ?? 'v1', kind: o.kind ?? 'ConfigMap', name: o.name, uid: o.uid, ...extra });
const object = (o: Obj): ApiObject => ({
  apiVersion: o.apiVersion ?? 'v1', kind: o.kind ?? 'ConfigMap',
  metadata: {
    name: o.name, uid: o.uid, resourceVersion: '1', ...(o.namespace ? { namespace: o.namespace } : {}),
    ...(o.owners ? { ownerReferences: o.owners } : {}), ...(o.finalizers ? { finalizers: o.finalizers } : {}),
    ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
});
const added = (o: Obj): GraphEvent => ({ type: 'add', apiVersion: o.apiVersion ?? 'v1', kind: o.kind ?? 'ConfigMap', meta: object(o).metadata });
const role = (name: string, owners?: OwnerReference[]): Obj =>
  ({ resource: 'clusterroles', apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name, uid: `uid-${name}`, ...(owners ? { owners } : {}) });

interface Case {
  readonly name: string;
  /** Objects the API has. */
  readonly api: Obj[];
  /** What the informers delivered (the graph's events). */
  readonly seen: Obj[];
  readonly deleted?: Obj[];
  /** The node looked at (by name). */
  readonly item: string;
  readonly bumpAfterGet?: boolean;
  readonly actions: string[];
  /** The ownerReferences the item has in the API afterwards (names), when it is kept. */
  readonly owners?: string[];
  /** Whether the item's node is still in the graph afterwards (default true). */
  readonly inGraph?: boolean;
}

const owner = cm('owner');
const other = cm('other');
const cases: Case[] = [
  {
    name: 'all owners gone: deleted in background with uid and resourceVersion preconditions',
    api: [cm('child', { owners: [ref(owner)] })], seen: [cm('child', { owners: [ref(owner)] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner', 'delete configmaps ns/child Background uid=uid-child rv=1'],
  },
  {
    name: 'the owner is there: kept',
    api: [owner, cm('child', { owners: [ref(owner)] })], seen: [owner, cm('child', { owners: [ref(owner)] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner'], owners: ['owner'],
  },
  {
    name: 'the owner’s name has another uid: dangling',
    api: [cm('owner', { uid: 'uid-new' }), cm('child', { owners: [ref(owner)] })], seen: [cm('child', { owners: [ref(owner)] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner', 'delete configmaps ns/child Background uid=uid-child rv=1'],
  },
  {
    name: 'an owner recorded absent is not asked for again',
    api: [cm('child', { owners: [ref(owner)] })], seen: [owner, cm('child', { owners: [ref(owner)] })], deleted: [owner], item: 'child',
    actions: ['get configmaps ns/child', 'delete configmaps ns/child Background uid=uid-child rv=1'],
  },
  {
    name: 'one owner alive, one gone: the dead reference is removed',
    api: [other, cm('child', { owners: [ref(owner), ref(other)] })], seen: [other, cm('child', { owners: [ref(owner), ref(other)] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner', 'get configmaps ns/other', 'update configmaps ns/child'], owners: ['other'],
  },
  {
    name: 'an owner deleting in foreground and one alive: the waiting reference is removed too',
    api: [cm('owner', { deleting: true, finalizers: ['foregroundDeletion'] }), other, cm('child', { owners: [ref(owner), ref(other)] })],
    seen: [other, cm('child', { owners: [ref(owner), ref(other)] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner', 'get configmaps ns/other', 'update configmaps ns/child'], owners: ['other'],
  },
  {
    name: 'only a waiting owner, no dependents of its own: deleted in background',
    api: [cm('owner', { deleting: true, finalizers: ['foregroundDeletion'] }), cm('child', { owners: [ref(owner)] })],
    seen: [cm('child', { owners: [ref(owner)] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner', 'delete configmaps ns/child Background uid=uid-child rv=1'],
  },
  {
    name: 'only a waiting owner, dependents of its own: deleted in foreground',
    api: [cm('owner', { deleting: true, finalizers: ['foregroundDeletion'] }), cm('child', { owners: [ref(owner)] })],
    seen: [cm('child', { owners: [ref(owner)] }), cm('grandchild', { owners: [ref(cm('child'))] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner', 'delete configmaps ns/child Foreground uid=uid-child rv=1'],
  },
  {
    name: 'an orphan finalizer already on the object is honoured',
    api: [cm('child', { owners: [ref(owner)], finalizers: ['orphan'] })], seen: [cm('child', { owners: [ref(owner)], finalizers: ['orphan'] })], item: 'child',
    actions: ['get configmaps ns/child', 'get configmaps ns/owner', 'delete configmaps ns/child Orphan uid=uid-child rv=1'],
  },
  {
    name: 'the object under the name is another one (recreated): not deleted, its node leaves the graph',
    api: [cm('child', { uid: 'uid-recreated' })], seen: [cm('child', { owners: [ref(owner)] })], item: 'child',
    actions: ['get configmaps ns/child'], inGraph: false,
  },
  {
    name: 'a conflict from an unrelated write (same owners): deleted again with the uid alone',
    api: [cm('child', { owners: [ref(owner)] })], seen: [cm('child', { owners: [ref(owner)] })], item: 'child', bumpAfterGet: true,
    actions: [
      'get configmaps ns/child', 'get configmaps ns/owner', 'delete configmaps ns/child Background uid=uid-child rv=1',
      'get configmaps ns/child', 'delete configmaps ns/child Background uid=uid-child rv=',
    ],
  },
  {
    name: 'a cluster-scoped object naming a namespaced owner: no lookup of the owner, never deleted',
    api: [role('r', [ref(owner)])], seen: [role('r', [ref(owner)])], item: 'r',
    actions: ['get clusterroles /r'], owners: ['owner'],
  },
  {
    name: 'a namespaced object with a cluster-scoped owner: the owner is looked up without a namespace',
    api: [role('r'), cm('child', { owners: [ref(role('r'))] })], seen: [role('r'), cm('child', { owners: [ref(role('r'))] })], item: 'child',
    actions: ['get configmaps ns/child', 'get clusterroles /r'], owners: ['r'],
  },
  {
    name: 'a virtual owner the API does not have: removed from the graph (a virtual delete)',
    api: [cm('child', { owners: [ref(owner)] })], seen: [cm('child', { owners: [ref(owner)] })], item: 'owner',
    actions: ['get configmaps ns/owner'], inGraph: false,
  },
];

describe('GarbageCollector.attemptToDeleteWorker', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const api = new FakeApi();
      for (const o of c.api) api.put(o.resource ?? 'configmaps', object(o));
      const recorder = { event: async () => {} } as unknown as EventRecorder;
      const gc = new GarbageCollector(api as unknown as ControllerClient, new ResourceMapper(REGISTRY), recorder, { retryMs: 60_000 });
      try {
        for (const o of c.seen) gc.graph.process(added(o));
        for (const o of c.deleted ?? []) gc.graph.process({ ...added(o), type: 'delete' });
        api.bumpAfterGet = c.bumpAfterGet ?? false;
        const node = [...gc.graph.nodes.values()].find((n) => n.identity.name === c.item);
        assert.ok(node, `node ${c.item}`);
        assert.equal(await gc.attemptToDeleteWorker(node), true);
        assert.deepEqual(api.actions, c.actions);
        if (c.owners) {
          const item = c.api.find((o) => o.name === c.item)!;
          const live = api.objects.get(`${item.resource ?? 'configmaps'}/${item.namespace ?? ''}/${item.name}`);
          assert.deepEqual((live?.metadata.ownerReferences ?? []).map((r) => r.name), c.owners);
        }
        assert.equal(gc.graph.get(node.identity.uid) !== undefined, c.inGraph ?? true);
      } finally {
        gc.stop();
      }
    });
  }
});

describe('GarbageCollector.attemptToOrphanWorker', () => {
  it('removes the owner from every dependent (keeping other references), then its orphan finalizer', async () => {
    const api = new FakeApi();
    const doomed = cm('owner', { deleting: true, finalizers: ['orphan', 'example.com/keep'] });
    for (const o of [doomed, other, cm('a', { owners: [ref(owner)] }), cm('b', { owners: [ref(owner), ref(other)] })]) api.put('configmaps', object(o));
    const gc = new GarbageCollector(api as unknown as ControllerClient, new ResourceMapper(REGISTRY), { event: async () => {} } as unknown as EventRecorder, { retryMs: 60_000 });
    try {
      for (const o of [cm('owner'), other, cm('a', { owners: [ref(owner)] }), cm('b', { owners: [ref(owner), ref(other)] })]) gc.graph.process(added(o));
      assert.equal(await gc.attemptToOrphanWorker(gc.graph.get('uid-owner')!), true);
      assert.equal(api.objects.get('configmaps/ns/a')!.metadata.ownerReferences, undefined);
      assert.deepEqual(api.objects.get('configmaps/ns/b')!.metadata.ownerReferences!.map((r) => r.name), ['other']);
      assert.deepEqual(api.objects.get('configmaps/ns/owner')!.metadata.finalizers, ['example.com/keep']);
      assert.deepEqual(api.actions.sort(), ['update configmaps ns/a', 'update configmaps ns/b', 'update configmaps ns/owner']);
    } finally {
      gc.stop();
    }
  });
});
