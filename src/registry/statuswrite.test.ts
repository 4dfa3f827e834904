import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clone, deepFreeze, type ApiObject } from './object.js';
import { statusWrite } from './statuswrite.js';

/** What prepareUpdate built before: the whole live object copied, then metadata and status replaced. */
function oracle(old: ApiObject, meta: ApiObject['metadata'], status: unknown): ApiObject {
  const next: ApiObject = { ...clone(old), metadata: meta };
  if (status !== undefined) next.status = status as Record<string, unknown>;
  else delete next.status;
  return next;
}

test('statusWrite: the live object with the new metadata and status, keys in the same order as a full copy, nothing shared with the live object', () => {
  const meta = { name: 'q', namespace: 'ns', resourceVersion: '7' };
  const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', managedFields: [{ manager: 'm' }] }, spec: { hard: { pods: '2' } }, status: { used: { pods: '0' } } } as ApiObject;
  const noStatus = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '2' } } } as ApiObject;
  const statusFirst = { status: { phase: 'Active' }, metadata: { name: 'q' }, kind: 'Namespace', apiVersion: 'v1', spec: { finalizers: ['kubernetes'] } } as ApiObject;
  const proto = JSON.parse('{"apiVersion":"v1","kind":"X","metadata":{"name":"x"},"__proto__":{"a":1},"status":{}}') as ApiObject;
  const cases: [string, ApiObject, unknown][] = [
    ['status replaced', quota, { used: { pods: '1' }, hard: { pods: '2' } }],
    ['status removed', quota, undefined],
    ['status added to an object without one: last', noStatus, { used: { pods: '1' } }],
    ['no status either side', noStatus, undefined],
    ['status first in the live object', statusFirst, { phase: 'Terminating' }],
    ['a __proto__ key stays a plain key', proto, { x: 1 }],
  ];
  for (const [name, old, status] of cases) {
    deepFreeze(old);
    const got = statusWrite(old, meta, status);
    const want = oracle(old, meta, status);
    assert.deepEqual(got, want, name);
    assert.deepEqual(Object.keys(got), Object.keys(want), `${name}: key order`);
    assert.equal(JSON.stringify(got), JSON.stringify(want), `${name}: encoding`);
    assert.equal(got.metadata, meta, `${name}: the request's metadata itself`);
    for (const k of Object.keys(got)) {
      const v = (got as Record<string, unknown>)[k];
      if (k !== 'metadata' && k !== 'status' && typeof v === 'object') assert.notEqual(v, (old as Record<string, unknown>)[k], `${name}: ${k} copied`);
    }
  }
});
