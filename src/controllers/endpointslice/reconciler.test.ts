// The EndpointSlice reconciler's plan, table-driven: packing (max per slice,
// fullest first, best fit into unchanged slices), port sets, address types,
// placeholders, recycling of deleted slices, ownership and missing nodes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSlices, sliceToFill, type Plan, type ReconcileInput } from './reconciler.js';
import { CONTROLLER_NAME, newSlice, podToEndpoint } from './slices.js';
import { manyPods, sizes, testPod, testService } from './testpods.js';
import type { EndpointSlice, Pod, Service } from './types.js';

const nodes: ReconcileInput['nodes'] = (n) => (n === 'n1' ? { zone: 'z1' } : n === 'n2' ? { zone: undefined } : undefined);

/** An existing slice of the service named `name` holding these pods' endpoints. */
function existing(name: string, svc: Service, pods: readonly Pod[], ports = [{ name: 'http', port: 8080, protocol: 'TCP' }]): EndpointSlice {
  const s = newSlice(svc, ports, 'IPv4', CONTROLLER_NAME);
  s.metadata.name = name;
  s.metadata.uid = `uid-${name}`;
  delete s.metadata.generateName;
  s.endpoints = pods.map((p) => podToEndpoint(p, 'z1', svc, 'IPv4'));
  return s;
}

function plan(svc: Service, pods: readonly Pod[], have: readonly EndpointSlice[] = [], max?: number): Plan {
  return planSlices({ service: svc, pods, existing: have, nodes, controllerName: CONTROLLER_NAME, ...(max ? { maxEndpointsPerSlice: max } : {}) });
}

describe('planSlices: packing', () => {
  const svc = testService();
  const rows: {
    name: string; pods: Pod[]; have?: (svc: Service) => EndpointSlice[]; max?: number;
    create: number[]; update: [string, number][]; del: string[];
  }[] = [
    { name: '250 new endpoints: slices of 100, 100, 50', pods: manyPods(250), create: [100, 100, 50], update: [], del: [] },
    { name: 'a smaller maximum', pods: manyPods(7), max: 3, create: [3, 3, 1], update: [], del: [] },
    { name: 'nothing changed: nothing to do', pods: manyPods(10), have: (s) => [existing('a', s, manyPods(10))], create: [], update: [], del: [] },
    { name: 'one endpoint gone: its slice updated', pods: manyPods(9), have: (s) => [existing('a', s, manyPods(10))], create: [], update: [['a', 9]], del: [] },
    {
      name: 'a slice emptied is deleted', pods: manyPods(10),
      have: (s) => [existing('a', s, manyPods(10)), existing('b', s, manyPods(5, 100))], create: [], update: [], del: ['b'],
    },
    {
      name: 'new endpoints fill the slices being updated first, fullest first', pods: [...manyPods(9), ...manyPods(5, 50)], max: 10,
      have: (s) => [existing('a', s, manyPods(10)), existing('b', s, manyPods(3, 20))],
      // a loses p9 and gets 1 new; b loses all 3; the other 4 would go to a new slice, which recycles b
      create: [], update: [['a', 10], ['b', 4]], del: [],
    },
    {
      name: 'the rest goes into the unchanged slice it fits best', pods: [...manyPods(5), ...manyPods(7, 10), ...manyPods(2, 40)], max: 10,
      have: (s) => [existing('a', s, manyPods(5)), existing('b', s, manyPods(7, 10))],
      create: [], update: [['b', 9]], del: [],
    },
    {
      name: 'no unchanged slice has room: a new slice', pods: [...manyPods(9), ...manyPods(2, 40)], max: 10,
      have: (s) => [existing('a', s, manyPods(9))], create: [2], update: [], del: [],
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const p = plan(svc, r.pods, r.have?.(svc) ?? [], r.max);
      assert.deepEqual(sizes(p.create), r.create, 'creates');
      assert.deepEqual(p.update.map((s) => [s.metadata.name, s.endpoints.length]), r.update, 'updates');
      assert.deepEqual(p.delete.map((s) => s.metadata.name), r.del, 'deletes');
      assert.deepEqual(p.errors, []);
      const all = [...p.create, ...p.update].flatMap((s) => s.endpoints.map((e) => e.addresses[0]));
      assert.equal(new Set(all).size, all.length, 'no endpoint twice');
    });
  }
});

