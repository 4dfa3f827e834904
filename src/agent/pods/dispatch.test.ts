import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import { needsSync, PodDispatch } from './dispatch.js';
import { PodAdmission } from './admission.js';
import type { PodWork, PodWorkers } from './workers.js';

type Obj = Record<string, unknown>;
const pod = (over: { meta?: Obj; spec?: Obj; status?: Obj } = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', uid: 'u1', labels: { app: 'a' }, ...over.meta },
  spec: { containers: [{ name: 'c', image: 'i' }], ...over.spec },
  status: { phase: 'Running', ...over.status },
} as ApiObject);

test('needsSync: a status change alone is no reason to sync; spec, labels, annotations, deletion, readiness gates and a terminal phase are', () => {
  const rows: { name: string; after: ApiObject; want: boolean }[] = [
    { name: 'nothing changed', after: pod(), want: false },
    { name: 'status only (the agent\'s own write)', after: pod({ status: { podIP: '10.0.0.2', conditions: [{ type: 'Ready', status: 'True' }] } }), want: false },
    { name: 'resourceVersion only', after: pod({ meta: { resourceVersion: '9' } }), want: false },
    { name: 'spec', after: pod({ spec: { activeDeadlineSeconds: 5 } }), want: true },
    { name: 'labels', after: pod({ meta: { labels: { app: 'b' } } }), want: true },
    { name: 'annotations', after: pod({ meta: { annotations: { x: 'y' } } }), want: true },
    { name: 'deletion', after: pod({ meta: { deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 } }), want: true },
    { name: 'readiness gates', after: pod({ spec: { readinessGates: [{ conditionType: 'x' }] } }), want: true },
    { name: 'turned Failed', after: pod({ status: { phase: 'Failed' } }), want: true },
  ];
  for (const r of rows) {
    const b = r.name === 'readiness gates' ? pod({ spec: { readinessGates: [{ conditionType: 'x' }] } }) : pod();
    assert.equal(needsSync(b, r.after), r.want, r.name);
  }
});

test('a status-only update reaches the worker as a reconcile (the newest object, no sync); a spec change as a sync', () => {
  const calls: string[] = [];
  const workers = {
    update: (w: PodWork) => calls.push(`${w.type} ${String((w.pod.status as Obj | undefined)?.podIP ?? '')}`),
    reconcile: (p: ApiObject) => calls.push(`reconcile ${String((p.status as Obj | undefined)?.podIP ?? '')}`),
  } as unknown as PodWorkers;
  const d = new PodDispatch({ workers, admission: new PodAdmission(), status: {} as never, runtime: {} as never, allocatable: () => ({}), log: () => undefined });
  d.upsert(pod());
  d.upsert(pod({ status: { podIP: '10.0.0.2' } }));
  d.upsert(pod({ spec: { activeDeadlineSeconds: 5 }, status: { podIP: '10.0.0.2' } }));
  assert.deepEqual(calls, ['sync ', 'reconcile 10.0.0.2', 'sync 10.0.0.2']);
  assert.equal((d.get('u1')!.status as Obj).podIP, '10.0.0.2');
});
