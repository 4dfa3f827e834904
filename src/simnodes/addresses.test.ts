import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PodAddresses, defaultPodCIDR, nodeInternalIP } from './addresses.js';

describe('simulated node addresses', () => {
  it('gives node i the (i+1)-th address of 198.18.0.0/15 and a /24 of 10.244.0.0/14', () => {
    const cases: [number, string, string][] = [
      [0, '198.18.0.1', '10.244.0.0/24'],
      [1, '198.18.0.2', '10.244.1.0/24'],
      [254, '198.18.0.255', '10.244.254.0/24'],
      [255, '198.18.1.0', '10.244.255.0/24'],
      [256, '198.18.1.1', '10.245.0.0/24'],
      [3071, '198.18.12.0', '10.255.255.0/24'],
    ];
    for (const [i, ip, cidr] of cases) {
      assert.equal(nodeInternalIP(i), ip, `node ${i}`);
      assert.equal(defaultPodCIDR(i), cidr, `node ${i}`);
    }
    assert.throws(() => defaultPodCIDR(3072), /at most 3072 nodes/);
    assert.throws(() => nodeInternalIP(-1), RangeError);
  });

  it('hands out .2 … .254 of a /24, never twice, and reuses released ones', () => {
    const a = new PodAddresses('10.244.3.0/24');
    const got = new Set<string>();
    for (let i = 0; i < 253; i++) got.add(a.allocate()!);
    assert.equal(got.size, 253);
    assert.ok(got.has('10.244.3.2') && got.has('10.244.3.254') && !got.has('10.244.3.1') && !got.has('10.244.3.255'));
    assert.equal(a.allocate(), undefined, 'full');
    a.release('10.244.3.77');
    assert.equal(a.allocate(), '10.244.3.77');
  });

  it('skips reserved addresses (pods found running) and takes a node\'s own podCIDR', () => {
    const a = new PodAddresses('10.1.2.0/24');
    a.reserve('10.1.2.2');
    assert.equal(a.allocate(), '10.1.2.3');
    const small = new PodAddresses('192.168.7.8/29');
    assert.deepEqual([small.allocate(), small.allocate(), small.allocate(), small.allocate(), small.allocate(), small.allocate()],
      ['192.168.7.10', '192.168.7.11', '192.168.7.12', '192.168.7.13', '192.168.7.14', undefined]);
  });

  it('refuses ranges it cannot use', () => {
    for (const bad of ['fd00::/64', '10.0.0.0', '10.0.0.0/31', '300.0.0.0/24', '10.0.0.0/7']) assert.throws(() => new PodAddresses(bad), RangeError, bad);
  });
});
