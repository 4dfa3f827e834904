// Work estimates (kube's request/ estimators, v1.27) by verb, list source,
// selectors, limits, and the watchers of a mutated resource.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RequestInfo } from '../endpoints/requestinfo.js';
import { estimateWork, type ResourceCounts } from './workestimate.js';

const info = (verb: string, resource = 'pods'): RequestInfo => ({
  isResourceRequest: true, verb: verb as never, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'default', resource, subresource: '', name: '', parts: [resource], path: '/x',
});
const counts = (objects: number | undefined, watchers = 0): ResourceCounts => ({ objects: () => objects, watchers: () => watchers });

describe('work estimates', () => {
  const rows: [string, RequestInfo, string, ResourceCounts, boolean, [number, number, number]][] = [
    ['get: one seat', info('get'), '', counts(10_000), false, [1, 0, 0]],
    ['list from storage: 2 × stored / 100', info('list'), '', counts(450), false, [9, 0, 0]],
    ['list from storage with a limit: 2 × limit / 100', info('list'), 'limit=100', counts(5000), false, [2, 0, 0]],
    ['list with a selector: (stored + limit) / 100', info('list'), 'labelSelector=a%3Db&limit=100', counts(250), false, [4, 0, 0]],
    ['list from the watch cache (resourceVersion=0): stored / 100', info('list'), 'resourceVersion=0&limit=10', counts(450), false, [5, 0, 0]],
    ['at most 10 seats', info('list'), '', counts(100_000), false, [10, 0, 0]],
    ['at least 1 seat', info('list'), '', counts(0), false, [1, 0, 0]],
    ['an unknown count: 1 seat', info('list'), '', counts(undefined), false, [1, 0, 0]],
    ['a watch: 1 seat', info('watch'), 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan', counts(900), false, [1, 0, 0]],
    ['a watch with initial events under WatchList: the list\'s cost', info('watch'), 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan', counts(900), true, [9, 0, 0]],
    ['a create with few watchers: 1 seat', info('create'), '', counts(1, 9), false, [1, 0, 0]],
    ['a create with 25 watchers: 3 final seats for 5 ms', info('create'), '', counts(1, 25), false, [1, 3, 5]],
    ['a delete with 1000 watchers: 10 final seats for 50 ms', info('delete'), '', counts(1, 1000), false, [1, 10, 50]],
  ];
  for (const [name, i, query, c, watchList, [initial, final, latency]] of rows) {
    it(name, () => assert.deepEqual(estimateWork(i, new URLSearchParams(query), c, watchList), { initialSeats: initial, finalSeats: final, additionalLatencyMs: latency }));
  }
  it('non-resource requests: one seat', () => {
    assert.deepEqual(estimateWork({ isResourceRequest: false, verb: 'get', path: '/metrics' }, new URLSearchParams(), counts(1), false), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  });
});
