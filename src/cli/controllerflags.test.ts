import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_GATES } from '../features/gates.js';
import { CONTROLLER_FLAGS, controllerOptions } from './controllerflags.js';
import { parseFlags } from './flags.js';

const parse = (...argv: string[]) => controllerOptions(parseFlags(CONTROLLER_FLAGS, argv).values, DEFAULT_GATES);

describe('controller manager flags', () => {
  it('kube\'s defaults', () => {
    assert.deepEqual(parse(), {
      controllers: ['*'],
      leaderElection: { leaderElect: true, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
      concurrentSyncs: { daemonset: 2, deployment: 5, garbagecollector: 20, namespace: 10, replicaset: 5, resourcequota: 5, 'serviceaccount-token': 5, statefulset: 5, 'ttl-after-finished': 5 },
      simulatedNodes: 0,
    });
  });

  it('values as given: lists, Go durations, per-controller concurrency, scheduler config, nodes', () => {
    const o = parse('--controllers=*,-namespace', '--controllers', 'tokencleaner', '--leader-elect-lease-duration=1m', '--leader-elect-renew-deadline=30s',
      '--leader-elect-retry-period=5s', '--concurrent-namespace-syncs=2', '--concurrent-gc-syncs', '7', '--scheduler-config=/etc/s.yaml', '--simulated-nodes=3');
    assert.deepEqual(o.controllers, ['*', '-namespace', 'tokencleaner']);
    assert.deepEqual(o.leaderElection, { leaderElect: true, leaseDurationMs: 60_000, renewDeadlineMs: 30_000, retryPeriodMs: 5_000 });
    assert.equal(o.concurrentSyncs.namespace, 2);
    assert.equal(o.concurrentSyncs.garbagecollector, 7);
    assert.equal(o.schedulerConfig, '/etc/s.yaml');
    assert.equal(o.simulatedNodes, 3);
  });

  const refusals: [string[], string][] = [
    [['--controllers=nosuch'], '"nosuch" is not in the list of known controllers'],
    [['--leader-elect-renew-deadline=15s'], 'leaseDuration must be greater than renewDeadline'],
    [['--leader-elect-retry-period=9s'], 'renewDeadline must be greater than retryPeriod*JitterFactor'],
    [['--leader-elect-retry-period=0'], 'retryPeriod must be greater than zero'],
    [['--concurrent-namespace-syncs=0'], 'invalid value 0 for --concurrent-namespace-syncs: must be at least 1'],
    [['--simulated-nodes=-1'], 'invalid value -1 for --simulated-nodes: must not be negative'],
  ];
  for (const [argv, message] of refusals) {
    it(`refuses ${argv.join(' ')}`, () => assert.throws(() => parse(...argv), { message }));
  }

  it('without --leader-elect the timings are not checked', () => {
    assert.equal(parse('--leader-elect=false', '--leader-elect-renew-deadline=1h').leaderElection?.leaderElect, false);
  });
});
