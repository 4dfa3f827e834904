// Job, CronJob and TTL-after-finished controllers end to end: a real server,
// the controllers started on its ControllerContext, pods "run" by writing
// their status as admin (phase and container exit codes).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { FakeClock, startJobController } from '../../src/controllers/job/index.js';
import { startCronJobController } from '../../src/controllers/cronjob/index.js';
import { startTTLAfterFinishedController } from '../../src/controllers/ttlafterfinished/index.js';
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
    assert.match(await kubectl(t, 'wait', '--for=condition=complete', 'job/hello', '--timeout=20s'), /job.batch\/hello condition met/);
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

  it('removes the tracking finalizer from the pods of a deleted Job', async () => {
    await createJob('gone', { parallelism: 2, completions: 2 });
    let pods: Json[] = [];
    await eventually(async () => (pods = await podsOf(t, 'default', 'gone')).length === 2);
    const res = await t.req('DELETE', '/apis/batch/v1/namespaces/default/jobs/gone', { propagationPolicy: 'Orphan' });
    assert.equal(res.status, 200, res.text);
    await eventually(async () => (await podsOf(t, 'default', 'gone')).every((p) => !(p.metadata.finalizers ?? []).includes('batch.kubernetes.io/job-tracking')));
    assert.equal((await podsOf(t, 'default', 'gone')).length, 2, 'the pods stay (orphaned), only the finalizer goes');
  });

  it('suspends a Job with a podFailurePolicy: the deleted pods are let go, counted by the policy as disrupted', async () => {
    await createJob('nap2', { parallelism: 2, completions: 2, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } });
    await eventually(async () => live(await podsOf(t, 'default', 'nap2')).length === 2);
    await t.req('PATCH', '/apis/batch/v1/namespaces/default/jobs/nap2', { spec: { suspend: true } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    await eventually(async () => (await podsOf(t, 'default', 'nap2')).length === 0);
    const job = await getJob(t, 'default', 'nap2');
    assert.equal(condition(job, 'Suspended')?.status, 'True');
    assert.equal(job.status.failed ?? 0, 0, 'ignored by the DisruptionTarget rule');
  });

  it('creates no pods for a Job created suspended', async () => {
    await createJob('asleep', { suspend: true });
    let job: Json;
    await eventually(async () => condition((job = await getJob(t, 'default', 'asleep')), 'Suspended')?.status === 'True');
    assert.equal(job.status.startTime, undefined);
    assert.equal((await podsOf(t, 'default', 'asleep')).length, 0);
  });

});

