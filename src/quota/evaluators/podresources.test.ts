// A pod's effective requests and limits: app containers summed, init containers by max, overhead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../../registry/object.js';
import { podLimits, podRequests } from './podresources.js';
import { maxLists } from '../resources.js';
import { parseResourceList } from '../resources.js';
import { obj, texts } from './testutil.js';

const c = (requests: Record<string, string>, limits: Record<string, string> = {}) => ({ name: 'c', resources: { requests, limits } });

describe('podRequests / podLimits', () => {
  const rows: [string, ApiObject, Record<string, string>, Record<string, string>][] = [
    ['no containers', obj({}), {}, {}],
    ['sum', obj({ containers: [c({ cpu: '1' }, { cpu: '2' }), c({ cpu: '500m', memory: '1Gi' })] }), { cpu: '1500m', memory: '1Gi' }, { cpu: '2' }],
    ['init by resource: the larger wins per name', obj({ initContainers: [c({ cpu: '3', memory: '1Mi' }, { memory: '2Gi' })], containers: [c({ cpu: '1', memory: '1Gi' }, { memory: '1Gi' })] }),
      { cpu: '3', memory: '1Gi' }, { memory: '2Gi' }],
    ['a resource only an init container asks for', obj({ initContainers: [c({ 'example.com/gpu': '1' })], containers: [c({ cpu: '1' })] }), { cpu: '1', 'example.com/gpu': '1' }, {}],
    ['overhead: every request, only existing limits', obj({ overhead: { cpu: '100m', memory: '10Mi' }, containers: [c({}, { cpu: '1' })] }), { cpu: '100m', memory: '10Mi' }, { cpu: '1100m' }],
  ];
  for (const [name, p, reqs, lims] of rows) {
    it(name, () => {
      assert.deepEqual(texts(podRequests(p)), reqs);
      assert.deepEqual(texts(podLimits(p)), lims);
    });
  }
  it('maxLists keeps names of both', () => {
    assert.deepEqual(texts(maxLists(parseResourceList({ cpu: '1', memory: '1Gi' }), parseResourceList({ cpu: '2', pods: '1' }))), { cpu: '2', memory: '1Gi', pods: '1' });
  });
});
