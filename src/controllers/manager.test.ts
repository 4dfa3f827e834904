import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../testing/tempdir.js';
import { DEFAULT_GATES, FeatureGates } from '../features/gates.js';
import type { Controller, ControllerContext } from './context.js';
import {
  CONTROLLER_TABLE, ControllerSelectionError, LeaderElectedComponent, controllerTable, controllersFlagHelp, controlPlane, isControllerEnabled,
  knownControllers, selectControllers, type ControllerEntry,
} from './manager.js';

const TABLE: ControllerEntry[] = [
  { name: 'namespace' }, { name: 'replicaset' }, { name: 'tokencleaner', disabledByDefault: true }, { name: 'bootstrapsigner', disabledByDefault: true },
];

describe('--controllers', () => {
  const cases: [string, string[], string[]][] = [
    ['* : every controller not disabled by default', ['*'], ['namespace', 'replicaset']],
    ['nothing named: nothing runs', [], []],
    ['a name alone: only it', ['replicaset'], ['replicaset']],
    ['* and a disabled-by-default name', ['*', 'tokencleaner'], ['namespace', 'replicaset', 'tokencleaner']],
    ['* minus one', ['*', '-namespace'], ['replicaset']],
    ['the first item naming a controller decides', ['-namespace', 'namespace', '*'], ['replicaset']],
    ['…either way', ['namespace', '-namespace'], ['namespace']],
    ['-foo of a disabled-by-default one changes nothing', ['*', '-bootstrapsigner'], ['namespace', 'replicaset']],
  ];
  for (const [name, selection, want] of cases) {
    it(name, () => assert.deepEqual(selectControllers(selection, TABLE).map((e) => e.name), want));
  }

  const refusals: [string[], string][] = [
    [['*', 'nosuch'], '"nosuch" is not in the list of known controllers'],
    [['-nosuch'], '"nosuch" is not in the list of known controllers'],
    [['a', '-b', '*'], '["a" is not in the list of known controllers, "b" is not in the list of known controllers]'],
  ];
  for (const [selection, message] of refusals) {
    it(`refuses ${selection.join(',')} with kube's message`, () => {
      assert.throws(() => selectControllers(selection, TABLE), (e: Error) => e instanceof ControllerSelectionError && e.message === message);
    });
  }

  it('isControllerEnabled as kube\'s', () => {
    const disabled = new Set(['tokencleaner']);
    assert.equal(isControllerEnabled('tokencleaner', disabled, ['*']), false);
    assert.equal(isControllerEnabled('tokencleaner', disabled, ['tokencleaner', '*']), true);
    assert.equal(isControllerEnabled('x', disabled, ['-x', '*']), false);
    assert.equal(isControllerEnabled('x', disabled, ['*']), true);
  });
});