describe('cronjob controller (fake clock)', () => {
  let t: TestServer;
  let cronjobs: Controller;
  let clock: FakeClock;
  before(async () => (t = await startTestServer()));
  after(async () => t?.stop());
  // each test its own clock, starting at the real time its CronJobs are created at
  beforeEach(async () => {
    clock = new FakeClock(Date.now());
    cronjobs = startCronJobController(t.server.controllerContext, { clock });
    await cronjobs.start();
  });
  afterEach(async () => cronjobs?.stop());

  const MIN = 60_000;
  let created = 0;
  /** Moves the fake clock just past the next minute boundary (after the last CronJob's creation). */
  const nextMinute = () => clock.set((Math.floor(Math.max(clock.now(), created) / MIN) + 1) * MIN + 1000);
  async function jobsOf(cj: string): Promise<Json[]> {
    const res = await t.req('GET', '/apis/batch/v1/namespaces/default/jobs');
    return res.body.items.filter((j: Json) => j.metadata.ownerReferences?.[0]?.name === cj);
  }
  async function getCronJob(name: string): Promise<Json> {
    return (await t.req('GET', `/apis/batch/v1/namespaces/default/cronjobs/${name}`)).body;
  }
  async function createCronJob(name: string, spec: Json): Promise<void> {
    const res = await t.req('POST', '/apis/batch/v1/namespaces/default/cronjobs', {
      metadata: { name },
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec },
    }, { headers: { 'user-agent': 'jobs-e2e' } });
    assert.equal(res.status, 201, res.text);
    created = Date.parse(res.body.metadata.creationTimestamp);
  }
  async function finishJob(job: Json, type: 'Complete' | 'Failed'): Promise<void> {
    const now = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    const status = {
      startTime: job.status?.startTime ?? now,
      ...(type === 'Complete' ? { completionTime: now, succeeded: 1 } : { failed: 1 }),
      conditions: [{ type, status: 'True', lastProbeTime: now, lastTransitionTime: now, ...(type === 'Failed' ? { reason: 'BackoffLimitExceeded' } : {}) }],
    };
    const res = await t.req('PUT', `/apis/batch/v1/namespaces/default/jobs/${job.metadata.name}/status`, { ...job, status });
    assert.equal(res.status, 200, res.text);
  }

  it('creates a Job per start of `kubectl create cronjob`, named by the scheduled minute', async () => {
    await kubectl(t, 'create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/1 * * * *', '--', 'date');
    created = Date.parse((await getCronJob('tick')).metadata.creationTimestamp);
    assert.equal((await jobsOf('tick')).length, 0, 'nothing before the first start');
    nextMinute();
    const scheduled = Math.floor(clock.now() / MIN) * MIN;
    let jobs: Json[] = [];
    await eventually(async () => (jobs = await jobsOf('tick')).length === 1);
    const cj = await getCronJob('tick');
    const job = jobs[0];
    assert.equal(job.metadata.name, `tick-${scheduled / MIN}`);
    assert.equal(job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], new Date(scheduled).toISOString().replace('.000Z', 'Z'));
    assert.deepEqual(job.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'tick', uid: cj.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(job.spec.template.spec.containers[0].command, ['date']);
    await eventually(async () => (await getCronJob('tick')).status?.active?.length === 1);
    const status = (await getCronJob('tick')).status;
    assert.equal(status.active[0].name, job.metadata.name);
    assert.equal(status.active[0].uid, job.metadata.uid);
    assert.equal(status.lastScheduleTime, new Date(scheduled).toISOString().replace('.000Z', 'Z'));
    await eventually(async () => (await events(t, 'default', 'tick')).some((e) => e.reason === 'SuccessfulCreate' && e.message === `Created job ${job.metadata.name}` && e.source.component === 'cronjob-controller'));
    // finished: out of status.active, lastSuccessfulTime set, the next start makes another Job
    await finishJob(job, 'Complete');
    await eventually(async () => (await getCronJob('tick')).status?.active === undefined);
    await eventually(async () => (await events(t, 'default', 'tick')).some((e) => e.reason === 'SawCompletedJob' && e.message === `Saw completed job: ${job.metadata.name}, status: Complete`));
    await eventually(async () => Boolean((await getCronJob('tick')).status?.lastSuccessfulTime));
    nextMinute();
    await eventually(async () => (await jobsOf('tick')).length === 2);
    await t.req('DELETE', '/apis/batch/v1/namespaces/default/cronjobs/tick');
  });

  it('Forbid: no second Job while one runs (JobAlreadyActive)', async () => {
    await createCronJob('forbid', { concurrencyPolicy: 'Forbid' });
    nextMinute();
    let jobs: Json[] = [];
    await eventually(async () => (jobs = await jobsOf('forbid')).length === 1 && (await getCronJob('forbid')).status?.active?.length === 1);
    nextMinute();
    await eventually(async () => (await events(t, 'default', 'forbid')).some((e) => e.reason === 'JobAlreadyActive'
      && e.message === 'Not starting job because prior execution is running and concurrency policy is Forbid'));
    assert.equal((await jobsOf('forbid')).length, 1);
    await finishJob(jobs[0], 'Failed');
    // the start refused while the first ran is still owed (no startingDeadlineSeconds): made once it finished
    await eventually(async () => (await jobsOf('forbid')).length === 2);
    await eventually(async () => (await getCronJob('forbid')).status?.active?.[0]?.name === `forbid-${Math.floor(clock.now() / MIN)}`);
    await t.req('DELETE', '/apis/batch/v1/namespaces/default/cronjobs/forbid');
  });

  it('Replace: the running Job is deleted for the new one', async () => {
    await createCronJob('replace', { concurrencyPolicy: 'Replace' });
    nextMinute();
    let first: Json[] = [];
    await eventually(async () => (first = await jobsOf('replace')).length === 1 && (await getCronJob('replace')).status?.active?.length === 1);
    nextMinute();
    let jobs: Json[] = [];
    await eventually(async () => (jobs = await jobsOf('replace')).length === 1 && jobs[0].metadata.name !== first[0].metadata.name);
    const status = (await getCronJob('replace')).status;
    assert.deepEqual(status.active.map((r: Json) => r.name), [jobs[0].metadata.name]);
    await eventually(async () => (await events(t, 'default', 'replace')).some((e) => e.reason === 'SuccessfulDelete' && e.message === `Deleted job ${first[0].metadata.name}`));
    await t.req('DELETE', '/apis/batch/v1/namespaces/default/cronjobs/replace');
  });

  it('keeps successfulJobsHistoryLimit finished Jobs, deleting the oldest', async () => {
    await createCronJob('history', { successfulJobsHistoryLimit: 1 });
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      nextMinute();
      let jobs: Json[] = [];
      await eventually(async () => (jobs = (await jobsOf('history')).filter((j) => !names.includes(j.metadata.name))).length === 1);
      names.push(jobs[0].metadata.name);
      await finishJob(jobs[0], 'Complete');
      await eventually(async () => (await getCronJob('history')).status?.active === undefined);
    }
    await eventually(async () => (await jobsOf('history')).map((j) => j.metadata.name).join() === names[1]);
    await t.req('DELETE', '/apis/batch/v1/namespaces/default/cronjobs/history');
  });

  it('makes no Job for a start missed by more than startingDeadlineSeconds, nor while suspended', async () => {
    await createCronJob('strict', { startingDeadlineSeconds: 10 });
    await createCronJob('paused', { suspend: true });
    nextMinute();
    clock.advance(20_000); // 21 s after the start: past its deadline
    // a CronJob synced after the others (its start is owed at once): their syncs at this time are done once it has its Job
    await createCronJob('marker', {});
    await eventually(async () => (await jobsOf('marker')).length >= 1);
    assert.equal((await jobsOf('strict')).length, 0);
    assert.equal((await jobsOf('paused')).length, 0);
    // resumed: the start owed since its creation is made
    await t.req('PATCH', '/apis/batch/v1/namespaces/default/cronjobs/paused', { spec: { suspend: false } }, { headers: { 'content-type': 'application/merge-patch+json' } });
    await eventually(async () => (await jobsOf('paused')).length === 1);
  });

  it('warns of too many missed starts and makes only the latest', async () => {
    await createCronJob('behind', {});
    clock.set(created + 150 * MIN);
    let jobs: Json[] = [];
    await eventually(async () => (jobs = await jobsOf('behind')).length === 1);
    assert.equal(jobs[0].metadata.name, `behind-${Math.floor(clock.now() / MIN)}`);
    await eventually(async () => (await events(t, 'default', 'behind')).some((e) => e.type === 'Warning' && e.reason === 'TooManyMissedTimes'
      && e.message === 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew'));
  });

  it('reads the schedule in spec.timeZone', async () => {
    // the next 09:00 in Tokyo is the next 00:00Z
    await createCronJob('tokyo', { schedule: '0 9 * * *', timeZone: 'Asia/Tokyo' });
    const midnight = (Math.floor(created / 86_400_000) + 1) * 86_400_000;
    clock.set(midnight - MIN);
    assert.equal((await jobsOf('tokyo')).length, 0);
    clock.set(midnight + 1000);
    let jobs: Json[] = [];
    await eventually(async () => (jobs = await jobsOf('tokyo')).length === 1);
    assert.equal(jobs[0].metadata.name, `tokyo-${midnight / MIN}`);
    assert.equal(jobs[0].metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], new Date(midnight + 9 * 3_600_000).toISOString().replace('.000Z', '+09:00'));
  });
});