describe('planSlices: what a slice holds', () => {
  it('a new slice: generateName, labels, owner, ports, endpoint conditions, node and zone', () => {
    const svc = testService({}, 'web', { tier: 'front', 'kubernetes.io/service-name': 'spoofed' });
    const p = plan(svc, [testPod({ name: 'p1', ip: '10.1.0.1', ready: false }), testPod({ name: 'p2', ip: '10.1.0.2', node: 'n2', terminating: true })]);
    assert.equal(p.create.length, 1);
    const s = p.create[0]!;
    assert.equal(s.metadata.generateName, 'web-');
    assert.deepEqual(s.metadata.labels, { tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': CONTROLLER_NAME });
    assert.deepEqual(s.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(s.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.deepEqual(s.endpoints, [
      { addresses: ['10.1.0.1'], conditions: { ready: false, serving: false, terminating: false }, targetRef: { kind: 'Pod', namespace: 'ns', name: 'p1', uid: 'uid-p1' }, nodeName: 'n1', zone: 'z1' },
      { addresses: ['10.1.0.2'], conditions: { ready: false, serving: true, terminating: true }, targetRef: { kind: 'Pod', namespace: 'ns', name: 'p2', uid: 'uid-p2' }, nodeName: 'n2' },
    ]);
  });

  it('publishNotReadyAddresses: every endpoint ready', () => {
    const p = plan(testService({ publishNotReadyAddresses: true }), [testPod({ name: 'p1', ip: '10.1.0.1', ready: false, terminating: true })]);
    assert.deepEqual(p.create[0]!.endpoints[0]!.conditions, { ready: true, serving: false, terminating: true });
  });

  it('pods whose named port resolves differently get slices of their own', () => {
    const svc = testService({ ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }] });
    const p = plan(svc, [
      testPod({ name: 'a', ip: '10.1.0.1', ports: [{ name: 'web', containerPort: 8080 }] }),
      testPod({ name: 'b', ip: '10.1.0.2', ports: [{ name: 'web', containerPort: 9090 }] }),
      testPod({ name: 'c', ip: '10.1.0.3', ports: [{ name: 'web', containerPort: 8080 }] }),
      testPod({ name: 'd', ip: '10.1.0.4', ports: [] }),
    ]);
    assert.deepEqual(p.create.map((s) => [s.ports?.map((x) => x.port), s.endpoints.map((e) => e.targetRef?.name)]), [
      [[8080], ['a', 'c']], [[9090], ['b']], [[], ['d']],
    ]);
  });

  it('a headless service: the headless label, no ports', () => {
    const p = plan(testService({ clusterIP: 'None', ports: [] }), [testPod({ name: 'a', ip: '10.1.0.1' })]);
    assert.equal(p.create[0]!.metadata.labels!['service.kubernetes.io/headless'], '');
    assert.deepEqual(p.create[0]!.ports, []);
  });

  it('dual stack: a slice per address type, each endpoint with its addresses of that type', () => {
    const p = plan(testService({ ipFamilies: ['IPv6', 'IPv4'] }), [testPod({ name: 'a', ip: ['10.1.0.1', 'fd00::1'] })]);
    assert.deepEqual(p.create.map((s) => [s.addressType, s.endpoints[0]!.addresses]).sort(), [['IPv4', ['10.1.0.1']], ['IPv6', ['fd00::1']]]);
  });

  it('a pod on a node that does not exist is left out and reported (kept with publishNotReadyAddresses)', () => {
    const pods = [testPod({ name: 'a', ip: '10.1.0.1', node: 'ghost' }), testPod({ name: 'b', ip: '10.1.0.2' })];
    const p = plan(testService(), pods);
    assert.deepEqual(p.create.flatMap((s) => s.endpoints.map((e) => e.targetRef?.name)), ['b']);
    assert.deepEqual(p.errors, ['skipping Pod a for Service ns/svc: Node ghost Not Found']);
    const q = plan(testService({ publishNotReadyAddresses: true }), pods);
    assert.deepEqual(q.create.flatMap((s) => s.endpoints.map((e) => e.targetRef?.name)), ['a', 'b']);
    assert.equal(q.create[0]!.endpoints[0]!.zone, undefined);
  });

  it('labels follow the service: an unchanged slice is updated for them', () => {
    const svc = testService();
    const have = existing('a', svc, manyPods(2));
    const p = plan(testService({}, 'svc', { team: 'x' }), manyPods(2), [have]);
    assert.deepEqual(p.update.map((s) => s.metadata.labels), [{ team: 'x', 'kubernetes.io/service-name': 'svc', 'endpointslice.kubernetes.io/managed-by': CONTROLLER_NAME }]);
  });
});

describe('planSlices: placeholders, recycling, ownership, address types', () => {
  const svc = testService();
  it('no endpoints: one empty placeholder slice', () => {
    const p = plan(svc, []);
    assert.deepEqual(sizes(p.create), [0]);
    assert.deepEqual(p.create[0]!.ports, []);
  });
  it('the placeholder is kept as it is', () => {
    const placeholder = existing('ph', svc, [], []);
    const p = plan(svc, [], [placeholder]);
    assert.deepEqual([p.create, p.update, p.delete], [[], [], []]);
  });
  it('a create replacing a deleted slice becomes an update of it', () => {
    const p = plan(svc, [], [existing('a', svc, manyPods(3))]);
    assert.deepEqual(p.create, []);
    assert.deepEqual(p.delete, []);
    assert.deepEqual(p.update.map((s) => [s.metadata.name, s.metadata.generateName, s.endpoints.length, s.ports]), [['a', undefined, 0, []]]);
  });
  it('a slice owned by another object (an older service of the same name) is deleted, not recycled', () => {
    const stranger = existing('old', svc, manyPods(3));
    stranger.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Service', name: 'svc', uid: 'older-uid', controller: true }];
    const p = plan(svc, manyPods(3), [stranger]);
    assert.deepEqual(p.delete.map((s) => s.metadata.name), ['old']);
    assert.deepEqual(sizes(p.create), [3]);
  });
  it('a slice of an address type the service no longer has is deleted', () => {
    const v6 = existing('v6', svc, []);
    v6.addressType = 'IPv6';
    const p = plan(svc, manyPods(1), [v6]);
    assert.deepEqual(p.delete.map((s) => s.metadata.name), ['v6']);
    assert.deepEqual(sizes(p.create), [1]);
  });
  it('a changed endpoint (readiness) updates its slice in place', () => {
    const have = existing('a', svc, manyPods(2));
    const pods = manyPods(2);
    pods[1] = testPod({ name: 'p1', ip: '10.1.0.2', ready: false });
    const p = plan(svc, pods, [have]);
    assert.deepEqual(p.update.map((s) => s.endpoints.map((e) => e.conditions?.ready)), [[true, false]]);
  });
});

describe('sliceToFill', () => {
  const slice = (n: number) => ({ endpoints: Array(n).fill({ addresses: [] }) }) as unknown as EndpointSlice;
  const rows = [
    { name: 'the one closest to full', sizes: [10, 50, 80], n: 15, want: 80 },
    { name: 'an exact fit wins', sizes: [50, 85, 60], n: 15, want: 85 },
    { name: 'none with room', sizes: [90, 95], n: 15, want: undefined },
    { name: 'an empty list', sizes: [], n: 1, want: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.equal(sliceToFill(r.sizes.map(slice), r.n, 100)?.endpoints.length, r.want));
});
