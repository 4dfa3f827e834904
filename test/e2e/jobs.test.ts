// Job, CronJob and TTL-after-finished controllers end to end: a real server,
// the controllers started on its ControllerContext, pods "run" by writing
// their status as admin (phase and container exit codes).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { startJobController } from '../../src/controllers/job/index.js';
import type { Controller } from '../../src/controllers/context.js';

const run = promisify(execFile);
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function kubectl(t: TestServer, ...args: string[]): Promise<string> {
  const { stdout } = await run(KUBECTL, ['--kubeconfig', t.kubeconfig, ...args]);
  return stdout;
}

async function podsOf(t: TestServer, ns: string, job: string): Promise<Json[]> {
  const res = await t.req('GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(`batch.kubernetes.io/job-name=${job}`)}`);
  assert.equal(res.status, 200, res.text);
  return res.body.items;
}

async function getJob(t: TestServer, ns: string, name: string): Promise<Json> {
  const res = await t.req('GET', `/apis/batch/v1/namespaces/${ns}/jobs/${name}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Finishes a pod as a node would: phase and each container's exit code. */
async function finishPod(t: TestServer, pod: Json, exitCode: number, extra: Json = {}): Promise<void> {
  const finishedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const containerStatuses = pod.spec.containers.map((c: Json) => ({
    name: c.name, image: c.image, imageID: '', ready: false, restartCount: 0,
    state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: finishedAt, finishedAt } },
  }));
  const body = { ...pod, status: { ...pod.status, phase: exitCode === 0 ? 'Succeeded' : 'Failed', containerStatuses, ...extra } };
  const res = await t.req('PUT', `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}/status`, body);
  assert.equal(res.status, 200, res.text);
}

const condition = (job: Json, type: string) => (job.status?.conditions ?? []).find((c: Json) => c.type === type);

async function events(t: TestServer, ns: string, name: string): Promise<Json[]> {
  const res = await t.req('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`);
  return res.body.items ?? [];
}

describe('job controller', () => {
  let t: TestServer;
  let jobs: Controller;
  before(async () => {
    t = await startTestServer();
    jobs = startJobController(t.server.controllerContext, { backoffBaseMs: 10 });
    await jobs.start();
  });
  after(async () => {
    await jobs?.stop();
    await t?.stop();
  });

  it('runs `kubectl create job` to completion: pods with the Job\'s labels, finalizer and owner; Complete; events', async () => {
    await kubectl(t, 'create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi');
    let pods: Json[] = [];
    await eventually(async () => (pods = await podsOf(t, 'default', 'hello')).length === 1);
    const job = await getJob(t, 'default', 'hello');
    const pod = pods[0];
    assert.match(pod.metadata.name, /^hello-[a-z0-9]{5}$/);
    assert.deepEqual(pod.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'Job', name: 'hello', uid: job.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    for (const [k, v] of [['controller-uid', job.metadata.uid], ['job-name', 'hello'], ['batch.kubernetes.io/controller-uid', job.metadata.uid], ['batch.kubernetes.io/job-name', 'hello']]) {
      assert.equal(pod.metadata.labels[k], v, k);
    }
    await eventually(async () => (await getJob(t, 'default', 'hello')).status?.active === 1);
    await finishPod(t, pod, 0);
    let done: Json;
    await eventually(async () => condition((done = await getJob(t, 'default', 'hello')), 'Complete')?.status === 'True');
    assert.equal(done.status.succeeded, 1);
    assert.equal(done.status.active ?? 0, 0);
    assert.ok(done.status.completionTime);
    assert.ok(done.status.startTime);
    await eventually(async () => ((await podsOf(t, 'default', 'hello'))[0]?.metadata.finalizers ?? []).length === 0);
    await eventually(async () => (await events(t, 'default', 'hello')).some((e) => e.reason === 'Completed' && e.message === 'Job completed'));
    const evs = await events(t, 'default', 'hello');
    assert.ok(evs.some((e) => e.reason === 'SuccessfulCreate' && e.message === `Created pod: ${pod.metadata.name}` && e.source.component === 'job-controller'), JSON.stringify(evs));
  });
});
