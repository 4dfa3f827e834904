import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiObject } from '../registry/object.js';
import { rfc3339 } from './clock.js';
import {
  EXIT_CODE_ANNOTATION, RUN_SECONDS_ANNOTATION, backoffSeconds, behaviourOf, goSeconds, nextStep, stageOf, statusFor, type Step,
} from './podstatus.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const AT = { hostIP: '198.18.0.1', podIP: '10.244.0.2' };

function pod(opts: { policy?: string; run?: string; exit?: string; status?: Any; deleting?: boolean; gates?: string[]; containers?: string[] } = {}): ApiObject {
  const annotations: Record<string, string> = {};
  if (opts.run !== undefined) annotations[RUN_SECONDS_ANNOTATION] = opts.run;
  if (opts.exit !== undefined) annotations[EXIT_CODE_ANNOTATION] = opts.exit;
  return {
    metadata: { name: 'p', namespace: 'ns', uid: 'u-1', annotations, ...(opts.deleting ? { deletionTimestamp: rfc3339(T0) } : {}) },
    spec: {
      restartPolicy: opts.policy ?? 'Always',
      containers: (opts.containers ?? ['main']).map((name) => ({ name, image: 'busybox' })),
      ...(opts.gates ? { readinessGates: opts.gates.map((conditionType) => ({ conditionType })) } : {}),
    },
    status: opts.status ?? { phase: 'Pending', qosClass: 'BestEffort' },
  };
}

/** The pod after applying a step's status at `now`. */
const after = (p: ApiObject, step: Step, now: number): ApiObject => ({ ...p, status: statusFor(step, p, AT, now) });
const cond = (p: ApiObject, type: string) => ((p.status as Any).conditions as Any[]).find((c) => c.type === type);

describe('simulated pod behaviour annotations', () => {
  const table: [Record<string, string>, { runSeconds: number; exitCode: number; annotated: boolean }][] = [
    [{}, { runSeconds: 0, exitCode: 0, annotated: false }],
    [{ [RUN_SECONDS_ANNOTATION]: '2.5', [EXIT_CODE_ANNOTATION]: '3' }, { runSeconds: 2.5, exitCode: 3, annotated: true }],
    [{ [RUN_SECONDS_ANNOTATION]: '-1', [EXIT_CODE_ANNOTATION]: '256' }, { runSeconds: 0, exitCode: 0, annotated: true }],
    [{ [RUN_SECONDS_ANNOTATION]: 'soon', [EXIT_CODE_ANNOTATION]: '1.5' }, { runSeconds: 0, exitCode: 0, annotated: true }],
    [{ [EXIT_CODE_ANNOTATION]: '0' }, { runSeconds: 0, exitCode: 0, annotated: true }],
  ];
  for (const [annotations, want] of table) {
    it(JSON.stringify(annotations), () => assert.deepEqual(behaviourOf({ metadata: { annotations } }), want));
  }
  it('back-off doubles from 10s to 5m, written as Go durations', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 9].map((n) => goSeconds(backoffSeconds(n))), ['10s', '20s', '40s', '1m20s', '2m40s', '5m0s', '5m0s']);
  });
});

