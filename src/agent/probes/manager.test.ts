// The prober manager driven by a fake clock: workers, thresholds, startup
// gating, restarts, UpdatePodStatus. Probes are exec probes answered by a fake
// runtime from a table the scenarios change.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { ExecSyncResult } from '../cri/types.js';
import { ProberManager, probeKillGracePeriod, probeKillMessage, type LivenessFailure } from './manager.js';
import type { ProbeUpdate } from './results.js';
import { FakeClock, FakeExecRuntime, execResult } from './testing.js';
import type { ContainerStatusView, Json, Pod } from './types.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const running = (name: string, id: string, startedAt = T0): ContainerStatusView =>
  ({ name, containerID: `containerd://${id}`, state: { running: { startedAt: iso(startedAt) } }, ready: false });
const terminated = (name: string, id: string, exitCode: number): ContainerStatusView =>
  ({ name, containerID: `containerd://${id}`, state: { terminated: { exitCode } }, ready: false });
const waiting = (name: string): ContainerStatusView => ({ name, state: { waiting: { reason: 'ContainerCreating' } }, ready: false });

const exec = (cmd: string, extra: Json = {}): Json => ({ exec: { command: [cmd] }, ...extra });

function setup(containers: Json[], opts: { restartPolicy?: string; random?: () => number; initContainers?: Json[] } = {}) {
  const clock = new FakeClock(T0);
  /** Exit code per probe command; 0 when unset. */
  const health: Record<string, number> = {};
  const answer = (cmd: readonly string[]): ExecSyncResult => {
    const code = health[cmd[0]!] ?? 0;
    return execResult(code, code === 0 ? '' : `${cmd[0]} says no`);
  };
  const runtime = new FakeExecRuntime(new Map(['c1', 'c2', 'c3', 'i1'].map((id) => [id, answer])));
  const changes: ProbeUpdate[] = [];
  const failures: LivenessFailure[] = [];
  const events: string[] = [];
  const mgr = new ProberManager({
    runtime, clock, random: opts.random ?? (() => 0),
    onChange: (u) => changes.push(u),
    onLivenessFailure: (_uid, _name, _msg, f) => failures.push(f),
    recorder: { event: (_ref, _type, reason, message) => events.push(`${reason}: ${message}`) },
  });
  let pod: Pod = {
    metadata: { name: 'p', namespace: 'ns', uid: 'u1' },
    spec: { restartPolicy: opts.restartPolicy ?? 'Always', terminationGracePeriodSeconds: 30, containers, ...(opts.initContainers ? { initContainers: opts.initContainers } : {}) },
  };
  const calls = (cmd: string): number => runtime.calls.filter((c) => c.cmd[0] === cmd).length;
  return {
    clock, health, mgr, changes, failures, events, calls,
    get pod() { return pod; },
    setPod(p: Pod) { pod = p; },
    /** addPod, then lets the workers' first round run (no status yet: they wait). */
    async add() {
      mgr.addPod(pod);
      await mgr.settled();
    },
    /** Advances the clock and waits for the probes it started. */
    async step(ms: number) {
      clock.advance(ms);
      await mgr.settled();
    },
    async status(cs: ContainerStatusView[], phase = 'Running', init?: ContainerStatusView[]) {
      const s = mgr.updatePodStatus(pod, { phase, podIP: '127.0.0.1', containerStatuses: cs, ...(init ? { initContainerStatuses: init } : {}) });
      await mgr.settled();
      return s;
    },
    flags(s: { containerStatuses?: ContainerStatusView[] }) {
      return (s.containerStatuses ?? []).map((c) => ({ started: c.started, ready: c.ready }));
    },
  };
}

