// Pod rows in many states: the exact cells kube-apiserver v1.27 prints (wide).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podPrinter } from './pod.js';
import type { KObject } from './table.js';

const now = Date.parse('2024-05-01T12:00:00Z');
const ago = (ms: number): string => new Date(now - ms).toISOString().replace('.000Z', 'Z');
const MIN = 60_000;

const running = { running: { startedAt: ago(MIN) } };
const cs = (name: string, extra: Record<string, unknown>) => ({ name, restartCount: 0, ready: false, image: 'img', ...extra });

function pod(spec: Record<string, unknown>, status: Record<string, unknown>, meta: Record<string, unknown> = {}): KObject {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', creationTimestamp: ago(10 * MIN), ...meta },
    spec: { containers: [{ name: 'app', image: 'img' }], ...spec },
    status,
  };
}

const two = { containers: [{ name: 'a', image: 'i' }, { name: 'b', image: 'i' }] };
const init1 = { initContainers: [{ name: 'init', image: 'i' }] };
const init2 = { initContainers: [{ name: 'i1', image: 'i' }, { name: 'i2', image: 'i' }] };

describe('pod status, ready and restarts', () => {
  const rows: [string, KObject, string, string, string][] = [
    // name, pod, ready, status, restarts
    ['pending, nothing reported', pod({}, { phase: 'Pending' }), '0/1', 'Pending', '0'],
    ['running and ready', pod({}, { phase: 'Running', containerStatuses: [cs('app', { ready: true, state: running })] }), '1/1', 'Running', '0'],
    ['running, not ready', pod({}, { phase: 'Running', containerStatuses: [cs('app', { ready: false, state: running })] }), '0/1', 'Running', '0'],
    ['ContainerCreating', pod({}, { phase: 'Pending', containerStatuses: [cs('app', { state: { waiting: { reason: 'ContainerCreating' } } })] }), '0/1', 'ContainerCreating', '0'],
    ['ImagePullBackOff', pod({}, { phase: 'Pending', containerStatuses: [cs('app', { state: { waiting: { reason: 'ImagePullBackOff', message: 'x' } } })] }), '0/1', 'ImagePullBackOff', '0'],
    ['CrashLoopBackOff with restarts 5m ago', pod({}, {
      phase: 'Running',
      containerStatuses: [cs('app', { restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(5 * MIN) } } })],
    }), '0/1', 'CrashLoopBackOff', '4 (5m ago)'],
    ['completed', pod({}, { phase: 'Succeeded', containerStatuses: [cs('app', { state: { terminated: { exitCode: 0, reason: 'Completed' } } })] }), '0/1', 'Completed', '0'],
    ['error exit', pod({}, { phase: 'Failed', containerStatuses: [cs('app', { state: { terminated: { exitCode: 2, reason: 'Error' } } })] }), '0/1', 'Error', '0'],
    ['terminated without reason: exit code', pod({}, { phase: 'Failed', containerStatuses: [cs('app', { state: { terminated: { exitCode: 137 } } })] }), '0/1', 'ExitCode:137', '0'],
    ['terminated without reason: signal', pod({}, { phase: 'Failed', containerStatuses: [cs('app', { state: { terminated: { exitCode: 0, signal: 9 } } })] }), '0/1', 'Signal:9', '0'],
    ['one completed, one running and Ready condition → Running', pod(two, {
      phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [cs('a', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs('b', { ready: true, state: running })],
    }), '1/2', 'Running', '0'],
    ['one completed, one running, not Ready → NotReady', pod(two, {
      phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [cs('a', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs('b', { ready: true, state: running })],
    }), '1/2', 'NotReady', '0'],
    ['first container status wins (printed last to first)', pod(two, {
      phase: 'Running',
      containerStatuses: [cs('a', { state: { waiting: { reason: 'CrashLoopBackOff' } } }), cs('b', { state: { waiting: { reason: 'ContainerCreating' } } })],
    }), '0/2', 'CrashLoopBackOff', '0'],
    ['restarts summed over containers, newest restart shown', pod(two, {
      phase: 'Running',
      containerStatuses: [
        cs('a', { ready: true, state: running, restartCount: 2, lastState: { terminated: { exitCode: 1, finishedAt: ago(3 * 60 * MIN) } } }),
        cs('b', { ready: true, state: running, restartCount: 1, lastState: { terminated: { exitCode: 1, finishedAt: ago(90 * 1000) } } }),
      ],
    }), '2/2', 'Running', '3 (90s ago)'],
    ['restarts without a last termination time: count only', pod({}, { phase: 'Running', containerStatuses: [cs('app', { ready: true, state: running, restartCount: 7 })] }), '1/1', 'Running', '7'],
    ['init 0/1 waiting PodInitializing', pod(init1, {
      phase: 'Pending', initContainerStatuses: [cs('init', { state: { waiting: { reason: 'PodInitializing' } } })],
      containerStatuses: [cs('app', { state: { waiting: { reason: 'PodInitializing' } } })],
    }), '0/1', 'Init:0/1', '0'],
    ['init 1/2 running second', pod(init2, {
      phase: 'Pending',
      initContainerStatuses: [cs('i1', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs('i2', { state: running })],
    }), '0/1', 'Init:1/2', '0'],
    ['init crash loop with restarts', pod(init1, {
      phase: 'Pending',
      initContainerStatuses: [cs('init', { restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, finishedAt: ago(2 * MIN) } } })],
    }), '0/1', 'Init:CrashLoopBackOff', '3 (2m ago)'],
    ['init failed with reason', pod(init1, { phase: 'Pending', initContainerStatuses: [cs('init', { state: { terminated: { exitCode: 1, reason: 'Error' } } })] }), '0/1', 'Init:Error', '0'],
    ['init failed without reason', pod(init1, { phase: 'Pending', initContainerStatuses: [cs('init', { state: { terminated: { exitCode: 3 } } })] }), '0/1', 'Init:ExitCode:3', '0'],
    ['init killed by signal', pod(init1, { phase: 'Pending', initContainerStatuses: [cs('init', { state: { terminated: { exitCode: 143, signal: 15, reason: '' } } })] }), '0/1', 'Init:Signal:15', '0'],
    ['init done: app containers decide, init restarts dropped', pod(init1, {
      phase: 'Running',
      initContainerStatuses: [cs('init', { restartCount: 2, state: { terminated: { exitCode: 0, reason: 'Completed' } } })],
      containerStatuses: [cs('app', { ready: true, state: running })],
    }), '1/1', 'Running', '0'],
    ['status.reason Evicted', pod({}, { phase: 'Failed', reason: 'Evicted', message: 'low memory' }), '0/1', 'Evicted', '0'],
    ['scheduling gated', pod({}, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }), '0/1', 'SchedulingGated', '0'],
    ['terminating', pod({}, { phase: 'Running', containerStatuses: [cs('app', { ready: true, state: running })] }, { deletionTimestamp: ago(0) }), '1/1', 'Terminating', '0'],
    ['terminating even when succeeded (v1.27)', pod({}, { phase: 'Succeeded' }, { deletionTimestamp: ago(0) }), '0/1', 'Terminating', '0'],
    ['node lost while deleting: Unknown', pod({}, { phase: 'Running', reason: 'NodeLost' }, { deletionTimestamp: ago(0) }), '0/1', 'Unknown', '0'],
  ];
  for (const [name, p, ready, st, restarts] of rows) {
    it(name, () => {
      const { cells } = podPrinter.row(p, { now });
      assert.deepEqual(cells.slice(0, 5), ['p', ready, st, restarts, '10m']);
    });
  }
});