describe('the controller table (kube-controller-manager v1.27)', () => {
  it('knows kube\'s names, with bootstrapsigner and tokencleaner off by default', () => {
    const names = knownControllers(controllerTable(DEFAULT_GATES));
    assert.equal(names.length, 39, "kube's 38 and svc's local-path-provisioner");
    for (const n of ['serviceaccount-token', 'namespace', 'garbagecollector', 'replicaset', 'deployment', 'job', 'cronjob', 'ttl-after-finished', 'cloud-node-lifecycle', 'root-ca-cert-publisher']) {
      assert.ok(names.includes(n), n);
    }
    assert.deepEqual(CONTROLLER_TABLE.filter((e) => e.disabledByDefault).map((e) => e.name).sort(), ['bootstrapsigner', 'tokencleaner']);
    assert.equal(new Set(CONTROLLER_TABLE.map((e) => e.name)).size, CONTROLLER_TABLE.length, 'no name twice');
  });

  it('gated controllers exist only with their gates', () => {
    assert.ok(!knownControllers(controllerTable(DEFAULT_GATES)).includes('resource-claim-controller'));
    assert.ok(knownControllers(controllerTable(FeatureGates.parse('DynamicResourceAllocation=true'))).includes('resource-claim-controller'));
  });

  it('today\'s controllers have factories', () => {
    const implemented = CONTROLLER_TABLE.filter((e) => e.factory).map((e) => e.name).sort();
    assert.deepEqual(implemented, [
      'bootstrapsigner', 'clusterrole-aggregation', 'cronjob', 'csrapproving', 'csrcleaner', 'csrsigning', 'daemonset', 'deployment', 'disruption', 'endpoint',
      'endpointslice', 'endpointslicemirroring', 'garbagecollector', 'job', 'local-path-provisioner', 'namespace', 'nodelifecycle',
      'persistentvolume-binder', 'podgc', 'pv-protection', 'pvc-protection', 'replicaset', 'replicationcontroller', 'resourcequota', 'root-ca-cert-publisher', 'serviceaccount', 'serviceaccount-token', 'statefulset',
      'tokencleaner', 'ttl-after-finished',
    ]);
  });

  it('the flag\'s help lists every controller, sorted, and the disabled-by-default ones', () => {
    assert.equal(controllersFlagHelp(TABLE), "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.\n" +
      'All controllers: bootstrapsigner, namespace, replicaset, tokencleaner\nDisabled-by-default controllers: bootstrapsigner, tokencleaner');
  });
});

/** A controller that records its life. */
const probe = (log: string[], name: string): Controller => ({
  start: async () => void log.push(`start ${name}`),
  stop: () => void log.push(`stop ${name}`),
});

/** Enough of a ControllerContext for a component without leader election. */
const fakeContext = (): ControllerContext => ({ gates: DEFAULT_GATES, informers: { start: async () => {} } }) as unknown as ControllerContext;

describe('the manager without leader election', () => {
  it('builds the selected controllers with their factories, starts them, stops them in reverse', async () => {
    const log: string[] = [];
    const table: ControllerEntry[] = [
      { name: 'a', factory: () => probe(log, 'a') }, { name: 'b', factory: () => undefined }, { name: 'c', factory: () => probe(log, 'c') }, { name: 'd' },
    ];
    const { manager, components } = controlPlane(fakeContext(), { table, controllers: ['*'], leaderElection: { leaderElect: false }, slots: {} });
    assert.deepEqual(components, [manager]);
    await manager.start();
    assert.equal(manager.isLeading, true);
    await manager.stop();
    assert.deepEqual(log, ['start a', 'start c', 'stop c', 'stop a']);
  });

  it('an unknown --controllers name fails before anything starts', () => {
    assert.throws(() => controlPlane(fakeContext(), { table: TABLE, controllers: ['nope'], slots: {} }), /"nope" is not in the list of known controllers/);
  });

  it('the scheduler and simulated nodes come from their slots, with their options (the scheduler configuration read at start-up)', async () => {
    const log: string[] = [];
    const file = join(tempDir('svc-sched-config-'), 'sched.yaml');
    writeFileSync(file, 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: custom\n');
    assert.throws(() => controlPlane(fakeContext(), { table: [], controllers: ['*'], schedulerConfig: join(file, 'missing'), slots: {} }));
    const { components, scheduler } = controlPlane(fakeContext(), {
      table: [], controllers: ['*'], leaderElection: { leaderElect: false }, schedulerConfig: file, simulatedNodes: 3,
      slots: {
        scheduler: (_ctx, config) => probe(log, `scheduler ${config?.profiles.map((p) => p.schedulerName).join(',')}`),
        simulatedNodes: (_ctx, n) => probe(log, `${n} nodes`),
      },
    });
    assert.equal(components.length, 3);
    assert.ok(scheduler instanceof LeaderElectedComponent);
    for (const c of components) await c.start();
    assert.deepEqual(log, ['start scheduler custom', 'start 3 nodes']);
  });
});