describe('ProberManager: readiness', () => {
  it('is false until the probe succeeds, then follows the failure threshold', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready') }]);
    await t.add();
    assert.equal(t.calls('ready'), 0, 'no status yet: nothing to probe');
    // The first status has no result yet: not ready, and the probe is triggered at once.
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: false }]);
    assert.equal(t.calls('ready'), 1);
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: true }]);
    t.health.ready = 1;
    await t.step(10_000);
    await t.step(10_000);
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: true }], 'two failures are below the threshold of 3');
    await t.step(10_000);
    // Not ready: the status update triggers another probe at once (a fourth failure).
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: false }]);
    assert.equal(t.calls('ready'), 5);
    assert.deepEqual(t.changes.map((c) => [c.kind, c.containerId, c.result]), [
      ['readiness', 'containerd://c1', 'Failure'], ['readiness', 'containerd://c1', 'Success'], ['readiness', 'containerd://c1', 'Failure'],
    ]);
    assert.deepEqual(t.events, Array(4).fill('Unhealthy: Readiness probe failed: ready says no'));
    await t.mgr.close();
  });

  it('successThreshold needs that many successes in a row', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready', { successThreshold: 2 }) }]);
    await t.add();
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: false }]);
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: false }], 'one success of two');
    await t.step(10_000);
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: true }]);
    await t.mgr.close();
  });

  it('no probe: started and ready once running; not running: neither', async () => {
    const t = setup([{ name: 'a' }, { name: 'b' }]);
    t.mgr.addPod(t.pod);
    assert.equal(t.mgr.workerCount, 0);
    assert.deepEqual(t.flags(await t.status([running('a', 'c1'), waiting('b')])), [{ started: true, ready: true }, { started: false, ready: false }]);
  });

  it('initialDelaySeconds holds the first probe', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready', { initialDelaySeconds: 25 }) }]);
    await t.add();
    await t.status([running('web', 'c1')]);
    await t.step(10_000);
    await t.step(10_000);
    assert.equal(t.calls('ready'), 0);
    await t.step(10_000);
    assert.equal(t.calls('ready'), 1);
    await t.mgr.close();
  });

  it('a worker started with the agent waits a random part of its period first', async () => {
    const t = setup([{ name: 'web', livenessProbe: exec('live') }], { random: () => 0.5 });
    await t.status([running('web', 'c1')]);
    t.mgr.addPod(t.pod);
    await t.step(4_999);
    assert.equal(t.calls('live'), 0);
    await t.step(1);
    assert.equal(t.calls('live'), 1);
    await t.step(10_000);
    assert.equal(t.calls('live'), 2);
    await t.mgr.close();
  });
});

describe('ProberManager: startup gates the others', () => {
  it('readiness and liveness wait until the startup probe succeeds; startup stops then', async () => {
    const t = setup([{
      name: 'web',
      startupProbe: exec('start', { periodSeconds: 1, failureThreshold: 30 }),
      readinessProbe: exec('ready'),
      livenessProbe: exec('live'),
    }]);
    t.health.start = 1;
    await t.add();
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: false, ready: false }]);
    for (let i = 0; i < 10; i++) await t.step(1_000);
    assert.ok(t.calls('start') >= 10);
    assert.equal(t.calls('ready'), 0);
    assert.equal(t.calls('live'), 0);
    assert.equal(t.mgr.result('startup', 'containerd://c1'), 'Unknown');
    t.health.start = 0;
    await t.step(1_000);
    assert.equal(t.mgr.result('startup', 'containerd://c1'), 'Success');
    // Started: readiness runs at once (triggered by the status update).
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: false }]);
    assert.equal(t.calls('ready'), 1);
    assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: true }]);
    const starts = t.calls('start');
    await t.step(10_000);
    assert.ok(t.calls('live') >= 1);
    assert.equal(t.calls('start'), starts, 'a started container is not startup-probed again');
    assert.deepEqual(t.failures, []);
    await t.mgr.close();
  });

  it('a startup failure restarts the container', async () => {
    const t = setup([{ name: 'web', startupProbe: exec('start', { periodSeconds: 1, failureThreshold: 2 }) }]);
    t.health.start = 1;
    await t.add();
    await t.status([running('web', 'c1')]);
    await t.step(1_000);
    assert.equal(t.failures.length, 0, 'one failure of two');
    await t.step(1_000);
    assert.deepEqual(t.failures.map((f) => [f.reason, f.message, f.gracePeriodSeconds]),
      [['StartupProbe', 'Container web failed startup probe, will be restarted', 30]]);
    await t.mgr.close();
  });
});