describe('pod wide cells and row conditions', () => {
  it('IP, node, nominated node, readiness gates', () => {
    const p = pod({ nodeName: 'n1', readinessGates: [{ conditionType: 'www.example.com/a' }, { conditionType: 'www.example.com/b' }] }, {
      phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }], nominatedNodeName: 'n2',
      conditions: [{ type: 'www.example.com/a', status: 'True' }, { type: 'www.example.com/b', status: 'False' }],
    });
    assert.deepEqual(podPrinter.row(p, { now }).cells.slice(5), ['10.0.0.5', 'n1', 'n2', '1/2']);
  });
  it('podIP alone (no podIPs) is used', () => assert.equal(podPrinter.row(pod({}, { podIP: '10.1.1.1' }), { now }).cells[5], '10.1.1.1'));
  it('unset wide cells are <none>', () => assert.deepEqual(podPrinter.row(pod({}, {}), { now }).cells.slice(5), ['<none>', '<none>', '<none>', '<none>']));
  it('Succeeded and Failed pods carry a Completed row condition', () => {
    assert.deepEqual(podPrinter.row(pod({}, { phase: 'Succeeded' }), { now }).conditions,
      [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    assert.deepEqual(podPrinter.row(pod({}, { phase: 'Failed' }), { now }).conditions,
      [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }]);
    assert.equal(podPrinter.row(pod({}, { phase: 'Running' }), { now }).conditions, undefined);
  });
  it('columns: names, types, priorities', () => {
    assert.deepEqual(podPrinter.columns.map((c) => [c.name, c.type, c.format, c.priority]), [
      ['Name', 'string', 'name', 0], ['Ready', 'string', '', 0], ['Status', 'string', '', 0], ['Restarts', 'string', '', 0], ['Age', 'string', '', 0],
      ['IP', 'string', '', 1], ['Node', 'string', '', 1], ['Nominated Node', 'string', '', 1], ['Readiness Gates', 'string', '', 1],
    ]);
  });
});
