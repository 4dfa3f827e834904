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
      settings: {
        nodeMonitorPeriodMs: 5_000, nodeMonitorGracePeriodMs: 40_000, nodeStartupGracePeriodMs: 60_000, nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01,
        unhealthyZoneThreshold: 0.55, largeClusterSizeThreshold: 50, terminatedPodGCThreshold: 12_500,
      },
      simulatedNodes: 0,
    });
  });

  it('node lifecycle and pod GC settings as given; a rate that is no number is refused with pflag\'s message', () => {
    const o = parse('--node-monitor-grace-period=1m', '--node-eviction-rate=0.5', '--unhealthy-zone-threshold', '0.7', '--terminated-pod-gc-threshold=0', '--large-cluster-size-threshold=10');
    assert.deepEqual([o.settings.nodeMonitorGracePeriodMs, o.settings.nodeEvictionRate, o.settings.unhealthyZoneThreshold, o.settings.terminatedPodGCThreshold, o.settings.largeClusterSizeThreshold], [60_000, 0.5, 0.7, 0, 10]);
    assert.throws(() => parse('--node-eviction-rate=fast'), /invalid argument "fast" for "--node-eviction-rate" flag: strconv.ParseFloat: parsing "fast": invalid syntax/);
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
