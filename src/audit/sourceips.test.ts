import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalIP, sourceIPs } from './sourceips.js';

describe('source IPs (kube utilnet.SourceIPs)', () => {
  const cases: [string, Record<string, string>, string | undefined, string[]][] = [
    ['the peer alone', {}, '127.0.0.1', ['127.0.0.1']],
    ['an IPv4-mapped peer as IPv4', {}, '::ffff:10.0.0.7', ['10.0.0.7']],
    ['an IPv6 peer compressed, lower case', {}, '2001:DB8:0:0:0:0:0:1', ['2001:db8::1']],
    ['no peer, no headers', {}, undefined, []],
    ['X-Forwarded-For, then the peer', { 'x-forwarded-for': '1.2.3.4, 5.6.7.8' }, '127.0.0.1', ['1.2.3.4', '5.6.7.8', '127.0.0.1']],
    ['the peer not repeated when last', { 'x-forwarded-for': '1.2.3.4, 127.0.0.1' }, '127.0.0.1', ['1.2.3.4', '127.0.0.1']],
    ['invalid forwarded entries skipped', { 'x-forwarded-for': 'nonsense, 9.9.9.9' }, '127.0.0.1', ['9.9.9.9', '127.0.0.1']],
    ['X-Real-Ip unless listed', { 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '1.2.3.4' }, '127.0.0.1', ['1.2.3.4', '127.0.0.1']],
    ['X-Real-Ip alone', { 'x-real-ip': '8.8.8.8' }, '::ffff:127.0.0.1', ['8.8.8.8', '127.0.0.1']],
  ];
  for (const [name, headers, peer, want] of cases) {
    it(name, () => assert.deepEqual([...sourceIPs(headers, peer)], want));
  }

  it('a peer without proxy headers: one shared frozen list', () => {
    const a = sourceIPs({}, '192.0.2.1');
    assert.equal(sourceIPs({}, '192.0.2.1'), a);
    assert.ok(Object.isFrozen(a));
    assert.notEqual(sourceIPs({ 'x-real-ip': '192.0.2.9' }, '192.0.2.1'), a);
  });

  it('canonicalIP refuses what is not an address', () => {
    assert.equal(canonicalIP('host.example'), undefined);
    assert.equal(canonicalIP(' 10.1.2.3 '), '10.1.2.3');
  });
});
