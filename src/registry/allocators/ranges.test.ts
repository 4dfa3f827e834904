// Flag parsing for --service-cluster-ip-range and --service-node-port-range,
// and the order dynamic allocation tries offsets in.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterIPPool, nodePortPool, parseClusterIPRange, parseNodePortRange, scanOrder, formatIPv4, parseIPv4 } from './ranges.js';

describe('parseClusterIPRange', () => {
  const ok: [string, { cidr: string; size: number }][] = [
    ['10.0.0.0/24', { cidr: '10.0.0.0/24', size: 254 }],
    ['10.96.0.0/12', { cidr: '10.96.0.0/12', size: 2 ** 20 - 2 }],
    ['10.0.0.5/24', { cidr: '10.0.0.0/24', size: 254 }], // host bits masked, as Go's ParseCIDR
    [' 192.168.1.0/29 ', { cidr: '192.168.1.0/29', size: 6 }],
    ['192.168.1.4/30', { cidr: '192.168.1.4/30', size: 2 }],
  ];
  for (const [text, want] of ok) {
    it(`accepts ${JSON.stringify(text)}`, () => {
      const r = parseClusterIPRange(text);
      assert.equal(r.cidr, want.cidr);
      assert.equal(r.size, want.size);
      assert.equal(r.family, 'IPv4');
    });
  }

  const bad: [string, RegExp][] = [
    ['', /a CIDR such as 10\.0\.0\.0\/24 is required/],
    ['10.0.0.0', /not a CIDR/],
    ['foo/24', /"foo" is not an IPv4 address/],
    ['300.0.0.0/24', /"300\.0\.0\.0" is not an IPv4 address/],
    ['10.0.0.0/33', /"33" is not a prefix length between 0 and 32/],
    ['10.0.0.0/x', /"x" is not a prefix length/],
    ['10.0.0.0/8', /too large; for 32-bit addresses, the mask must be >= 12/],
    ['10.0.0.0/31', /has no allocatable addresses/],
    ['10.0.0.0/32', /has no allocatable addresses/],
    ['fd00::/108', /IPv6 service cluster IP ranges are not supported yet/],
    ['10.0.0.0/24,fd00::/108', /dual-stack service cluster IP ranges are not supported yet/],
  ];
  for (const [text, re] of bad) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseClusterIPRange(text), (err: Error) => {
        assert.match(err.message, /^invalid --service-cluster-ip-range /);
        assert.match(err.message, re);
        return true;
      });
    });
  }
});

describe('parseNodePortRange', () => {
  const ok: [string, { base: number; size: number }][] = [
    ['30000-32767', { base: 30000, size: 2768 }],
    ['30000+10', { base: 30000, size: 11 }],
    ['30080', { base: 30080, size: 1 }],
    ['1-65535', { base: 1, size: 65535 }],
  ];
  for (const [text, want] of ok) {
    it(`accepts ${JSON.stringify(text)}`, () => assert.deepEqual(parseNodePortRange(text), want));
  }
  const bad: [string, RegExp][] = [
    ['', /a range such as 30000-32767 is required/],
    ['abc', /expected <first>-<last>/],
    ['30000-', /expected <first>-<last>/],
    ['30000-32767-1', /expected <first>-<last>/],
    ['32767-30000', /the last port 30000 is below the first port 32767/],
    ['0-10', /port 0 is not between 1 and 65535/],
    ['30000-70000', /port 70000 is not between 1 and 65535/],
    ['65535+1', /port 65536 is not between 1 and 65535/],
  ];
  for (const [text, re] of bad) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseNodePortRange(text), (err: Error) => {
        assert.match(err.message, /^invalid --service-node-port-range /);
        assert.match(err.message, re);
        return true;
      });
    });
  }
});

describe('pools and scan order', () => {
  it('a /24 hands out .1 to .254, never the network or broadcast address', () => {
    const pool = clusterIPPool(parseClusterIPRange('10.0.0.0/24'));
    assert.equal(formatIPv4(pool.valueAt(0)), '10.0.0.1');
    assert.equal(formatIPv4(pool.valueAt(pool.size - 1)), '10.0.0.254');
    assert.equal(pool.offsetOf(parseIPv4('10.0.0.0')!), undefined);
    assert.equal(pool.offsetOf(parseIPv4('10.0.0.255')!), undefined);
    assert.equal(pool.offsetOf(parseIPv4('10.0.1.1')!), undefined);
    assert.equal(pool.offsetOf(parseIPv4('10.0.0.17')!), 16);
  });

  it('static bands follow min(max(16, size/16), 256)', () => {
    const band = (cidr: string) => clusterIPPool(parseClusterIPRange(cidr)).staticBand;
    assert.equal(band('10.0.0.0/29'), 0);
    assert.equal(band('10.0.0.0/28'), 0);
    assert.equal(band('10.0.0.0/27'), 16);
    assert.equal(band('10.0.0.0/24'), 16);
    assert.equal(band('10.0.0.0/20'), 256);
    assert.equal(band('10.0.0.0/12'), 256);
    assert.equal(nodePortPool(parseNodePortRange('30000-32767')).staticBand, 0);
  });

  it('visits every offset once, the upper part before the static band', () => {
    const pool = clusterIPPool(parseClusterIPRange('10.0.0.0/24'));
    for (const r of [0, 0.37, 0.999]) {
      const order = [...scanOrder(pool, () => r)];
      assert.equal(order.length, 254);
      assert.equal(new Set(order).size, 254);
      assert.ok(order.slice(0, 238).every((o) => o >= 16));
      assert.ok(order.slice(238).every((o) => o < 16));
    }
    // A start of 0 begins at the first address above the band: 10.0.0.17.
    assert.equal(formatIPv4(pool.valueAt([...scanOrder(pool, () => 0)][0]!)), '10.0.0.17');
    // Random start, linear scan, wrapping.
    const order = [...scanOrder({ size: 10, staticBand: 0 }, () => 0.5)];
    assert.deepEqual(order, [5, 6, 7, 8, 9, 0, 1, 2, 3, 4]);
  });
});
