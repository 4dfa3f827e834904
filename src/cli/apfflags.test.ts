// --enable-priority-and-fairness: default on; with APF on, the in-flight
// flags must add up to something positive (kube's message); off, or with the
// gate off, zero limits mean "no limit" as before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, parseFlags, type FlagSpec } from './flags.js';
import { APF_FLAGS, apfOptions } from './apfflags.js';
import { FeatureGates } from '../features/gates.js';

const INFLIGHT: FlagSpec[] = [
  { name: 'max-requests-inflight', type: 'int', help: '', default: 400 },
  { name: 'max-mutating-requests-inflight', type: 'int', help: '', default: 200 },
];
const parse = (argv: string[], gates = '') => apfOptions(parseFlags([...APF_FLAGS, ...INFLIGHT], argv).values, FeatureGates.parse(gates));

describe('APF flags', () => {
  it('on by default', () => assert.deepEqual(parse([]), { enablePriorityAndFairness: true }));
  it('turned off', () => assert.deepEqual(parse(['--enable-priority-and-fairness=false']), { enablePriorityAndFairness: false }));
  it('zero limits with APF on: refused with kube\'s message', () => {
    assert.throws(() => parse(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0']), (e: unknown) => e instanceof FlagError &&
      e.message === 'invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive');
  });
  it('zero limits with APF off or its gate off: accepted', () => {
    assert.deepEqual(parse(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0', '--enable-priority-and-fairness=false']), { enablePriorityAndFairness: false });
    assert.deepEqual(parse(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0'], 'APIPriorityAndFairness=false'), { enablePriorityAndFairness: true });
  });
});
