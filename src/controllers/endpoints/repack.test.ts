// RepackSubsets as kube's pkg/api/v1/endpoints: addresses grouped by the ports
// they serve, readiness per port, sorted addresses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointAddress, EndpointSubset } from '../endpointslice/types.js';
import { lessAddress, repackSubsets } from './repack.js';

const a = (ip: string, uid?: string): EndpointAddress => ({ ip, ...(uid ? { targetRef: { kind: 'Pod', name: uid, uid } } : {}) });
const port = (name: string, p: number) => ({ name, port: p, protocol: 'TCP' });

/** Subsets as `ready|notReady|ports`, order-free. */
const shape = (subsets: EndpointSubset[]) => subsets.map((s) => [
  (s.addresses ?? []).map((x) => x.ip).join(','), (s.notReadyAddresses ?? []).map((x) => x.ip).join(','),
  (s.ports ?? []).map((p) => `${p.name}:${p.port}`).sort().join(','),
].join('|')).sort();

describe('repackSubsets', () => {
  const rows: { name: string; in: EndpointSubset[]; want: string[] }[] = [
    { name: 'nothing', in: [], want: [] },
    {
      name: 'addresses with the same port join one subset',
      in: [{ addresses: [a('10.0.0.2')], ports: [port('http', 80)] }, { addresses: [a('10.0.0.1')], ports: [port('http', 80)] }],
      want: ['10.0.0.1,10.0.0.2||http:80'],
    },
    {
      name: 'an address\'s ports from several subsets join',
      in: [{ addresses: [a('10.0.0.1')], ports: [port('http', 80)] }, { addresses: [a('10.0.0.1')], ports: [port('https', 443)] }],
      want: ['10.0.0.1||http:80,https:443'],
    },
    {
      name: 'different port sets stay apart',
      in: [{ addresses: [a('10.0.0.1')], ports: [port('http', 8080)] }, { addresses: [a('10.0.0.2')], ports: [port('http', 9090)] }],
      want: ['10.0.0.1||http:8080', '10.0.0.2||http:9090'],
    },
    {
      name: 'ready and not ready addresses of a port share its subset',
      in: [{ addresses: [a('10.0.0.1')], ports: [port('http', 80)] }, { notReadyAddresses: [a('10.0.0.2')], ports: [port('http', 80)] }],
      want: ['10.0.0.1|10.0.0.2|http:80'],
    },
    {
      name: 'ready wins over not ready for the same address and port',
      in: [{ notReadyAddresses: [a('10.0.0.1')], ports: [port('http', 80)] }, { addresses: [a('10.0.0.1')], ports: [port('http', 80)] }],
      want: ['10.0.0.1||http:80'],
    },
    {
      name: 'an address ready on one port and not on another splits',
      in: [{ addresses: [a('10.0.0.1')], ports: [port('http', 80)] }, { notReadyAddresses: [a('10.0.0.1')], ports: [port('https', 443)] }],
      want: ['10.0.0.1||http:80', '|10.0.0.1|https:443'],
    },
    {
      name: 'subsets without ports are kept, without ports',
      in: [{ addresses: [a('10.0.0.2')] }, { addresses: [a('10.0.0.1')], ports: [] }],
      want: ['10.0.0.1,10.0.0.2||'],
    },
    {
      name: 'the same IP behind two pods is two addresses',
      in: [{ addresses: [a('10.0.0.1', 'u2'), a('10.0.0.1', 'u1')], ports: [port('http', 80)] }],
      want: ['10.0.0.1,10.0.0.1||http:80'],
    },
  ];
  for (const r of rows) it(r.name, () => assert.deepEqual(shape(repackSubsets(r.in)), r.want));

  it('sorts addresses by IP bytes, then target uid (none first)', () => {
    const [s] = repackSubsets([{ addresses: [a('10.0.0.10', 'b'), a('10.0.0.9'), a('10.0.0.10', 'a'), a('10.0.0.10')], ports: [port('p', 1)] }]);
    assert.deepEqual(s!.addresses!.map((x) => `${x.ip}/${x.targetRef?.uid ?? ''}`), ['10.0.0.10/', '10.0.0.10/a', '10.0.0.10/b', '10.0.0.9/']);
    assert.equal(lessAddress(a('1.1.1.1', 'x'), a('1.1.1.1')), false);
  });

  it('gives the same result whatever the input order', () => {
    const subsets: EndpointSubset[] = [
      { addresses: [a('10.0.0.1')], ports: [port('http', 80)] }, { addresses: [a('10.0.0.2')], ports: [port('http', 81)] },
      { notReadyAddresses: [a('10.0.0.3')], ports: [port('http', 80)] }, { addresses: [a('10.0.0.1')], ports: [port('x', 9)] },
    ];
    assert.deepEqual(repackSubsets([...subsets].reverse()), repackSubsets(subsets));
  });

  it('does not change its input', () => {
    const input: EndpointSubset[] = [{ addresses: [a('10.0.0.2'), a('10.0.0.1')], ports: [port('http', 80)] }];
    const copy = structuredClone(input);
    repackSubsets(input);
    assert.deepEqual(input, copy);
  });
});
