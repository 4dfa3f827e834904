import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../registry/object.js';
import { containersReadyCondition, initializedCondition, podPhase, podStatus, readyCondition, statusDiffers, type PodPhase } from './status.js';

type Obj = Record<string, unknown>;
const pod = (spec: Obj, status: Obj = {}): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u1' }, spec, status });
const c = (name: string): Obj => ({ name, image: 'svc.local/busybox:1.35' });
const running = (name: string, ready = true): Obj => ({ name, ready, state: { running: { startedAt: 't' } }, lastState: {} });
const exited = (name: string, exitCode: number): Obj => ({ name, ready: false, state: { terminated: { exitCode } }, lastState: {} });
const waiting = (name: string, lastExit?: number): Obj => ({
  name, ready: false, state: { waiting: { reason: lastExit === undefined ? 'ContainerCreating' : 'CrashLoopBackOff' } },
  lastState: lastExit === undefined ? {} : { terminated: { exitCode: lastExit } },
});

test('podPhase follows kube getPhase', () => {
  const cases: [string, Obj, Obj[], Obj[], boolean, PodPhase][] = [
    ['nothing reported yet', { containers: [c('a')] }, [], [], false, 'Pending'],
    ['creating', { containers: [c('a')] }, [], [waiting('a')], false, 'Pending'],
    ['running', { containers: [c('a'), c('b')] }, [], [running('a'), running('b')], false, 'Running'],
    ['one running one unknown', { containers: [c('a'), c('b')] }, [], [running('a')], false, 'Pending'],
    ['Always: exited stays Running', { containers: [c('a')] }, [], [exited('a', 0)], false, 'Running'],
    ['Never: all exit 0', { restartPolicy: 'Never', containers: [c('a')] }, [], [exited('a', 0)], false, 'Succeeded'],
    ['Never: one failed', { restartPolicy: 'Never', containers: [c('a'), c('b')] }, [], [exited('a', 0), exited('b', 1)], false, 'Failed'],
    ['OnFailure: failed restarts', { restartPolicy: 'OnFailure', containers: [c('a')] }, [], [exited('a', 1)], false, 'Running'],
    ['OnFailure: succeeded', { restartPolicy: 'OnFailure', containers: [c('a')] }, [], [exited('a', 0)], false, 'Succeeded'],
    ['crash loop counts as stopped', { restartPolicy: 'Always', containers: [c('a')] }, [], [waiting('a', 1)], false, 'Running'],
    ['terminal: Always pod stopped ok', { containers: [c('a')] }, [], [exited('a', 0)], true, 'Succeeded'],
    ['terminal: Always pod killed', { containers: [c('a')] }, [], [exited('a', 137)], true, 'Failed'],
    ['init running', { initContainers: [c('i')], containers: [c('a')] }, [running('i', false)], [waiting('a')], false, 'Pending'],
    ['init failed, Never', { restartPolicy: 'Never', initContainers: [c('i')], containers: [c('a')] }, [exited('i', 1)], [waiting('a')], false, 'Failed'],
    ['init failed, Always: retried', { initContainers: [c('i')], containers: [c('a')] }, [waiting('i', 1)], [waiting('a')], false, 'Pending'],
    ['init done', { initContainers: [c('i')], containers: [c('a')] }, [exited('i', 0)], [running('a')], false, 'Running'],
  ];
  for (const [name, spec, inits, statuses, terminal, want] of cases) {
    assert.equal(podPhase(pod(spec), inits, statuses, terminal), want, name);
  }
});

test('conditions are worded as the kubelet words them', () => {
  const p = pod({ initContainers: [c('i1'), c('i2')], containers: [c('a'), c('b')], readinessGates: [{ conditionType: 'example.com/gate' }] });
  assert.deepEqual(initializedCondition(p, [exited('i1', 0)], 'Pending'),
    { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with unknown status: [i2]' });
  assert.deepEqual(initializedCondition(p, [exited('i1', 0), running('i2', false)], 'Pending'),
    { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [i2]' });
  assert.deepEqual(initializedCondition(p, [exited('i1', 0), exited('i2', 0)], 'Running'), { type: 'Initialized', status: 'True' });
  assert.deepEqual(containersReadyCondition(p, [running('a', false)], 'Running'),
    { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unknown status: [b], containers with unready status: [a]' });
  assert.deepEqual(readyCondition(p, [running('a'), running('b')], [], 'Running'),
    { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: 'corresponding condition of pod readiness gate "example.com/gate" does not exist.' });
  assert.deepEqual(readyCondition(p, [running('a'), running('b')], [{ type: 'example.com/gate', status: 'False' }], 'Running').message,
    'the status of pod readiness gate "example.com/gate" is not "True", but False');
  assert.deepEqual(readyCondition(p, [running('a'), running('b')], [{ type: 'example.com/gate', status: 'True' }], 'Running'), { type: 'Ready', status: 'True' });
  assert.deepEqual(containersReadyCondition(pod({ restartPolicy: 'Never', containers: [c('a')] }), [exited('a', 0)], 'Succeeded'),
    { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' });
});

test('podStatus keeps other writers\' conditions and transition times, and reports addresses and QoS', () => {
  const before = pod({ containers: [{ ...c('a'), resources: { limits: { cpu: '1', memory: '64Mi' }, requests: { cpu: '1000m', memory: '64Mi' } } }] }, {
    phase: 'Pending',
    conditions: [
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' },
      { type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:01Z' },
      { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:02Z', reason: 'ContainersNotReady' },
    ],
  });
  const s = podStatus(before, { initContainerStatuses: [], containerStatuses: [running('a')], podIPs: ['10.1.0.5'], hostIP: '192.168.0.2' }, '2026-01-01T00:01:00Z');
  assert.equal(s.phase, 'Running');
  assert.equal(s.podIP, '10.1.0.5');
  assert.deepEqual(s.podIPs, [{ ip: '10.1.0.5' }]);
  assert.equal(s.hostIP, '192.168.0.2');
  assert.equal(s.startTime, '2026-01-01T00:01:00Z');
  assert.equal(s.qosClass, 'Guaranteed');
  const conds = s.conditions as Obj[];
  assert.deepEqual(conds.map((x) => x.type), ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled', 'DisruptionTarget']);
  assert.equal(conds.find((x) => x.type === 'PodScheduled')?.lastTransitionTime, '2026-01-01T00:00:00Z');
  assert.equal(conds.find((x) => x.type === 'Ready')?.lastTransitionTime, '2026-01-01T00:01:00Z');
  const failed = podStatus(before, { initContainerStatuses: [], containerStatuses: [], podIPs: [], hostIP: '192.168.0.2', failure: { reason: 'OutOfmemory', message: 'Pod was rejected' } }, 't');
  assert.equal(failed.phase, 'Failed');
  assert.equal(failed.reason, 'OutOfmemory');
  assert.equal(statusDiffers(s, { ...s, conditions: (s.conditions as Obj[]).map((x) => ({ ...x, lastTransitionTime: 'other' })) }), false);
  assert.equal(statusDiffers(s, { ...s, phase: 'Pending' }), true);
});