describe('ProberManager: liveness', () => {
  it('fails after failureThreshold, asks for a restart once, holds until a new container', async () => {
    const t = setup([{ name: 'web', livenessProbe: exec('live', { terminationGracePeriodSeconds: 5 }) }]);
    t.health.live = 1;
    await t.add();
    await t.status([running('web', 'c1')]);
    assert.equal(t.mgr.result('liveness', 'containerd://c1'), undefined, 'no container seen yet');
    await t.step(10_000);
    assert.equal(t.mgr.result('liveness', 'containerd://c1'), 'Success', 'the initial liveness result');
    await t.step(10_000);
    assert.deepEqual(t.failures, []);
    await t.step(10_000);
    assert.deepEqual(t.failures, [{
      podUid: 'u1', containerName: 'web', containerId: 'containerd://c1', reason: 'LivenessProbe',
      message: 'Container web failed liveness probe, will be restarted', gracePeriodSeconds: 5,
    }]);
    assert.equal(t.mgr.result('liveness', 'containerd://c1'), 'Failure');
    assert.deepEqual(t.events, Array(3).fill('Unhealthy: Liveness probe failed: live says no'));
    await t.step(10_000);
    await t.step(10_000);
    assert.equal(t.calls('live'), 3, 'on hold: the dying container is not probed');
    // The pod worker restarted it: a new container ID resets the worker.
    t.health.live = 0;
    await t.status([running('web', 'c2')]);
    await t.step(10_000);
    assert.equal(t.calls('live'), 4);
    assert.equal(t.mgr.result('liveness', 'containerd://c1'), undefined, 'the old container\'s result is dropped');
    assert.equal(t.mgr.result('liveness', 'containerd://c2'), 'Success');
    assert.equal(t.failures.length, 1);
    await t.mgr.close();
  });

  it('a pod being deleted: liveness reports success and stops', async () => {
    const t = setup([{ name: 'web', livenessProbe: exec('live', { failureThreshold: 1 }), readinessProbe: exec('ready') }]);
    t.health.live = 1;
    await t.add();
    t.setPod({ ...t.pod, metadata: { ...t.pod.metadata, deletionTimestamp: iso(T0) } });
    await t.status([running('web', 'c1')]);
    await t.step(10_000);
    assert.equal(t.calls('live'), 0);
    assert.deepEqual(t.failures, []);
    assert.equal(t.mgr.hasWorker('u1', 'web', 'liveness'), false);
    assert.equal(t.mgr.hasWorker('u1', 'web', 'readiness'), true);
    await t.mgr.close();
  });

  it('stopLivenessAndStartup leaves readiness running', async () => {
    const t = setup([{ name: 'web', livenessProbe: exec('live'), startupProbe: exec('start'), readinessProbe: exec('ready') }]);
    t.mgr.addPod(t.pod);
    assert.equal(t.mgr.workerCount, 3);
    t.mgr.stopLivenessAndStartup('u1');
    await t.mgr.settled();
    assert.equal(t.mgr.workerCount, 1);
    assert.equal(t.mgr.hasWorker('u1', 'web', 'readiness'), true);
    await t.mgr.close();
  });
});

describe('ProberManager: ending workers', () => {
  it('a terminated container that will not restart ends its worker with Failure', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready') }], { restartPolicy: 'Never' });
    await t.add();
    await t.status([terminated('web', 'c1', 0)], 'Running');
    await t.step(10_000);
    assert.equal(t.mgr.workerCount, 0);
    assert.deepEqual(t.changes.map((c) => c.result), ['Failure']);
    assert.equal(t.calls('ready'), 0);
  });

  it('with restartPolicy Always the worker waits for the next container', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready') }]);
    await t.add();
    await t.status([terminated('web', 'c1', 1)]);
    await t.step(10_000);
    assert.equal(t.mgr.workerCount, 1);
    assert.deepEqual(t.flags(await t.status([running('web', 'c2')])), [{ started: true, ready: false }]);
    assert.deepEqual(t.flags(await t.status([running('web', 'c2')])), [{ started: true, ready: true }]);
    await t.mgr.close();
  });

  it('a finished pod ends its workers', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready'), livenessProbe: exec('live') }]);
    await t.add();
    await t.status([terminated('web', 'c1', 0)], 'Succeeded');
    await t.step(10_000);
    assert.equal(t.mgr.workerCount, 0);
  });

  it('removePod stops the workers and drops their results', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready') }]);
    await t.add();
    await t.status([running('web', 'c1')]);
    assert.equal(t.mgr.result('readiness', 'containerd://c1'), 'Success');
    t.mgr.removePod('u1');
    await t.mgr.settled();
    assert.equal(t.mgr.workerCount, 0);
    assert.equal(t.mgr.result('readiness', 'containerd://c1'), undefined);
    await t.step(10_000);
    assert.equal(t.calls('ready'), 1);
  });

  it('addPod again keeps the running workers', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready') }]);
    t.mgr.addPod(t.pod);
    t.mgr.addPod(t.pod);
    assert.equal(t.mgr.workerCount, 1);
    t.mgr.cleanupPods([]);
    await t.mgr.settled();
    assert.equal(t.mgr.workerCount, 0);
  });
});

