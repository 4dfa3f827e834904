// What a delete does to an object (planDeletion's table), and two races of
// finishing an object kube's registry store tolerates: a zero-grace delete
// writes the deletion first and then deletes, and another client (a node
// finishing the pod it sees terminating) may delete the object between the
// two writes; an update removing the last finalizer deletes the object, and
// another client removing it too may have deleted it first. Both answer
// success, as kube's ignoreNotFound and deleteWithoutFinalizers do.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { GenericStore } from './store.js';
import { checkDeleteOptions, checkPreconditions, planDeletion, type DeletionPlan } from './deletion.js';
import type { ApiObject } from './object.js';
import type { DeleteOptions } from './writecontext.js';
import { strategyFor } from './strategies/index.js';
import { Admission } from './admission.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import { tempDir } from '../testing/tempdir.js';

const POD = { group: '', version: 'v1', resource: 'pods', kind: 'Pod' };
const CM = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' };
const NSK = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace' };
const CRD = { group: 'apiextensions.svc.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition' };

describe('planDeletion', () => {
  const NOW = Date.parse('2026-01-01T00:00:00Z');
  const at = (s: number) => new Date(NOW + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const meta = (m: Record<string, unknown> = {}) => ({ name: 'x', namespace: 'ns', uid: 'u1', resourceVersion: '7', ...m });
  const cm = (m?: Record<string, unknown>): ApiObject => ({ metadata: meta(m), data: {} });
  const pod = (m?: Record<string, unknown>, nodeName?: string): ApiObject => ({ metadata: meta(m), spec: { containers: [], ...(nodeName ? { nodeName } : {}) } });
  const terminating = (grace: number) => ({ deletionTimestamp: at(grace), deletionGracePeriodSeconds: grace });
  type Want = { kind: DeletionPlan['kind']; immediate?: boolean; meta?: Record<string, unknown> };
  const rows: [string, typeof POD, ApiObject, Partial<DeleteOptions>, Want][] = [
    ['a configmap with nothing holding it goes now', CM, cm(), {}, { kind: 'remove' }],
    ['a finalizer keeps it, terminating from now', CM, cm({ finalizers: ['f'] }), {}, { kind: 'mark', immediate: false, meta: { finalizers: ['f'], deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 } }],
    ['Orphan adds the orphan finalizer', CM, cm(), { propagationPolicy: 'Orphan' }, { kind: 'mark', immediate: false, meta: { finalizers: ['orphan'] } }],
    ['Foreground adds foregroundDeletion', CM, cm(), { propagationPolicy: 'Foreground' }, { kind: 'mark', immediate: false, meta: { finalizers: ['foregroundDeletion'] } }],
    ['an object terminating on finalizers is left as it is', CM, cm({ finalizers: ['f'], deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 }), { propagationPolicy: 'Orphan' }, { kind: 'unchanged' }],
    ['a bound pod terminates over its grace period (30 s)', POD, pod({}, 'n1'), {}, { kind: 'mark', immediate: false, meta: { deletionTimestamp: at(30), deletionGracePeriodSeconds: 30 } }],
    ['a bound pod deleted with grace 0 is marked and deleted at once', POD, pod({}, 'n1'), { gracePeriodSeconds: 0 }, { kind: 'mark', immediate: true, meta: { deletionGracePeriodSeconds: 0 } }],
    ['an unbound pod is marked and deleted at once', POD, pod(), {}, { kind: 'mark', immediate: true, meta: { deletionGracePeriodSeconds: 0 } }],
    ['a shorter grace period moves the deletionTimestamp back by the difference', POD, pod(terminating(30), 'n1'), { gracePeriodSeconds: 10 }, { kind: 'mark', immediate: false, meta: { deletionTimestamp: at(10), deletionGracePeriodSeconds: 10 } }],
    ['a longer grace period changes nothing', POD, pod(terminating(30), 'n1'), { gracePeriodSeconds: 40 }, { kind: 'unchanged' }],
    ['no grace period on a terminating pod changes nothing', POD, pod(terminating(30), 'n1'), {}, { kind: 'unchanged' }],
    ['shortened to 0 it goes at once', POD, pod(terminating(30), 'n1'), { gracePeriodSeconds: 0 }, { kind: 'mark', immediate: true, meta: { deletionTimestamp: at(0), deletionGracePeriodSeconds: 0 } }],
    ['shortened to 0 with a finalizer it stays', POD, pod({ ...terminating(30), finalizers: ['f'] }, 'n1'), { gracePeriodSeconds: 0 }, { kind: 'mark', immediate: false }],
    ['a namespace is marked first (its controller empties it), with no grace period field', NSK, { metadata: { name: 'ns1', uid: 'u' }, spec: { finalizers: ['kubernetes'] } }, {}, { kind: 'mark', immediate: false, meta: { deletionTimestamp: at(0), deletionGracePeriodSeconds: undefined } }],
    ['a definition gets its cleanup finalizer and no grace period field', CRD, { metadata: { name: 'a.b.c', uid: 'u', generation: 1 } }, {}, { kind: 'mark', immediate: false, meta: { finalizers: ['customresourcecleanup.apiextensions.svc.io'], deletionGracePeriodSeconds: undefined, generation: 1 } }],
    ['a generation moves with the deletion', CM, cm({ finalizers: ['f'], generation: 3 }), {}, { kind: 'mark', immediate: false, meta: { generation: 4 } }],
  ];
  for (const [what, key, old, opts, want] of rows) {
    it(what, () => {
      const before = JSON.stringify(old);
      const plan = planDeletion(old, strategyFor(key, key !== NSK && key !== CRD, true), { dryRun: false, ...opts }, NOW);
      assert.equal(JSON.stringify(old), before, 'the stored object is not modified');
      assert.equal(plan.kind, want.kind);
      if (plan.kind !== 'mark') return;
      assert.equal(plan.immediate, want.immediate);
      for (const [k, v] of Object.entries(want.meta ?? {})) assert.deepEqual((plan.object.metadata as Record<string, unknown>)[k], v, k);
    });
  }

  it('refuses an unknown propagationPolicy with 422, naming the values it takes', () => {
    assert.throws(() => checkDeleteOptions({ dryRun: false, propagationPolicy: 'Sideways' as 'Orphan' }), (e: { status?: { code?: number; message?: string } }) =>
      e.status?.code === 422 && /Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"/.test(e.status.message ?? ''));
  });

  it('a precondition that does not match is a 409 naming the kind', () => {
    const old = cm();
    assert.doesNotThrow(() => checkPreconditions(old, { dryRun: false, preconditions: { uid: 'u1', resourceVersion: '7' } }, '', 'ConfigMap'));
    assert.throws(() => checkPreconditions(old, { dryRun: false, preconditions: { uid: 'u2' } }, '', 'ConfigMap'), (e: { status?: { code?: number; message?: string } }) =>
      e.status?.code === 409 && e.status.message === 'Operation cannot be fulfilled on ConfigMap "x": the UID in the precondition (u2) does not match the UID in record (u1). The object might have been deleted and then recreated');
    assert.throws(() => checkPreconditions(old, { dryRun: false, preconditions: { resourceVersion: '6' } }, '', 'ConfigMap'), (e: { status?: { code?: number } }) => e.status?.code === 409);
  });
});
const W = { dryRun: false };

describe('GenericStore: a zero-grace delete racing another deleter', () => {
  let storage: SqliteStore;
  let store: GenericStore;
  /** When set, the next update of this key is followed at once by another client's delete of it. */
  let raceOn: string | undefined;
  /** When set, another client deletes this key just before the store's next delete of it. */
  let raceDeleteOn: string | undefined;
  let cms: GenericStore;
  before(() => {
    storage = SqliteStore.open({ path: join(tempDir('svc-deletion-'), 'state.db') });
    const update: SqliteStore['update'] = async (key, value, opts) => {
      const written = await storage.update(key, value, opts);
      if (key === raceOn) {
        raceOn = undefined;
        await storage.delete(key);
      }
      return written;
    };
    const del: SqliteStore['delete'] = async (key, opts) => {
      if (key === raceDeleteOn) {
        raceDeleteOn = undefined;
        await storage.delete(key);
      }
      return storage.delete(key, opts);
    };
    const racing = new Proxy(storage, {
      get: (target, p) => (p === 'update' ? update : p === 'delete' ? del : typeof Reflect.get(target, p) === 'function' ? Reflect.get(target, p).bind(target) : Reflect.get(target, p)),
    });
    cms = new GenericStore(CM, strategyFor(CM, true), racing, new Admission());
    store = new GenericStore(POD, strategyFor(POD, true, true), racing, new Admission());
  });
  after(() => storage.close());

  for (const bound of [true, false]) {
    it(`answers 200 with the terminating object when the object is gone before its own delete (${bound ? 'bound' : 'unbound'} pod)`, async () => {
      const name = `p-${bound}`;
      const container = { name: 'c', image: 'busybox', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' };
      const spec = { containers: [container], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', ...(bound ? { nodeName: 'n1' } : {}) };
      await store.create('ns', { metadata: { name, namespace: 'ns' }, spec }, W);
      raceOn = store.key('ns', name);
      const r = await store.delete('ns', name, { gracePeriodSeconds: 0, dryRun: false });
      assert.equal(raceOn, undefined, 'the deletion was written first');
      assert.equal(r.deleted, true);
      assert.equal(r.object.metadata.name, name);
      assert.ok(r.object.metadata.deletionTimestamp);
      assert.equal(r.object.metadata.deletionGracePeriodSeconds, 0);
      await assert.rejects(store.get('ns', name), (e: { status?: { code?: number } }) => e.status?.code === 404);
    });
  }

  it('removing the last finalizer answers the object when another client finished it first (kube: "deletion is racy")', async () => {
    await cms.create('ns', { metadata: { name: 'held', namespace: 'ns', finalizers: ['x.example.com/hold'] } }, W);
    const marked = await cms.delete('ns', 'held', W);
    assert.equal(marked.deleted, false);
    raceDeleteOn = cms.key('ns', 'held');
    const released = await cms.guaranteedUpdate('ns', 'held', (cur) => ({ ...cur, metadata: { ...cur.metadata, finalizers: [] } }), W);
    assert.equal(raceDeleteOn, undefined, 'the store went on to delete it');
    assert.equal(released.metadata.name, 'held');
    assert.ok(released.metadata.deletionTimestamp);
    await assert.rejects(cms.get('ns', 'held'), (e: { status?: { code?: number } }) => e.status?.code === 404);
  });

  it('a delete of an object already gone is still 404', async () => {
    await assert.rejects(store.delete('ns', 'never', { gracePeriodSeconds: 0, dryRun: false }), (e: { status?: { code?: number } }) => e.status?.code === 404);
  });
});
