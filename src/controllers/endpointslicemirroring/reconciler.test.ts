// The mirroring plan, table-driven: slices per subset and address type,
// labels and annotations carried over, invalid and excess addresses, kept,
// updated, deleted and recycled slices.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointSlice, Endpoints } from '../endpointslice/types.js';
import { addressTypeOf, CONTROLLER_NAME, planMirror } from './reconciler.js';

function endpoints(subsets: Endpoints['subsets'], meta: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}): Endpoints {
  return { metadata: { name: 'ext', namespace: 'ns', uid: 'ep-uid', ...meta }, subsets };
}
const https = [{ name: 'https', port: 8443, protocol: 'TCP' }];

describe('planMirror', () => {
  it('a subset becomes a slice: labels and annotations carried over (but the trigger time and last-applied), owned by the Endpoints', () => {
    const ep = endpoints([{ addresses: [{ ip: '10.0.0.1', nodeName: 'n1', hostname: 'h' }], notReadyAddresses: [{ ip: '10.0.0.2' }], ports: https }], {
      labels: { team: 'a' },
      annotations: { note: 'x', 'endpoints.kubernetes.io/last-change-trigger-time': 't', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
    });
    const p = planMirror(ep, []);
    assert.equal(p.create.length, 1);
    const s = p.create[0]!;
    assert.equal(s.metadata.generateName, 'ext-');
    assert.equal(s.addressType, 'IPv4');
    assert.deepEqual(s.metadata.labels, { team: 'a', 'kubernetes.io/service-name': 'ext', 'endpointslice.kubernetes.io/managed-by': CONTROLLER_NAME });
    assert.deepEqual(s.metadata.annotations, { note: 'x' });
    assert.deepEqual(s.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Endpoints', name: 'ext', uid: 'ep-uid', controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(s.ports, [{ name: 'https', port: 8443, protocol: 'TCP' }]);
    assert.deepEqual(s.endpoints, [
      { addresses: ['10.0.0.1'], conditions: { ready: true }, nodeName: 'n1', hostname: 'h' },
      { addresses: ['10.0.0.2'], conditions: { ready: false } },
    ]);
  });

  const rows: { name: string; ep: Endpoints; max?: number; want: string[]; invalid: number; skipped: number }[] = [
    { name: 'no subsets: nothing', ep: endpoints([]), want: [], invalid: 0, skipped: 0 },
    {
      name: 'IPv4 and IPv6 addresses: a slice each', ep: endpoints([{ addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], ports: https }]),
      want: ['IPv4 8443 10.0.0.1', 'IPv6 8443 fd00::1'], invalid: 0, skipped: 0,
    },
    {
      name: 'two port sets: a slice each', ep: endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: https }, { addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'x', port: 1, protocol: 'UDP' }] }]),
      want: ['IPv4 1 10.0.0.2', 'IPv4 8443 10.0.0.1'], invalid: 0, skipped: 0,
    },
    {
      name: 'what is not an IP is skipped and counted', ep: endpoints([{ addresses: [{ ip: '10.0.0.1' }, { ip: 'example.com' }, { ip: '300.1.1.1' }], ports: https }]),
      want: ['IPv4 8443 10.0.0.1'], invalid: 2, skipped: 2,
    },
    {
      name: 'at most maxEndpointsPerSubset per subset, ready ones first', ep: endpoints([{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], notReadyAddresses: [{ ip: '10.0.0.3' }], ports: https }]),
      max: 2, want: ['IPv4 8443 10.0.0.1,10.0.0.2'], invalid: 0, skipped: 1,
    },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const p = planMirror(r.ep, [], r.max);
      const got = p.create.map((s) => `${s.addressType} ${(s.ports ?? []).map((x) => x.port).join(',')} ${s.endpoints.map((e) => e.addresses[0]).join(',')}`).sort();
      assert.deepEqual(got, r.want);
      assert.equal(p.invalid, r.invalid);
      assert.equal(p.skipped, r.skipped);
    });
  }

  describe('with existing slices', () => {
    const ep = endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: https }], { labels: { team: 'a' } });
    const mirrored = (name: string, from: Endpoints): EndpointSlice => {
      const s = planMirror(from, []).create[0]!;
      s.metadata.name = name;
      s.metadata.uid = `uid-${name}`;
      delete s.metadata.generateName;
      return s;
    };
    it('the same endpoints, labels and annotations: nothing to do', () => {
      const p = planMirror(ep, [mirrored('a', ep)]);
      assert.deepEqual([p.create, p.update, p.delete], [[], [], []]);
    });
    it('a label changed: the slice is updated in place', () => {
      const p = planMirror(endpoints(ep.subsets, { labels: { team: 'b' } }), [mirrored('a', ep)]);
      assert.deepEqual(p.update.map((s) => [s.metadata.name, s.metadata.labels?.team]), [['a', 'b']]);
    });
    it('an address changed: the slice is updated in place', () => {
      const p = planMirror(endpoints([{ addresses: [{ ip: '10.0.0.9' }], ports: https }], { labels: { team: 'a' } }), [mirrored('a', ep)]);
      assert.deepEqual(p.update.map((s) => [s.metadata.name, s.endpoints.map((e) => e.addresses[0])]), [['a', ['10.0.0.9']]]);
    });
    it('two slices for one subset: the first kept, the other deleted', () => {
      const p = planMirror(ep, [mirrored('a', ep), mirrored('b', ep)]);
      assert.deepEqual([p.create.length, p.update.length, p.delete.map((s) => s.metadata.name)], [0, 0, ['b']]);
    });
    it('the ports changed: the old slice is recycled for the new port set', () => {
      const p = planMirror(endpoints([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'https', port: 9443, protocol: 'TCP' }] }], { labels: { team: 'a' } }), [mirrored('a', ep)]);
      assert.deepEqual([p.create, p.delete], [[], []]);
      assert.deepEqual(p.update.map((s) => [s.metadata.name, s.ports?.[0]?.port]), [['a', 9443]]);
    });
    it('no addresses left: the slice is deleted', () => {
      const p = planMirror(endpoints([], { labels: { team: 'a' } }), [mirrored('a', ep)]);
      assert.deepEqual(p.delete.map((s) => s.metadata.name), ['a']);
    });
  });
});

describe('addressTypeOf', () => {
  const rows: [string, string | undefined][] = [
    ['10.0.0.1', 'IPv4'], ['255.255.255.255', 'IPv4'], ['256.0.0.1', undefined], ['fd00::1', 'IPv6'], ['::', 'IPv6'],
    ['2001:db8:0:0:0:0:0:1', 'IPv6'], ['::ffff:10.0.0.1', 'IPv4'], ['1:2:3:4:5:6:7:8:9', undefined], ['example.com', undefined], ['', undefined],
  ];
  for (const [ip, want] of rows) it(`${ip || '(empty)'} → ${want}`, () => assert.equal(addressTypeOf(ip), want));
});