describe('simulated pod lifecycle (kubelet steps)', () => {
  it('stages and steps of stored pods', () => {
    const running = after(pod({ policy: 'Never', run: '5' }), { kind: 'start', at: T0 }, T0);
    const cases: [string, ApiObject, string, Step][] = [
      ['pending pod', pod(), 'new', { kind: 'start', at: T0 }],
      ['terminating pod', pod({ deleting: true }), 'terminating', { kind: 'kill', at: T0 }],
      ['terminating pod, ended', pod({ deleting: true, status: { phase: 'Failed' } }), 'terminating', { kind: 'delete' }],
      ['Always pod running', after(pod(), { kind: 'start', at: T0 }, T0), 'running', { kind: 'none' }],
      ['Always pod running 7s, then exits', after(pod({ run: '7' }), { kind: 'start', at: T0 }, T0), 'running', { kind: 'exit', at: T0 + 7000 }],
      ['Never pod running 5s', running, 'running', { kind: 'exit', at: T0 + 5000 }],
      ['succeeded pod', pod({ status: { phase: 'Succeeded' } }), 'done', { kind: 'none' }],
      ['running without statuses of every container', pod({ status: { phase: 'Running', containerStatuses: [] } }), 'new', { kind: 'start', at: T0 }],
    ];
    for (const [name, p, stage, step] of cases) {
      assert.equal(stageOf(p), stage, name);
      assert.deepEqual(nextStep(p, T0), step, name);
    }
  });

  it('starts a pod: Running, addresses, the four conditions True, containers running', () => {
    const p = after(pod({ containers: ['b', 'a'] }), { kind: 'start', at: T0 }, T0);
    const s = p.status as Any;
    assert.equal(s.phase, 'Running');
    assert.deepEqual([s.hostIP, s.podIP, s.podIPs, s.startTime, s.qosClass], ['198.18.0.1', '10.244.0.2', [{ ip: '10.244.0.2' }], rfc3339(T0), 'BestEffort']);
    assert.deepEqual(s.conditions.map((c: Any) => `${c.type}=${c.status}`), ['Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    assert.deepEqual(s.containerStatuses.map((c: Any) => c.name), ['a', 'b']);
    assert.deepEqual(s.containerStatuses[0].state, { running: { startedAt: rfc3339(T0) } });
    assert.equal(s.containerStatuses[0].image, 'docker.io/library/busybox:latest');
  });

  it('keeps the scheduler\'s PodScheduled and other writers\' conditions, and transition times while a status stays', () => {
    const scheduled = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: 'earlier' };
    const other = { type: 'example.com/gate', status: 'True', lastTransitionTime: 'x' };
    const p = after(pod({ status: { phase: 'Pending', conditions: [scheduled, other] } }), { kind: 'start', at: T0 }, T0);
    assert.deepEqual(cond(p, 'PodScheduled'), scheduled);
    assert.deepEqual(cond(p, 'example.com/gate'), other);
    const later = after(p, { kind: 'start', at: T0 + 60_000 }, T0 + 60_000);
    assert.equal(cond(later, 'Ready').lastTransitionTime, rfc3339(T0));
  });

  it('turns Ready True once a readiness gate\'s condition is True (a sync of the conditions)', () => {
    const p = after(pod({ gates: ['a.example/x'] }), { kind: 'start', at: T0 }, T0);
    assert.equal(cond(p, 'Ready').status, 'False');
    assert.deepEqual(nextStep(p, T0 + 5), { kind: 'none' }, 'nothing to do while the gate is missing');
    const gated = { ...p, status: { ...(p.status as Any), conditions: [...(p.status as Any).conditions, { type: 'a.example/x', status: 'True' }] } };
    assert.deepEqual(nextStep(gated, T0 + 5), { kind: 'sync', at: T0 + 5 });
    const synced = after(gated, { kind: 'sync', at: T0 + 5 }, T0 + 5);
    assert.equal(cond(synced, 'Ready').status, 'True');
    assert.equal(cond(synced, 'Ready').lastTransitionTime, rfc3339(T0 + 5));
    assert.deepEqual(nextStep(synced, T0 + 6), { kind: 'none' });
  });

  it('holds Ready back for readiness gates, with the kubelet\'s messages', () => {
    const p = after(pod({ gates: ['a.example/x', 'b.example/y'], status: { phase: 'Pending', conditions: [{ type: 'b.example/y', status: 'False' }] } }), { kind: 'start', at: T0 }, T0);
    assert.deepEqual(cond(p, 'Ready'), {
      type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: rfc3339(T0), reason: 'ReadinessGatesNotReady',
      message: 'corresponding condition of pod readiness gate "a.example/x" does not exist., the status of pod readiness gate "b.example/y" is not "True", but False',
    });
    assert.equal(cond(p, 'ContainersReady').status, 'True');
  });

  const exits: { name: string; policy: string; exit?: string; phase: string; state: string; ready: [string, string | undefined] }[] = [
    { name: 'Never, exit 0', policy: 'Never', phase: 'Succeeded', state: 'terminated', ready: ['False', 'PodCompleted'] },
    { name: 'OnFailure, exit 0', policy: 'OnFailure', phase: 'Succeeded', state: 'terminated', ready: ['False', 'PodCompleted'] },
    { name: 'Never, exit 2', policy: 'Never', exit: '2', phase: 'Failed', state: 'terminated', ready: ['False', 'ContainersNotReady'] },
    { name: 'OnFailure, exit 2', policy: 'OnFailure', exit: '2', phase: 'Running', state: 'waiting', ready: ['False', 'ContainersNotReady'] },
    { name: 'Always, exit 0 (annotated)', policy: 'Always', exit: '0', phase: 'Running', state: 'waiting', ready: ['False', 'ContainersNotReady'] },
    { name: 'Always, exit 1', policy: 'Always', exit: '1', phase: 'Running', state: 'waiting', ready: ['False', 'ContainersNotReady'] },
  ];
  for (const c of exits) {
    it(`exits at once with run-seconds 0: ${c.name} → ${c.phase}`, () => {
      const p = after(pod({ policy: c.policy, ...(c.exit ? { exit: c.exit } : {}) }), { kind: 'start', at: T0 }, T0);
      const s = p.status as Any;
      assert.equal(s.phase, c.phase);
      assert.deepEqual(Object.keys(s.containerStatuses[0].state), [c.state]);
      assert.deepEqual([cond(p, 'Ready').status, cond(p, 'Ready').reason], c.ready);
      assert.equal(s.containerStatuses[0].ready, false);
    });
  }

  it('an Always pod that exits 0 is restarted too: lastState Completed', () => {
    const p = after(pod({ exit: '0' }), { kind: 'start', at: T0 }, T0);
    const c = (p.status as Any).containerStatuses[0];
    assert.deepEqual([c.lastState.terminated.exitCode, c.lastState.terminated.reason, c.state.waiting.reason], [0, 'Completed', 'CrashLoopBackOff']);
  });

  it('stops a deleted pod\'s containers (SIGTERM: 143, Error) and makes its phase terminal before the final delete', () => {
    const running = after(pod({ containers: ['a', 'b'] }), { kind: 'start', at: T0 }, T0);
    const deleting = { ...running, metadata: { ...running.metadata, deletionTimestamp: rfc3339(T0 + 5000) } };
    const killed = after(deleting, { kind: 'kill', at: T0 + 5000 }, T0 + 5000);
    const s = killed.status as Any;
    assert.equal(s.phase, 'Failed');
    assert.deepEqual(s.containerStatuses.map((c: Any) => [c.name, c.state.terminated.exitCode, c.state.terminated.reason, c.state.terminated.startedAt, c.ready]),
      [['a', 143, 'Error', rfc3339(T0), false], ['b', 143, 'Error', rfc3339(T0), false]]);
    assert.equal(s.podIP, '10.244.0.2', 'the address stays in the status');
    assert.deepEqual(nextStep(killed, T0 + 5000), { kind: 'delete' });
    const neverStarted = after(pod({ deleting: true }), { kind: 'kill', at: T0 }, T0);
    assert.deepEqual([(neverStarted.status as Any).phase, (neverStarted.status as Any).containerStatuses], ['Failed', undefined]);
  });

  it('restarts a crash-looping OnFailure pod after its back-off, counting the restart', () => {
    const crashed = after(pod({ policy: 'OnFailure', exit: '1' }), { kind: 'start', at: T0 }, T0);
    const c0 = (crashed.status as Any).containerStatuses[0];
    assert.deepEqual(c0.state.waiting, { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=main pod=p_ns(u-1)' });
    assert.deepEqual([c0.lastState.terminated.exitCode, c0.lastState.terminated.reason, c0.restartCount], [1, 'Error', 0]);
    assert.deepEqual(nextStep(crashed, T0), { kind: 'restart', at: T0 + 10_000 });
    const restarted = after(crashed, { kind: 'restart', at: T0 + 10_000 }, T0 + 10_000);
    const c1 = (restarted.status as Any).containerStatuses[0];
    assert.deepEqual([c1.restartCount, Object.keys(c1.state)[0], c1.lastState.terminated.exitCode], [1, 'running', 1]);
    assert.notEqual(c1.containerID, c0.containerID, 'a new container');
    assert.deepEqual(nextStep(restarted, T0 + 10_000), { kind: 'exit', at: T0 + 10_000 });
    const again = after(restarted, { kind: 'exit', at: T0 + 10_000 }, T0 + 10_000);
    assert.deepEqual(nextStep(again, T0 + 10_000), { kind: 'restart', at: T0 + 30_000 }, '20s after the second crash');
  });
});
