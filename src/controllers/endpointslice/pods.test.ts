// Port resolution, membership in endpoints and readiness as kube's podutil and endpointslice util.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findPort, podChangeMatters, podIPs, shouldPodBeInEndpoints, shouldSetHostname } from './pods.js';
import { testPod, testService } from './testpods.js';
import type { ServicePort } from './types.js';

describe('findPort', () => {
  const pod = testPod({ name: 'p', ports: [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 53, protocol: 'UDP' }, { name: 'metrics', containerPort: 9090, protocol: 'TCP' }] });
  const rows: { name: string; port: ServicePort; want: number | undefined }[] = [
    { name: 'a number is taken as it is', port: { port: 80, targetPort: 1234, protocol: 'TCP' }, want: 1234 },
    { name: 'no targetPort: the port', port: { port: 80, protocol: 'TCP' }, want: 80 },
    { name: 'a name finds the container port', port: { port: 80, targetPort: 'http', protocol: 'TCP' }, want: 8080 },
    { name: 'the protocol must match (TCP by default on both sides)', port: { port: 80, targetPort: 'http' }, want: 8080 },
    { name: 'a UDP name', port: { port: 53, targetPort: 'dns', protocol: 'UDP' }, want: 53 },
    { name: 'a name with the wrong protocol finds nothing', port: { port: 53, targetPort: 'dns', protocol: 'TCP' }, want: undefined },
    { name: 'an unknown name finds nothing', port: { port: 80, targetPort: 'nope', protocol: 'TCP' }, want: undefined },
  ];
  for (const r of rows) it(r.name, () => assert.equal(findPort(pod, r.port), r.want));
});

describe('shouldPodBeInEndpoints', () => {
  const rows = [
    { name: 'a running pod with an IP', pod: testPod({ name: 'p', ip: '10.0.0.1' }), includeTerminating: false, want: true },
    { name: 'no IP yet', pod: testPod({ name: 'p' }), includeTerminating: false, want: false },
    { name: 'succeeded', pod: testPod({ name: 'p', ip: '10.0.0.1', phase: 'Succeeded' }), includeTerminating: true, want: false },
    { name: 'failed', pod: testPod({ name: 'p', ip: '10.0.0.1', phase: 'Failed' }), includeTerminating: true, want: false },
    { name: 'terminating, not included', pod: testPod({ name: 'p', ip: '10.0.0.1', terminating: true }), includeTerminating: false, want: false },
    { name: 'terminating, included', pod: testPod({ name: 'p', ip: '10.0.0.1', terminating: true }), includeTerminating: true, want: true },
  ];
  for (const r of rows) it(r.name, () => assert.equal(shouldPodBeInEndpoints(r.pod, r.includeTerminating), r.want));
});

describe('pods', () => {
  it('podIPs: status.podIPs, else status.podIP', () => {
    assert.deepEqual(podIPs(testPod({ name: 'p', ip: ['10.0.0.1', 'fd00::1'] })), ['10.0.0.1', 'fd00::1']);
    const old = testPod({ name: 'p' });
    old.status!.podIP = '10.0.0.9';
    assert.deepEqual(podIPs(old), ['10.0.0.9']);
  });
  it('shouldSetHostname: hostname set and subdomain naming the service in its namespace', () => {
    const svc = testService({}, 'db');
    assert.equal(shouldSetHostname(testPod({ name: 'p', hostname: 'db-0', subdomain: 'db' }), svc), true);
    assert.equal(shouldSetHostname(testPod({ name: 'p', hostname: 'db-0', subdomain: 'other' }), svc), false);
    assert.equal(shouldSetHostname(testPod({ name: 'p', subdomain: 'db' }), svc), false);
  });
  it('podChangeMatters: readiness, IPs, labels, deletion count; an annotation does not', () => {
    const base = testPod({ name: 'p', ip: '10.0.0.1' });
    assert.equal(podChangeMatters(base, { ...base, metadata: { ...base.metadata, annotations: { a: 'b' } } }), false);
    assert.equal(podChangeMatters(base, testPod({ name: 'p', ip: '10.0.0.1', ready: false, readySince: '2026-01-02T00:00:00Z' })), true);
    assert.equal(podChangeMatters(base, testPod({ name: 'p', ip: '10.0.0.2' })), true);
    assert.equal(podChangeMatters(base, testPod({ name: 'p', ip: '10.0.0.1', labels: { app: 'b' } })), true);
    assert.equal(podChangeMatters(base, testPod({ name: 'p', ip: '10.0.0.1', terminating: true })), true);
  });
});
