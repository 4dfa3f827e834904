import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResolvConf, podDNS, type DnsOptions } from './dns.js';
import { MemoryEvents } from './events.js';
import { testPod } from './testpods.js';
import type { PodSpec } from './types.js';

const HOST = 'nameserver 192.168.1.1\nnameserver 192.168.1.2 # second\nsearch corp.example. lab.example\noptions ndots:2 edns0\n';
const base: DnsOptions = { clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', resolvConf: '/etc/resolv.conf', readFile: () => HOST };
const CLUSTER_SEARCH = ['ns1.svc.cluster.local', 'svc.cluster.local', 'cluster.local'];

describe('host resolv.conf parsing', () => {
  it('reads servers, the last search line without trailing dots, and options', () => {
    assert.deepEqual(parseResolvConf(`${HOST}search other.example\n; comment\n`), {
      servers: ['192.168.1.1', '192.168.1.2'], searches: ['other.example'], options: ['ndots:2', 'edns0'],
    });
  });
});

describe('pod DNS per dnsPolicy', () => {
  const table: { name: string; spec: Partial<PodSpec>; opts?: Partial<DnsOptions>; want: { servers: string[]; searches: string[]; options: string[] }; events?: string[] }[] = [
    { name: 'ClusterFirst: cluster servers, namespace searches then the host searches, ndots:5', spec: { dnsPolicy: 'ClusterFirst' },
      want: { servers: ['10.96.0.10'], searches: [...CLUSTER_SEARCH, 'corp.example', 'lab.example'], options: ['ndots:5'] } },
    { name: 'ClusterFirst on host network is the host config', spec: { dnsPolicy: 'ClusterFirst', hostNetwork: true },
      want: { servers: ['192.168.1.1', '192.168.1.2'], searches: ['corp.example', 'lab.example'], options: ['ndots:2', 'edns0'] } },
    { name: 'ClusterFirstWithHostNet on host network is cluster DNS', spec: { dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true },
      want: { servers: ['10.96.0.10'], searches: [...CLUSTER_SEARCH, 'corp.example', 'lab.example'], options: ['ndots:5'] } },
    { name: 'Default is the host config', spec: { dnsPolicy: 'Default' },
      want: { servers: ['192.168.1.1', '192.168.1.2'], searches: ['corp.example', 'lab.example'], options: ['ndots:2', 'edns0'] } },
    { name: 'None with dnsConfig is exactly dnsConfig', spec: { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: ['a.example'], options: [{ name: 'ndots', value: '1' }, { name: 'rotate' }] } },
      want: { servers: ['1.1.1.1'], searches: ['a.example'], options: ['ndots:1', 'rotate'] } },
    { name: 'dnsConfig merges: duplicates dropped, options replaced by name', spec: { dnsConfig: { nameservers: ['10.96.0.10', '8.8.8.8'], searches: ['cluster.local', 'x.example'], options: [{ name: 'ndots', value: '2' }, { name: 'timeout', value: '1' }] } },
      want: { servers: ['10.96.0.10', '8.8.8.8'], searches: [...CLUSTER_SEARCH, 'corp.example', 'lab.example', 'x.example'], options: ['ndots:2', 'timeout:1'] } },
    { name: 'no --cluster-dns: the host config and a MissingClusterDNS event', spec: {}, opts: { clusterDNS: [] },
      want: { servers: ['192.168.1.1', '192.168.1.2'], searches: ['corp.example', 'lab.example'], options: ['ndots:2', 'edns0'] },
      events: ['kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.'] },
    { name: 'no --cluster-domain: only the host searches', spec: {}, opts: { clusterDomain: '' },
      want: { servers: ['10.96.0.10'], searches: ['corp.example', 'lab.example'], options: ['ndots:5'] } },
    { name: '--resolv-conf "" for host DNS: loopback server and "." search', spec: { dnsPolicy: 'Default' }, opts: { resolvConf: '' },
      want: { servers: ['127.0.0.1'], searches: ['.'], options: [] } },
    { name: 'more than 3 nameservers are cut with an event', spec: { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] } },
      want: { servers: ['1.1.1.1', '2.2.2.2', '3.3.3.3'], searches: [], options: [] },
      events: ['Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 1.1.1.1 2.2.2.2 3.3.3.3'] },
    { name: 'more than 32 searches are cut with an event', spec: { dnsPolicy: 'None', dnsConfig: { searches: Array.from({ length: 34 }, (_, i) => `s${i}.example`) } },
      want: { servers: [], searches: Array.from({ length: 32 }, (_, i) => `s${i}.example`), options: [] },
      events: [`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${Array.from({ length: 32 }, (_, i) => `s${i}.example`).join(' ')}`] },
    { name: 'without ExpandedDNSConfig 6 searches', spec: { dnsPolicy: 'None', dnsConfig: { searches: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] } }, opts: { expandedDNSConfig: false },
      want: { servers: [], searches: ['a', 'b', 'c', 'd', 'e', 'f'], options: [] },
      events: ['Search Line limits were exceeded, some search paths have been omitted, the applied search line is: a b c d e f'] },
    { name: 'a search line over 2048 characters loses searches from the end', spec: { dnsPolicy: 'None', dnsConfig: { searches: Array.from({ length: 10 }, (_, i) => `${String(i).repeat(250)}`) } },
      want: { servers: [], searches: Array.from({ length: 8 }, (_, i) => `${String(i).repeat(250)}`), options: [] },
      events: [`Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${Array.from({ length: 8 }, (_, i) => `${String(i).repeat(250)}`).join(' ')}`] },
  ];
  for (const c of table) {
    it(c.name, () => {
      const events = new MemoryEvents();
      const got = podDNS(testPod(c.spec), { ...base, ...c.opts }, events);
      assert.deepEqual(got, c.want);
      assert.deepEqual(events.events.map((e) => e.message), c.events ?? []);
      for (const e of events.events) assert.equal(e.type, 'Warning');
    });
  }
});
