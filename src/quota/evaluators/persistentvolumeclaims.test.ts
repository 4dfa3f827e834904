// The claim evaluator: storage requests (rounded to bytes), per storage
// class in both spellings, the beta class annotation, expansion.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { persistentVolumeClaimEvaluator } from './persistentvolumeclaims.js';
import { obj, quota, texts } from './testutil.js';

const ev = persistentVolumeClaimEvaluator();
const claim = (storage: string | undefined, cls?: string, extra: Partial<ApiObject> = {}) =>
  obj({ accessModes: ['ReadWriteOnce'], ...(storage ? { resources: { requests: { storage } } } : {}), ...(cls !== undefined ? { storageClassName: cls } : {}) }, extra);
const K = '.storageclass.storage.k8s.io/';
const S = '.storageclass.storage.svc.io/';

describe('claim usage', () => {
  const rows: [string, ApiObject, Record<string, string>][] = [
    ['no class', claim('10Gi'), { 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '10Gi' }],
    ['an empty class is none', claim('1Gi', ''), { 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi' }],
    ['a class: its names in both spellings', claim('5Gi', 'gold'), {
      'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '5Gi',
      [`gold${K}persistentvolumeclaims`]: '1', [`gold${K}requests.storage`]: '5Gi', [`gold${S}persistentvolumeclaims`]: '1', [`gold${S}requests.storage`]: '5Gi',
    }],
    ['the beta annotation wins over spec.storageClassName', claim('1Gi', 'gold', { metadata: { name: 'x', annotations: { 'volume.beta.kubernetes.io/storage-class': 'bronze' } } }), {
      'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi',
      [`bronze${K}persistentvolumeclaims`]: '1', [`bronze${K}requests.storage`]: '1Gi', [`bronze${S}persistentvolumeclaims`]: '1', [`bronze${S}requests.storage`]: '1Gi',
    }],
    ['the svc.io spelling of the annotation', claim(undefined, undefined, { metadata: { name: 'x', annotations: { 'volume.beta.svc.io/storage-class': 'fast' } } }), {
      'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', [`fast${K}persistentvolumeclaims`]: '1', [`fast${S}persistentvolumeclaims`]: '1',
    }],
    ['fractional bytes round up', claim('1500m'), { 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '2' }],
    ['allocatedResources ignored (RecoverVolumeExpansionFailure off)', claim('1Gi', undefined, { status: { allocatedResources: { storage: '2Gi' } } }), {
      'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi',
    }],
  ];
  for (const [name, c, want] of rows) it(name, () => assert.deepEqual(texts(ev.usage(c)), want));

  it('with RecoverVolumeExpansionFailure the larger of request and allocation', () => {
    const on = persistentVolumeClaimEvaluator({ recoverVolumeExpansionFailure: true });
    assert.equal(texts(on.usage(claim('1Gi', undefined, { status: { allocatedResources: { storage: '2Gi' } } })))['requests.storage'], '2Gi');
    assert.equal(texts(on.usage(claim('3Gi', undefined, { status: { allocatedResources: { storage: '2Gi' } } })))['requests.storage'], '3Gi');
  });
});

describe('claim evaluator', () => {
  it('matchingResources: plain names and per-class names in either spelling', () => {
    const input = ['persistentvolumeclaims', 'requests.storage', 'count/persistentvolumeclaims', `gold${K}requests.storage`, `gold${S}persistentvolumeclaims`,
      `gold${K}limits.storage`, 'gold.storageclass.storage.example.com/requests.storage', 'pods', 'storage'];
    assert.deepEqual(ev.matchingResources(input), input.slice(0, 5));
  });
  it('handles creates and updates (a size increase), not subresources', () => {
    assert.deepEqual(['CREATE', 'UPDATE', 'DELETE'].map((op) => ev.handles(op as 'CREATE', '')), [true, true, false]);
    assert.equal(ev.handles('UPDATE', 'status'), false);
  });
  it('knows no scopes', () => {
    assert.equal(ev.matchesScopes(quota({ hard: { 'requests.storage': '1Gi' } }), claim('1Gi')), true);
    assert.equal(ev.matchesScopes(quota({ scopes: ['Terminating'] }), claim('1Gi')), false);
  });
});
