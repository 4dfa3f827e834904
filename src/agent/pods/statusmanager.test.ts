import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import type { AgentApi } from '../api.js';
import { mergeStatus, StatusManager } from './statusmanager.js';

type Obj = Record<string, unknown>;

/** Pods by namespace/name; records writes and deletes. */
function fakeApi(pods: Map<string, ApiObject>, log: string[]): AgentApi {
  const key = (ns: string, name: string) => `${ns}/${name}`;
  const get = (ns: string, name: string) => {
    const p = pods.get(key(ns, name));
    if (!p) throw new StatusError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: 404, reason: 'NotFound', message: `pods "${name}" not found` });
    return p;
  };
  const unused = () => { throw new Error('not used'); };
  return {
    nodeName: 'n1',
    get: async (_t, ns, name) => get(ns, name),
    create: unused, patch: unused, createSubresource: unused, pods: unused, services: unused, node: unused, close: () => undefined,
    update: async (t, ns, name, mutate) => {
      const next = mutate(structuredClone(get(ns, name)));
      pods.set(key(ns, name), next);
      log.push(`update ${t.subresource ?? ''} ${name} ${(next.status as Obj).phase}`);
      return next;
    },
    delete: async (_t, ns, name, opts) => {
      log.push(`delete ${name} grace=${opts?.gracePeriodSeconds} uid=${opts?.preconditions?.uid}`);
      pods.delete(key(ns, name));
      return {};
    },
  };
}

const pod = (status: Obj, deleting = false): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) }, spec: {}, status,
});

test('mergeStatus keeps other writers\' conditions and never leaves a terminal phase', () => {
  const merged = mergeStatus(
    { phase: 'Succeeded', conditions: [{ type: 'Ready', status: 'True' }, { type: 'example.com/gate', status: 'True' }] },
    { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }, { type: 'example.com/gate', status: 'False' }] },
  );
  assert.equal(merged.phase, 'Succeeded');
  assert.deepEqual(merged.conditions, [{ type: 'example.com/gate', status: 'True' }, { type: 'Ready', status: 'False' }]);
});

test('statuses are written when they differ, and a finished pod marked for deletion is deleted with grace 0 and its UID', async () => {
  const pods = new Map([['ns/p', pod({ phase: 'Pending' })]]);
  const log: string[] = [];
  const m = new StatusManager({ api: fakeApi(pods, log), lookup: (ns, name) => pods.get(`${ns}/${name}`) });
  const target = { namespace: 'ns', name: 'p', uid: 'u1' };
  m.setPodStatus('u1', target, { phase: 'Running', conditions: [] });
  await m.idle();
  m.setPodStatus('u1', target, { phase: 'Running', conditions: [] });
  await m.idle();
  assert.deepEqual(log, ['update status p Running']);
  m.markFinished('u1');
  await m.idle();
  assert.deepEqual(log, ['update status p Running'], 'not deleted: no deletionTimestamp');
  pods.set('ns/p', { ...pods.get('ns/p')!, metadata: { ...pods.get('ns/p')!.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } });
  m.setPodStatus('u1', target, { phase: 'Succeeded', conditions: [] });
  await m.idle();
  assert.deepEqual(log, ['update status p Running', 'update status p Succeeded', 'delete p grace=0 uid=u1']);
  m.stop();
});

test('a pod replaced by another of the same name is not written', async () => {
  const pods = new Map([['ns/p', { ...pod({ phase: 'Pending' }), metadata: { name: 'p', namespace: 'ns', uid: 'other' } }]]);
  const log: string[] = [];
  const errors: unknown[] = [];
  const m = new StatusManager({ api: fakeApi(pods, log), onError: (_t, e) => errors.push(e) });
  m.setPodStatus('u1', { namespace: 'ns', name: 'p', uid: 'u1' }, { phase: 'Running' });
  await m.idle();
  assert.deepEqual(log, []);
  assert.deepEqual(errors, []);
  m.stop();
});

test('after stop no write starts: a status set then is kept, not written', async () => {
  const pods = new Map([['ns/p', pod({ phase: 'Pending' })]]);
  const log: string[] = [];
  const m = new StatusManager({ api: fakeApi(pods, log), lookup: (ns, name) => pods.get(`${ns}/${name}`) });
  const target = { namespace: 'ns', name: 'p', uid: 'u1' };
  m.stop();
  m.setPodStatus('u1', target, { phase: 'Running', conditions: [] });
  await m.idle();
  assert.deepEqual(log, []);
  assert.equal(m.getPodStatus('u1')?.phase, 'Running');
});
