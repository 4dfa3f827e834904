// The Endpoints of a Service, table-driven: which pods, which addresses, which
// ports, readiness, hostnames, IP families; truncation past 1000 addresses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { manyPods, testPod, testService } from '../endpointslice/testpods.js';
import type { EndpointSubset, Pod, Service } from '../endpointslice/types.js';
import { capacityAnnotationCorrect, desiredSubsets, podAddress, subsetsEqual, truncateSubsets } from './desired.js';

const shape = (subsets: EndpointSubset[]) => subsets.map((s) => [
  (s.addresses ?? []).map((x) => x.ip).join(','), (s.notReadyAddresses ?? []).map((x) => x.ip).join(','),
  (s.ports ?? []).map((p) => `${p.name}:${p.port}`).sort().join(','),
].join('|')).sort();

describe('desiredSubsets', () => {
  const named = testService({ ports: [{ name: 'http', port: 80, targetPort: 'web', protocol: 'TCP' }, { name: 'admin', port: 81, targetPort: 9000, protocol: 'TCP' }] });
  const rows: { name: string; svc: Service; pods: Pod[]; want: string[] }[] = [
    { name: 'ready pods as addresses', svc: testService(), pods: [testPod({ name: 'a', ip: '10.0.0.1' }), testPod({ name: 'b', ip: '10.0.0.2' })], want: ['10.0.0.1,10.0.0.2||http:8080'] },
    { name: 'an unready pod as a not-ready address', svc: testService(), pods: [testPod({ name: 'a', ip: '10.0.0.1', ready: false })], want: ['|10.0.0.1|http:8080'] },
    { name: 'publishNotReadyAddresses: unready pods ready', svc: testService({ publishNotReadyAddresses: true }), pods: [testPod({ name: 'a', ip: '10.0.0.1', ready: false })], want: ['10.0.0.1||http:8080'] },
    { name: 'a terminating pod is left out', svc: testService(), pods: [testPod({ name: 'a', ip: '10.0.0.1', terminating: true })], want: [] },
    { name: 'a terminating pod stays with publishNotReadyAddresses', svc: testService({ publishNotReadyAddresses: true }), pods: [testPod({ name: 'a', ip: '10.0.0.1', terminating: true })], want: ['10.0.0.1||http:8080'] },
    { name: 'finished pods and pods without IPs are left out', svc: testService(), pods: [testPod({ name: 'a', ip: '10.0.0.1', phase: 'Succeeded' }), testPod({ name: 'b' })], want: [] },
    {
      // repacked by address set per port: the numbered port's three addresses form one subset
      name: 'named target ports resolve per pod; a pod without the name serves the numbered port only', svc: named,
      pods: [
        testPod({ name: 'a', ip: '10.0.0.1', ports: [{ name: 'web', containerPort: 8080 }] }),
        testPod({ name: 'b', ip: '10.0.0.2', ports: [{ name: 'web', containerPort: 8081 }] }),
        testPod({ name: 'c', ip: '10.0.0.3', ports: [] }),
      ],
      want: ['10.0.0.1,10.0.0.2,10.0.0.3||admin:9000', '10.0.0.1||http:8080', '10.0.0.2||http:8081'],
    },
    { name: 'a headless service without ports: addresses without ports', svc: testService({ clusterIP: 'None', ports: [] }), pods: [testPod({ name: 'a', ip: '10.0.0.1' })], want: ['10.0.0.1||'] },
    { name: 'a service with a cluster IP and no ports: nothing', svc: testService({ ports: [] }), pods: [testPod({ name: 'a', ip: '10.0.0.1' })], want: [] },
    { name: 'an IPv6 service takes the pods\' IPv6 addresses', svc: testService({ ipFamilies: ['IPv6'], clusterIP: 'fd00::10' }), pods: [testPod({ name: 'a', ip: ['10.0.0.1', 'fd00::1'] }), testPod({ name: 'b', ip: '10.0.0.2' })], want: ['fd00::1||http:8080'] },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(shape(desiredSubsets(r.svc, r.pods)), r.want));

  it('an address: IP, node, target; the hostname when the pod names the service as its subdomain', () => {
    const svc = testService({ clusterIP: 'None' }, 'db');
    assert.deepEqual(podAddress(svc, testPod({ name: 'a', ip: '10.0.0.1' })), { ip: '10.0.0.1', nodeName: 'n1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'a', uid: 'uid-a' } });
    const [s] = desiredSubsets(svc, [testPod({ name: 'db-0', ip: '10.0.0.1', hostname: 'db-0', subdomain: 'db' })]);
    assert.equal(s!.addresses![0]!.hostname, 'db-0');
  });
});

describe('truncateSubsets', () => {
  const sub = (ready: number, notReady: number, from: number): EndpointSubset => ({
    ...(ready ? { addresses: Array.from({ length: ready }, (_, i) => ({ ip: `10.${from}.${Math.floor(i / 250)}.${i % 250}` })) } : {}),
    ...(notReady ? { notReadyAddresses: Array.from({ length: notReady }, (_, i) => ({ ip: `11.${from}.${Math.floor(i / 250)}.${i % 250}` })) } : {}),
    ports: [{ name: 'p', port: from }],
  });
  const counts = (subsets: EndpointSubset[]) => subsets.map((s) => [s.addresses?.length ?? 0, s.notReadyAddresses?.length ?? 0]);
  const rows: { name: string; in: [number, number][]; truncated: boolean; want: [number, number][] }[] = [
    { name: 'at capacity: untouched', in: [[600, 0], [300, 100]], truncated: false, want: [[600, 0], [300, 100]] },
    { name: 'not-ready addresses are cut first, in proportion', in: [[500, 300], [300, 100]], truncated: true, want: [[500, 150], [300, 50]] },
    { name: 'too many ready ones: every not-ready one goes, the ready ones in proportion', in: [[900, 10], [300, 0]], truncated: true, want: [[750, 0], [250, 0]] },
    { name: 'rounding up leaves the last subset what remains', in: [[700, 0], [350, 0], [350, 0]], truncated: true, want: [[500, 0], [250, 0], [250, 0]] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const subsets = r.in.map(([ready, nr], i) => sub(ready, nr, i + 1));
      assert.equal(truncateSubsets(subsets), r.truncated);
      assert.deepEqual(counts(subsets), r.want);
    });
  }
  it('the over-capacity annotation is right only under capacity and absent', () => {
    const key = 'endpoints.kubernetes.io/over-capacity';
    assert.equal(capacityAnnotationCorrect(undefined, [sub(10, 0, 1)]), true);
    assert.equal(capacityAnnotationCorrect({ [key]: 'truncated' }, [sub(10, 0, 1)]), false);
    assert.equal(capacityAnnotationCorrect(undefined, [sub(1001, 0, 1)]), false);
    assert.equal(capacityAnnotationCorrect(undefined, [sub(11, 0, 1)], 10), false);
  });
  it('1200 pods: 1000 addresses', () => {
    const subsets = desiredSubsets(testService(), manyPods(1200));
    assert.equal(truncateSubsets(subsets), true);
    assert.equal(subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0), 1000);
  });
});

describe('subsetsEqual', () => {
  it('ignores the targets\' resourceVersions and empty lists; sees everything else', () => {
    const one: EndpointSubset[] = [{ addresses: [{ ip: '10.0.0.1', targetRef: { kind: 'Pod', name: 'a', uid: 'u', resourceVersion: '5' } }], ports: [{ name: 'p', port: 1, protocol: 'TCP' }] }];
    const two: EndpointSubset[] = [{ addresses: [{ ip: '10.0.0.1', targetRef: { uid: 'u', name: 'a', kind: 'Pod' } }], notReadyAddresses: [], ports: [{ name: 'p', port: 1, protocol: 'TCP' }] }];
    assert.equal(subsetsEqual(one, two), true);
    assert.equal(subsetsEqual(one, [{ ...two[0]!, ports: [{ name: 'p', port: 2, protocol: 'TCP' }] }]), false);
    assert.equal(subsetsEqual(undefined, []), true);
    assert.equal(subsetsEqual(one, []), false);
  });
});
