import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodSandboxStatus } from '../cri/types.js';
import { computePodActions, type ProbeResults } from './actions.js';
import { hashContainer } from './labels.js';
import type { RuntimeContainerState, RuntimeContainerStatus, RuntimePodStatus } from './podstatus.js';
import { testContainer, testPod } from './testpods.js';
import type { Container, Pod, PodSpec } from './types.js';

const APP = testContainer();
const SIDE = testContainer({ name: 'side' });
const INIT1 = testContainer({ name: 'init1' });
const INIT2 = testContainer({ name: 'init2' });

function sandbox(o: { state?: 'SANDBOX_READY' | 'SANDBOX_NOTREADY'; attempt?: number; network?: 'POD' | 'NODE'; ip?: string; id?: string } = {}): PodSandboxStatus {
  return {
    id: o.id ?? 'sb1', metadata: { name: 'web', namespace: 'ns1', uid: 'uid-1', attempt: o.attempt ?? 0 }, state: o.state ?? 'SANDBOX_READY', createdAt: 1,
    labels: {}, annotations: {}, network: { ip: o.ip ?? '10.88.0.2' }, linux: { namespaces: { options: { network: o.network ?? 'POD' } } },
  };
}

let seq = 0;
function cs(c: Container, state: RuntimeContainerState, o: { exitCode?: number; hash?: string; reason?: string } = {}): RuntimeContainerStatus {
  const id = `${c.name}-${++seq}`;
  return {
    id, containerID: `containerd://${id}`, name: c.name, state, createdAt: 1000 - seq, startedAt: 0, finishedAt: 0, exitCode: o.exitCode ?? 0,
    image: 'img', imageID: 'sha256:x', hash: o.hash ?? hashContainer(c), restartCount: 0, reason: o.reason ?? '', message: '',
  };
}

const status = (sandboxes: PodSandboxStatus[], containers: RuntimeContainerStatus[]): RuntimePodStatus =>
  ({ uid: 'uid-1', name: 'web', namespace: 'ns1', ips: ['10.88.0.2'], sandboxes, containers });

interface Want {
  killPod?: boolean;
  createSandbox?: boolean;
  attempt?: number;
  init?: string;
  start?: string[];
  kill?: string[];
}

