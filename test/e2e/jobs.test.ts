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
  const jobBody = (name: string, spec: Json) => ({
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } }, ...spec },
  });
  async function createJob(name: string, spec: Json): Promise<Json> {
    const res = await t.req('POST', '/apis/batch/v1/namespaces/default/jobs', jobBody(name, spec), { headers: { 'user-agent': 'jobs-e2e' } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }
  const live = (pods: Json[]) => pods.filter((p) => !p.metadata.deletionTimestamp && !['Succeeded', 'Failed'].includes(p.status?.phase));

  it('keeps `parallelism` pods running until `completions` succeed', async () => {
    await createJob('par', { completions: 3, parallelism: 2 });
    let pods: Json[] = [];
    await eventually(async () => live((pods = await podsOf(t, 'default', 'par'))).length === 2);
    await finishPod(t, live(pods)[0], 0);
    await eventually(async () => live((pods = await podsOf(t, 'default', 'par'))).length === 2 && pods.length === 3);
    await eventually(async () => (await getJob(t, 'default', 'par')).status?.succeeded === 1);
    for (const p of live(pods)) await finishPod(t, p, 0);
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'par')), 'Complete')?.status === 'True');
    assert.equal(job.status.succeeded, 3);
    assert.equal(job.status.failed ?? 0, 0);
    assert.equal((await podsOf(t, 'default', 'par')).length, 3, 'no pod beyond the completions');
  });

  it('retries failed pods, then fails the Job with BackoffLimitExceeded', async () => {
    await createJob('flaky', { backoffLimit: 1 });
    let pods: Json[] = [];
    await eventually(async () => live((pods = await podsOf(t, 'default', 'flaky'))).length === 1);
    await finishPod(t, live(pods)[0], 1);
    await eventually(async () => (pods = await podsOf(t, 'default', 'flaky')).length === 2 && live(pods).length === 1);
    await eventually(async () => (await getJob(t, 'default', 'flaky')).status?.failed === 1);
    await finishPod(t, live(pods)[0], 2);
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'flaky')), 'Failed')?.status === 'True');
    const failed = condition(job, 'Failed');
    assert.equal(failed.reason, 'BackoffLimitExceeded');
    assert.equal(failed.message, 'Job has reached the specified backoff limit');
    assert.equal(job.status.failed, 2);
    assert.equal(job.status.completionTime, undefined);
    assert.equal((await podsOf(t, 'default', 'flaky')).length, 2, 'no pod after the limit');
    await eventually(async () => (await events(t, 'default', 'flaky')).some((e) => e.type === 'Warning' && e.reason === 'BackoffLimitExceeded'));
  });

  it('fails the Job at once on a FailJob rule of podFailurePolicy, and does not count an Ignore rule', async () => {
    await createJob('policy', {
      backoffLimit: 6,
      podFailurePolicy: { rules: [
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
        { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
      ] },
    });
    let pods: Json[] = [];
    await eventually(async () => live((pods = await podsOf(t, 'default', 'policy'))).length === 1);
    await finishPod(t, live(pods)[0], 1, { conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    await eventually(async () => (pods = await podsOf(t, 'default', 'policy')).length === 2 && live(pods).length === 1);
    assert.equal((await getJob(t, 'default', 'policy')).status.failed ?? 0, 0, 'an ignored failure is not counted');
    const victim = live(pods)[0];
    await finishPod(t, victim, 42);
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'policy')), 'Failed')?.status === 'True');
    assert.equal(condition(job, 'Failed').reason, 'PodFailurePolicy');
    assert.equal(condition(job, 'Failed').message, `Container main for pod default/${victim.metadata.name} failed with exit code 42 matching FailJob rule at index 1`);
    assert.equal(condition(job, 'FailureTarget')?.reason, 'PodFailurePolicy');
    assert.equal(job.status.failed, 1);
  });

  it('fails a Job past activeDeadlineSeconds (DeadlineExceeded) and deletes its pods', async () => {
    await createJob('late', { activeDeadlineSeconds: 1, parallelism: 2, completions: 4 });
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'late')), 'Failed')?.status === 'True', 15_000);
    assert.equal(condition(job, 'Failed').reason, 'DeadlineExceeded');
    assert.equal(condition(job, 'Failed').message, 'Job was active longer than specified deadline');
    await eventually(async () => (await podsOf(t, 'default', 'late')).length === 0);
  });

  it('runs an Indexed Job: one pod per index with the index annotation, env and hostname; completedIndexes', async () => {
    await createJob('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' });
    let pods: Json[] = [];
    await eventually(async () => live((pods = await podsOf(t, 'default', 'idx'))).length === 3);
    const byIndex = new Map(pods.map((p) => [p.metadata.annotations['batch.kubernetes.io/job-completion-index'], p]));
    assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2']);
    const p1 = byIndex.get('1');
    assert.match(p1.metadata.name, /^idx-1-[a-z0-9]{5}$/);
    assert.equal(p1.spec.hostname, 'idx-1');
    assert.deepEqual(p1.spec.containers[0].env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
    await finishPod(t, byIndex.get('0'), 0);
    await finishPod(t, byIndex.get('2'), 0);
    await eventually(async () => (await getJob(t, 'default', 'idx')).status?.completedIndexes === '0,2');
    await finishPod(t, p1, 3);
    await eventually(async () => live((pods = await podsOf(t, 'default', 'idx'))).length === 1);
    const again = live(pods)[0];
    assert.equal(again.metadata.annotations['batch.kubernetes.io/job-completion-index'], '1', 'the failed index is made again');
    await finishPod(t, again, 0);
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'idx')), 'Complete')?.status === 'True');
    assert.equal(job.status.completedIndexes, '0-2');
    assert.equal(job.status.succeeded, 3);
    assert.equal(job.status.failed, 1);
  });

  it('suspends a Job (pods deleted, Suspended) and resumes it', async () => {
    await createJob('nap', { parallelism: 2, completions: 2 });
    await eventually(async () => live(await podsOf(t, 'default', 'nap')).length === 2);
    const res = await t.req('PATCH', '/apis/batch/v1/namespaces/default/jobs/nap', { spec: { suspend: true } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(res.status, 200, res.text);
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'nap')), 'Suspended')?.status === 'True');
    assert.equal(condition(job, 'Suspended').reason, 'JobSuspended');
    assert.equal(condition(job, 'Suspended').message, 'Job suspended');
    await eventually(async () => live(await podsOf(t, 'default', 'nap')).length === 0);
    await eventually(async () => (await getJob(t, 'default', 'nap')).status?.active === undefined);
    await t.req('PATCH', '/apis/batch/v1/namespaces/default/jobs/nap', { spec: { suspend: false } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    await eventually(async () => condition((job = await getJob(t, 'default', 'nap')), 'Suspended')?.status === 'False');
    assert.equal(condition(job, 'Suspended').reason, 'JobResumed');
    await eventually(async () => live(await podsOf(t, 'default', 'nap')).length === 2);
    const evs = await events(t, 'default', 'nap');
    assert.ok(evs.some((e) => e.reason === 'Suspended' && e.message === 'Job suspended'));
  });

  it('creates no pods for a Job created suspended', async () => {
    await createJob('asleep', { suspend: true });
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'asleep')), 'Suspended')?.status === 'True');
    assert.equal(job.status.startTime, undefined);
    assert.equal((await podsOf(t, 'default', 'asleep')).length, 0);
  });

});