describe('ttl-after-finished controller (fake clock) with the job controller', () => {
  let t: TestServer;
  let controllers: Controller[] = [];
  let clock: FakeClock;
  before(async () => {
    t = await startTestServer();
    clock = new FakeClock(Date.now());
    controllers = [startJobController(t.server.controllerContext), startTTLAfterFinishedController(t.server.controllerContext, { clock })];
    for (const c of controllers) await c.start();
  });
  after(async () => {
    for (const c of controllers) await c.stop();
    await t?.stop();
  });

  async function runToCompletion(name: string, ttl: number, readBack = true): Promise<Json> {
    const res = await t.req('POST', '/apis/batch/v1/namespaces/default/jobs', {
      metadata: { name }, spec: { ttlSecondsAfterFinished: ttl, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    }, { headers: { 'user-agent': 'jobs-e2e' } });
    assert.equal(res.status, 201, res.text);
    let pods: Json[] = [];
    await eventually(async () => (pods = await podsOf(t, 'default', name)).length === 1);
    await finishPod(t, pods[0], 0);
    let job: Json;
    if (readBack) await eventually(async () => (job = (await t.req('GET', `/apis/batch/v1/namespaces/default/jobs/${name}`)).body).status?.conditions?.some((c: Json) => c.type === 'Complete'));
    return job;
  }
  const gone = async (name: string) => (await t.req('GET', `/apis/batch/v1/namespaces/default/jobs/${name}`)).status === 404;

  it('deletes a finished Job once its TTL has passed on the clock', async () => {
    const job = await runToCompletion('short-lived', 3600);
    const finishedAt = Date.parse(condition(job, 'Complete').lastTransitionTime);
    clock.set(finishedAt + 3599_000);
    assert.equal(await gone('short-lived'), false);
    clock.set(finishedAt + 3600_000);
    await eventually(() => gone('short-lived'));
  });

  it('deletes a Job with ttlSecondsAfterFinished 0 as soon as it finishes', async () => {
    await runToCompletion('ephemeral', 0, false); // it may be gone before it could be read back Complete
    await eventually(() => gone('ephemeral'));
  });
});

for (const backend of BACKENDS.filter((b) => b.name === 'etcd')) {
  describe(`job controller on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestServer;
    let jobs: Controller;
    before(async () => {
      t = await backend.start();
      jobs = startJobController(t.server.controllerContext);
      await jobs.start();
    });
    after(async () => {
      await jobs?.stop();
      await t?.stop();
    });

    it('runs `kubectl create job` to Complete, the finalizer removed', async () => {
      await kubectl(t, 'create', 'job', 'once', '--image=busybox');
      let pods: Json[] = [];
      await eventually(async () => (pods = await podsOf(t, 'default', 'once')).length >= 1);
      await finishPod(t, pods[0], 0);
      let job: Json;
      await eventually(async () => condition((job = await getJob(t, 'default', 'once')), 'Complete')?.status === 'True');
      assert.equal(job.status.succeeded, 1);
      await eventually(async () => (await podsOf(t, 'default', 'once')).every((p) => (p.metadata.finalizers ?? []).length === 0));
    });
  });
}