describe('computePodActions', () => {
  const table: { name: string; spec?: Partial<PodSpec>; meta?: Partial<Pod['metadata']>; st: () => RuntimePodStatus; probes?: ProbeResults; want: Want }[] = [
    { name: 'new pod: create the sandbox, start every container', spec: { containers: [APP, SIDE] }, st: () => status([], []),
      want: { killPod: true, createSandbox: true, attempt: 0, start: ['app', 'side'] } },
    { name: 'new pod with init containers: only the first init container', spec: { initContainers: [INIT1, INIT2] }, st: () => status([], []),
      want: { killPod: true, createSandbox: true, attempt: 0, init: 'init1' } },
    { name: 'sandbox not ready: a new one at attempt+1, everything restarted', st: () => status([sandbox({ state: 'SANDBOX_NOTREADY', attempt: 2 })], [cs(APP, 'exited', { exitCode: 137 })]),
      want: { killPod: true, createSandbox: true, attempt: 3, start: ['app'] } },
    { name: 'two ready sandboxes: a new one', st: () => status([sandbox({ id: 'a', attempt: 1 }), sandbox({ id: 'b' })], [cs(APP, 'running')]),
      want: { killPod: true, createSandbox: true, attempt: 2, start: ['app'] } },
    { name: 'network mode changed: a new sandbox', spec: { hostNetwork: true }, st: () => status([sandbox({ network: 'POD' })], [cs(APP, 'running')]),
      want: { killPod: true, createSandbox: true, attempt: 1, start: ['app'] } },
    { name: 'sandbox without an IP: a new sandbox', st: () => status([sandbox({ ip: '' })], [cs(APP, 'running')]),
      want: { killPod: true, createSandbox: true, attempt: 1, start: ['app'] } },
    { name: 'Never: a dead sandbox after containers ran is not recreated', spec: { restartPolicy: 'Never' }, st: () => status([sandbox({ state: 'SANDBOX_NOTREADY' })], [cs(APP, 'exited', { exitCode: 1 })]),
      want: { killPod: true, createSandbox: false, attempt: 1 } },
    { name: 'OnFailure: succeeded containers are not restarted in a new sandbox', spec: { restartPolicy: 'OnFailure', containers: [APP, SIDE] },
      st: () => status([sandbox({ state: 'SANDBOX_NOTREADY' })], [cs(APP, 'exited'), cs(SIDE, 'exited', { exitCode: 2 })]),
      want: { killPod: true, createSandbox: true, attempt: 1, start: ['side'] } },
    { name: 'OnFailure: all succeeded, no init left → no sandbox', spec: { restartPolicy: 'OnFailure' }, st: () => status([sandbox({ state: 'SANDBOX_NOTREADY' })], [cs(APP, 'exited')]),
      want: { killPod: true, createSandbox: false, attempt: 1 } },
    { name: 'running and unchanged: nothing', st: () => status([sandbox()], [cs(APP, 'running')]), want: {} },
    { name: 'init1 done: init2 next', spec: { initContainers: [INIT1, INIT2] }, st: () => status([sandbox()], [cs(INIT1, 'exited')]), want: { init: 'init2' } },
    { name: 'init container running: wait', spec: { initContainers: [INIT1, INIT2] }, st: () => status([sandbox()], [cs(INIT1, 'running')]), want: {} },
    { name: 'all init done: start the containers', spec: { initContainers: [INIT1, INIT2] }, st: () => status([sandbox()], [cs(INIT2, 'exited'), cs(INIT1, 'exited')]), want: { start: ['app'] } },
    { name: 'init failed: run it again', spec: { initContainers: [INIT1, INIT2] }, st: () => status([sandbox()], [cs(INIT1, 'exited', { exitCode: 1 })]), want: { init: 'init1' } },
    { name: 'init OOMKilled counts as failed', spec: { initContainers: [INIT1, INIT2] }, st: () => status([sandbox()], [cs(INIT1, 'exited', { reason: 'OOMKilled' })]), want: { init: 'init1' } },
    { name: 'init failed with Never: kill the pod', spec: { initContainers: [INIT1], restartPolicy: 'Never' }, st: () => status([sandbox()], [cs(INIT1, 'exited', { exitCode: 1 })]), want: { killPod: true } },
    { name: 'init in unknown state: killed, then run again', spec: { initContainers: [INIT1] }, st: () => status([sandbox()], [cs(INIT1, 'unknown')]), want: { init: 'init1', kill: ['init1'] } },
    { name: 'a running app container means init is done', spec: { initContainers: [INIT1] }, st: () => status([sandbox()], [cs(APP, 'running')]), want: {} },
    { name: 'Always: exited containers restart', st: () => status([sandbox()], [cs(APP, 'exited')]), want: { start: ['app'] } },
    { name: 'OnFailure: a failed container restarts', spec: { restartPolicy: 'OnFailure' }, st: () => status([sandbox()], [cs(APP, 'exited', { exitCode: 3 })]), want: { start: ['app'] } },
    { name: 'OnFailure: a succeeded container does not; nothing left → kill the pod', spec: { restartPolicy: 'OnFailure' }, st: () => status([sandbox()], [cs(APP, 'exited')]), want: { killPod: true } },
    { name: 'Never: nothing restarts; nothing running → kill the pod', spec: { restartPolicy: 'Never' }, st: () => status([sandbox()], [cs(APP, 'exited', { exitCode: 1 })]), want: { killPod: true } },
    { name: 'created but never started: start it', st: () => status([sandbox()], [cs(APP, 'created')]), want: { start: ['app'] } },
    { name: 'unknown state: kill and start', st: () => status([sandbox()], [cs(APP, 'unknown')]), want: { start: ['app'], kill: ['app'] } },
    { name: 'spec changed: kill and restart even with Never', spec: { restartPolicy: 'Never' }, st: () => status([sandbox()], [cs(APP, 'running', { hash: 'old' })]), want: { start: ['app'], kill: ['app'] } },
    { name: 'liveness failed: kill and restart', st: () => status([sandbox()], [cs(APP, 'running')]), probes: { result: (k) => (k === 'liveness' ? 'Failure' : undefined) }, want: { start: ['app'], kill: ['app'] } },
    { name: 'startup failed with Never: kill, no restart, pod killed', spec: { restartPolicy: 'Never' }, st: () => status([sandbox()], [cs(APP, 'running')]), probes: { result: (k) => (k === 'startup' ? 'Failure' : 'Success') }, want: { killPod: true, kill: ['app'] } },
    { name: 'deleted pod: exited containers are not restarted', meta: { deletionTimestamp: '2026-01-01T00:00:00Z' }, st: () => status([sandbox()], [cs(APP, 'exited', { exitCode: 1 })]), want: { killPod: true } },
  ];
  for (const c of table) {
    it(c.name, () => {
      const pod = testPod(c.spec, c.meta);
      const a = computePodActions(pod, c.st(), c.probes);
      assert.deepEqual({
        killPod: a.killPod, createSandbox: a.createSandbox, attempt: a.attempt, init: a.nextInitContainer?.name,
        start: a.containersToStart.map((i) => pod.spec.containers[i].name), kill: [...a.containersToKill.values()].map((k) => k.name),
      }, { killPod: false, createSandbox: false, attempt: 0, init: undefined, start: [], kill: [], ...c.want });
    });
  }

  it('kill messages as kube writes them', () => {
    const pod = testPod({ containers: [APP, SIDE] });
    const a = computePodActions(pod, status([sandbox()], [cs(APP, 'running', { hash: 'old' }), cs(SIDE, 'running')]), { result: (k, id) => (k === 'liveness' && id.startsWith('containerd://side') ? 'Failure' : undefined) });
    assert.deepEqual([...a.containersToKill.values()].map((k) => [k.message, k.reason]), [
      ['Container app definition changed, will be restarted', 'Unknown'],
      ['Container side failed liveness probe, will be restarted', 'LivenessProbe'],
    ]);
  });
});
