// Events as kube's components record them, end to end (issue 24):
//  - kube-scheduler writes events.k8s.io/v1 Events: a pod that cannot be
//    scheduled gets one FailedScheduling Event whose series counts the
//    repeats, read back through both APIs, `kubectl get events` and
//    `kubectl describe pod` (kubectl 1.27 reads core/v1); a refresh writes
//    the count kept in memory. On SQLite and etcd.
//  - a controller's core/v1 recorder: 30 identical events are one Event
//    whose count the spam filter stops at 25; ten different messages of one
//    reason are combined into one Event.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestServer, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { startScheduler, SCHEDULER_USER, type Scheduler } from '../../src/scheduler/index.js';
import { schedulerEventRecorder } from '../../src/controllers/events.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const NS = '/api/v1/namespaces/default';
const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
const MERGE = { headers: { 'content-type': 'application/merge-patch+json' } };

async function createNode(t: TestServer, name: string): Promise<void> {
  const capacity = { cpu: '4', memory: '8Gi', pods: '110' };
  const r = await t.req('POST', '/api/v1/nodes', {
    apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { capacity, allocatable: capacity, conditions: [{ type: 'Ready', status: 'True' }] },
  });
  assert.equal(r.status, 201, r.text);
  // the not-ready taint admission puts on a new node, lifted as the node lifecycle controller would
  assert.equal((await t.req('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: null } }, MERGE)).status, 200);
}

/** The events.k8s.io/v1 Events about a pod with this reason. */
async function v1Events(t: TestServer, pod: string, reason: string): Promise<Obj[]> {
  const r = await t.req('GET', V1);
  assert.equal(r.status, 200, r.text);
  return (r.body.items as Obj[]).filter((e) => e.regarding?.name === pod && e.reason === reason);
}

for (const backend of BACKENDS) {
  describe(`kube-scheduler's events.k8s.io/v1 Events (${backend.name})`, { skip: backend.skip }, () => {
    let t: TestServer;
    let scheduler: Scheduler;
    const kubectl = kubectlFor(() => t);
    before(async () => {
      t = await backend.start();
      scheduler = startScheduler(t.server.controllerContext);
      await scheduler.start();
      await createNode(t, 'n1');
    });
    after(async () => {
      kubectl.cleanup();
      scheduler?.stop();
      await t?.stop();
    });

    it('a pod that cannot be scheduled: one FailedScheduling Event whose series counts the repeats', async () => {
      const made = await t.req('POST', `${NS}/pods`, {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stuck' },
        spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] },
      });
      assert.equal(made.status, 201, made.text);
      await eventually(async () => {
        const p = (await t.req('GET', `${NS}/pods/stuck`)).body;
        return (p.status?.conditions ?? []).some((c: Obj) => c.type === 'PodScheduled' && c.status === 'False');
      });
      // Each change of the node's labels makes the scheduler try the pod again, failing the same way.
      let i = 0;
      await eventually(async () => {
        await t.req('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { attempt: String(i++) } } }, MERGE);
        return (await v1Events(t, 'stuck', 'FailedScheduling')).some((e) => (e.series?.count ?? 0) >= 2);
      }, 30_000);
      const events = await v1Events(t, 'stuck', 'FailedScheduling');
      // The first attempt's Event regards the pod before its PodScheduled condition was written (another resourceVersion), as in kube.
      assert.ok(events.length <= 2, JSON.stringify(events));
      const e = events.find((x) => x.series)!;
      assert.equal(e.type, 'Warning');
      assert.equal(e.action, 'Scheduling');
      assert.equal(e.reportingController, 'default-scheduler');
      assert.equal(e.reportingInstance, `default-scheduler-${hostname()}`);
      assert.deepEqual([e.regarding.kind, e.regarding.name, e.regarding.namespace], ['Pod', 'stuck', 'default']);
      assert.match(e.note, /^0\/1 nodes are available: 1 node\(s\) didn't match Pod's node affinity\/selector\./);
      assert.match(e.eventTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      assert.match(e.series.lastObservedTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      assert.equal(e.deprecatedCount ?? 0, 0);

      // The same object through the core API, as kubectl 1.27 reads it.
      const core = (await t.req('GET', `${NS}/events/${e.metadata.name}`)).body;
      assert.deepEqual([core.involvedObject.name, core.message, core.reportingComponent, core.series.count >= 2, core.count ?? 0], ['stuck', e.note, 'default-scheduler', true, 0]);
    });

    it('kubectl get events and kubectl describe pod show the scheduler\'s Events', { skip: kubectlMissing }, async () => {
      const got = await kubectl('get', 'events', '-n', 'default', '--field-selector', 'involvedObject.name=stuck');
      assert.equal(got.code, 0, got.err);
      assert.match(got.out, /Warning\s+FailedScheduling\s+pod\/stuck\s+0\/1 nodes are available/);
      const described = await kubectl('describe', 'pod', 'stuck', '-n', 'default');
      assert.equal(described.code, 0, described.err);
      assert.match(described.out, /Warning\s+FailedScheduling\s+\S+ \(x\d+ over \S+\)\s+default-scheduler\s+0\/1 nodes are available/);
      // Once the node fits, the pod is bound and Scheduled is shown too.
      assert.equal((await t.req('PATCH', '/api/v1/nodes/n1', { metadata: { labels: { disk: 'ssd' } } }, MERGE)).status, 200);
      await eventually(async () => (await v1Events(t, 'stuck', 'Scheduled')).length === 1, 20_000);
      const [scheduled] = await v1Events(t, 'stuck', 'Scheduled');
      assert.deepEqual([scheduled!.action, scheduled!.type, scheduled!.note], ['Binding', 'Normal', 'Successfully assigned default/stuck to n1']);
      const again = await kubectl('describe', 'pod', 'stuck', '-n', 'default');
      assert.match(again.out, /Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/stuck to n1/);
    });

    it('repeats kept in memory are written by the refresh, as the scheduler\'s user', async () => {
      const ctx = t.server.controllerContext;
      const recorder = schedulerEventRecorder(ctx.clientAs(SCHEDULER_USER, 'kube-scheduler'), 'default-scheduler');
      try {
        const pod = (await t.req('GET', `${NS}/pods/stuck`)).body;
        for (let n = 0; n < 5; n++) await recorder.event(pod, 'Warning', 'FailedScheduling', `try ${n}`);
        let [e] = await v1Events(t, 'stuck', 'FailedScheduling').then((es) => es.filter((x) => x.note === 'try 0'));
        assert.equal(e!.series.count, 2, 'the second event patched the series; later ones only counted');
        await recorder.refresh();
        [e] = await v1Events(t, 'stuck', 'FailedScheduling').then((es) => es.filter((x) => x.note === 'try 0'));
        assert.equal(e!.series.count, 5);
        const fields = (e!.metadata.managedFields as Obj[]).map((m) => [m.manager, m.operation, m.apiVersion]);
        assert.deepEqual(fields, [['kube-scheduler', 'Update', 'events.svc.io/v1']]);
      } finally {
        recorder.stop();
      }
    });
  });
}

describe('a controller\'s core/v1 events: correlation and the spam filter', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', `${NS}/configmaps`, { metadata: { name: 'cm' } })).status, 201);
  });
  after(async () => {
    await t?.stop();
  });

  const events = async (): Promise<Obj[]> => ((await t.req('GET', `${NS}/events`)).body.items as Obj[]).filter((e) => e.involvedObject?.name === 'cm');

  it('30 identical events: one Event, its count stopped at 25 by the spam filter', async () => {
    const cm = (await t.req('GET', `${NS}/configmaps/cm`)).body;
    const recorder = t.server.controllerContext.recorder('replicaset-controller', 'replicaset-controller');
    for (let n = 0; n < 30; n++) await recorder.event(cm, 'Normal', 'Spam', 'the same message');
    const got = await events();
    assert.equal(got.length, 1, JSON.stringify(got));
    assert.deepEqual([got[0]!.count, got[0]!.source.component, got[0]!.reason], [25, 'replicaset-controller', 'Spam']);
    assert.ok(got[0]!.lastTimestamp >= got[0]!.firstTimestamp);
  });

  it('ten different messages of one reason: nine Events, then one combined from similar events', async () => {
    const cm = (await t.req('GET', `${NS}/configmaps/cm`)).body;
    const recorder = t.server.controllerContext.recorder('job-controller', 'job-controller');
    for (let n = 0; n < 11; n++) await recorder.event(cm, 'Warning', 'Varied', `message ${n}`);
    const got = (await events()).filter((e) => e.reason === 'Varied');
    assert.equal(got.length, 10, JSON.stringify(got.map((e) => e.message)));
    const combined = got.filter((e) => e.message.startsWith('(combined from similar events): '));
    assert.deepEqual(combined.map((e) => [e.message, e.count]), [['(combined from similar events): message 10', 2]]);
  });
});

describe('events.k8s.io/v1 writes are validated as events/v1 (one store with core Events)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t?.stop();
  });
  const V1 = '/apis/events.k8s.io/v1/namespaces/default/events';
  const event = (name: string, extra: Obj = {}) => ({
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name },
    eventTime: '2026-11-27T12:00:00.000000Z', reportingController: 'example.com/ctl', reportingInstance: 'ctl-1', action: 'Checking', reason: 'Checked',
    type: 'Normal', note: 'all good', regarding: { kind: 'ConfigMap', namespace: 'default', name: 'cm', apiVersion: 'v1' }, ...extra,
  });

  it('without eventTime, or with a deprecated field set: 422 with kube\'s causes; a whole one is created and read through both APIs', async () => {
    const { eventTime: _, ...noTime } = event('no-time');
    const r = await t.req('POST', V1, noTime);
    assert.equal(r.status, 422, r.text);
    assert.match(r.body.message, /eventTime: Required value/);
    const dep = await t.req('POST', V1, event('deprecated', { deprecatedCount: 3 }));
    assert.equal(dep.status, 422, dep.text);
    assert.match(dep.body.message, /deprecatedCount: Invalid value: .*needs to be unset/);
    assert.equal((await t.req('POST', V1, event('ok'))).status, 201);
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/events/ok')).body.reason, 'Checked');
    // core/v1 keeps its own, laxer rules: no eventTime needed there
    assert.equal((await t.req('POST', '/api/v1/namespaces/default/events', { metadata: { name: 'core' }, involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'cm' }, reason: 'R', message: 'm', type: 'Normal' })).status, 201);
  });

  it('an events/v1 update may grow its series but not change an immutable field (compared against the stored Event seen in events/v1)', async () => {
    const cur = (await t.req('GET', `${V1}/ok`)).body;
    const series = await t.req('PUT', `${V1}/ok`, { ...cur, series: { count: 2, lastObservedTime: '2026-11-27T12:01:00.000000Z' } });
    assert.equal(series.status, 200, series.text);
    const note = await t.req('PUT', `${V1}/ok`, { ...series.body, note: 'changed' });
    assert.equal(note.status, 422, note.text);
    const changed = await t.req('PUT', `${V1}/ok`, { ...(await t.req('GET', `${V1}/ok`)).body, reason: 'Other' });
    assert.equal(changed.status, 422, changed.text);
    assert.match(changed.body.message, /reason: Invalid value: "Other": field is immutable/);
  });
});