describe('ProberManager: init containers and the list form', () => {
  it('init containers are ready when they exited 0', async () => {
    const t = setup([{ name: 'web' }], { initContainers: [{ name: 'i1' }, { name: 'i2' }, { name: 'i3' }] });
    const s = await t.status([waiting('web')], 'Pending', [terminated('i1', 'i1', 0), terminated('i2', 'x', 1), running('i3', 'y')]);
    assert.deepEqual(s.initContainerStatuses?.map((c) => c.ready), [true, false, false]);
  });
  it('takes just the container statuses, reading the pod IP from the pod', async () => {
    const t = setup([{ name: 'web', readinessProbe: exec('ready') }]);
    await t.add();
    const list = [running('web', 'c1')];
    const out = t.mgr.updatePodStatus({ ...t.pod, status: { phase: 'Running', podIP: '10.0.0.9' } }, list);
    assert.equal(out.containerStatuses, list);
    assert.equal(list[0]!.started, true);
    await t.mgr.settled();
    assert.equal(t.calls('ready'), 1);
    await t.mgr.close();
  });
});

describe('probe kills', () => {
  const pod = (over: Json = {}, meta: Json = {}): Pod => ({ metadata: { name: 'p', uid: 'u', ...meta }, spec: { containers: [], ...over } });
  const withProbe = { name: 'web', livenessProbe: { exec: { command: ['x'] }, terminationGracePeriodSeconds: 3 }, startupProbe: { exec: { command: ['x'] } } };
  const rows: [name: string, p: Pod, reason: 'LivenessProbe' | 'StartupProbe', want: number][] = [
    ['the probe\'s grace period', pod({ terminationGracePeriodSeconds: 30 }), 'LivenessProbe', 3],
    ['the pod\'s when the probe has none', pod({ terminationGracePeriodSeconds: 30 }), 'StartupProbe', 30],
    ['the deletion grace period first', pod({ terminationGracePeriodSeconds: 30 }, { deletionGracePeriodSeconds: 1 }), 'LivenessProbe', 1],
    ['2 s without any', pod(), 'LivenessProbe', 2],
  ];
  for (const [name, p, reason, want] of rows) it(name, () => assert.equal(probeKillGracePeriod(p, withProbe, reason), want));
  it('the probe\'s grace period is ignored with ProbeTerminationGracePeriod off', () =>
    assert.equal(probeKillGracePeriod(pod({ terminationGracePeriodSeconds: 30 }), withProbe, 'LivenessProbe', false), 30));
  it('messages say whether the container restarts', () => {
    assert.equal(probeKillMessage(pod(), 'web', 'LivenessProbe'), 'Container web failed liveness probe, will be restarted');
    assert.equal(probeKillMessage(pod({ restartPolicy: 'OnFailure' }), 'web', 'StartupProbe'), 'Container web failed startup probe, will be restarted');
    assert.equal(probeKillMessage(pod({ restartPolicy: 'Never' }), 'web', 'LivenessProbe'), 'Container web failed liveness probe');
  });
});

describe('ProberManager: an HTTP readiness probe against a real server', () => {
  it('follows the server\'s answers, with kube\'s event texts', async () => {
    let code = 200;
    const server = createServer((_req, res) => res.writeHead(code).end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const t = setup([{ name: 'web', ports: [{ name: 'http', containerPort: port }], readinessProbe: { httpGet: { path: '/ready', port: 'http' }, failureThreshold: 1 } }]);
      await t.add();
      assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: false }]);
      assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: true }]);
      code = 503;
      await t.step(10_000);
      assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: false }]);
      assert.deepEqual(t.events.slice(0, 1), ['Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 503']);
      code = 200;
      await t.step(10_000);
      assert.deepEqual(t.flags(await t.status([running('web', 'c1')])), [{ started: true, ready: true }]);
      await t.mgr.close();
    } finally {
      server.close();
    }
  });
});
