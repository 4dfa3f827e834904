// The deployment controller end to end with kubectl 1.27, the ReplicaSet
// controller running beside it, and the test marking pods Ready as a node
// would: create → ReplicaSet + pods with owners and Events; scale; a rolling
// update kept within maxSurge/maxUnavailable at every observed step; rollout
// status, history, undo, pause/resume, restart; Recreate; revision history
// cleanup; the progress deadline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BACKENDS } from './backends.js';
import { eventually, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { markReady } from './podstatus.js';
import { startDeploymentController } from '../../src/controllers/deployment/index.js';
import { startReplicaSetController } from '../../src/controllers/replicaset/index.js';
import type { Controller } from '../../src/controllers/context.js';

const NS = 'dep';

interface Obj {
  metadata: { name: string; uid: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: { kind: string; name: string; uid: string; controller?: boolean }[]; deletionTimestamp?: string };
  spec: { replicas: number; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: { containers: { image: string }[] } } };
  status: { replicas?: number; updatedReplicas?: number; readyReplicas?: number; availableReplicas?: number; conditions?: { type: string; status: string; reason: string; message: string }[] };
}

for (const backend of BACKENDS) describe(`deployment controller with kubectl 1.27 (${backend.name})`, { skip: kubectlMissing || backend.skip }, () => {
  let t: TestServer;
  const kubectl = kubectlFor(() => t);
  const running: Controller[] = [];
  before(async () => {
    t = await backend.start({});
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    for (const c of [startReplicaSetController(t.server.controllerContext, { retryMs: 100 }), startDeploymentController(t.server.controllerContext, { retryMs: 100 })]) {
      running.push(c);
      await c.start();
    }
  });
  after(async () => {
    for (const c of running) await c.stop();
    await t?.stop();
    kubectl.cleanup();
  });

  const k = async (...args: string[]) => {
    const r = await kubectl('-n', NS, ...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.err}`);
    return r.out;
  };
  const deployment = async (name: string) => (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/deployments/${name}`)).body as Obj;
  const replicaSetsOf = async (d: Obj) => ((await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets`)).body.items as Obj[])
    .filter((rs) => rs.metadata.ownerReferences?.some((r) => r.uid === d.metadata.uid && r.controller));
  const podsOf = async (rs: Obj) => ((await t.req('GET', `/api/v1/namespaces/${NS}/pods`)).body.items as (Obj & { status: { conditions?: { type: string; status: string }[] } })[])
    .filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === rs.metadata.uid) && !p.metadata.deletionTimestamp);
  const events = async (name: string) => ((await t.req('GET', `/api/v1/namespaces/${NS}/events`)).body.items as { involvedObject: { kind: string; name: string }; reason: string; message: string; type: string; source: { component: string } }[])
    .filter((e) => e.involvedObject.name === name);
  const condition = (o: Obj, type: string) => o.status.conditions?.find((c) => c.type === type);
  const newest = (rss: Obj[], d: Obj) => rss.find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === d.metadata.annotations?.['deployment.kubernetes.io/revision']);

  /** Marks every pod of the Deployment's ReplicaSets Ready. */
  async function readyAll(d: Obj): Promise<void> {
    for (const rs of await replicaSetsOf(d)) {
      for (const p of await podsOf(rs)) if (!p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) await markReady(t, NS, p.metadata.name);
    }
  }

  /**
   * Drives a rollout to its end, as nodes would (new pods become Ready), and
   * checks the RollingUpdate bounds at every observation: never more than
   * replicas + surge pods wanted and, once replicas - unavailable pods were
   * available, never fewer.
   */
  async function rollOut(name: string, surge: number, unavailable: number): Promise<void> {
    let reached = false;
    await eventually(async () => {
      const d = await deployment(name);
      const rss = await replicaSetsOf(d);
      const wanted = rss.reduce((n, rs) => n + rs.spec.replicas, 0);
      const available = rss.reduce((n, rs) => n + (rs.status.availableReplicas ?? 0), 0);
      assert.ok(wanted <= d.spec.replicas + surge, `${wanted} pods wanted, more than ${d.spec.replicas} + ${surge}`);
      // each ReplicaSet as the snapshot showed it: what a failure needs to tell a controller's fault from the snapshot's
      const shown = () => rss.map((rs) => `${rs.metadata.name}@${(rs.metadata as { resourceVersion?: string }).resourceVersion} spec ${rs.spec.replicas} status ${JSON.stringify(rs.status)}`).join('; ');
      if (reached) assert.ok(available >= d.spec.replicas - unavailable, `${available} available, fewer than ${d.spec.replicas} - ${unavailable}: ${shown()}`);
      reached ||= available >= d.spec.replicas - unavailable;
      // the status must be of this generation: right after a template change it still tells of the last rollout
      const done = (d.status as { observedGeneration?: number }).observedGeneration === (d.metadata as { generation?: number }).generation
        && d.status.updatedReplicas === d.spec.replicas && d.status.replicas === d.spec.replicas && d.status.availableReplicas === d.spec.replicas
        && condition(d, 'Progressing')?.reason === 'NewReplicaSetAvailable';
      if (!done) await readyAll(d);
      return done;
    }, 60_000);
  }

  it('kubectl create deployment makes a ReplicaSet named by the template hash, and its pods, with owners and Events', async () => {
    await k('create', 'deployment', 'web', '--image=nginx', '--replicas=3');
    await eventually(async () => (await replicaSetsOf(await deployment('web'))).length === 1);
    const d = await deployment('web');
    const [rs] = await replicaSetsOf(d);
    const hash = rs!.metadata.labels!['pod-template-hash']!;
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
    assert.equal(rs!.metadata.name, `web-${hash}`);
    assert.deepEqual(rs!.spec.selector.matchLabels, { app: 'web', 'pod-template-hash': hash });
    assert.deepEqual(rs!.spec.template.metadata.labels, { app: 'web', 'pod-template-hash': hash });
    assert.equal(rs!.metadata.annotations!['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs!.metadata.annotations!['deployment.kubernetes.io/desired-replicas'], '3');
    assert.equal(rs!.metadata.annotations!['deployment.kubernetes.io/max-replicas'], '4');
    await eventually(async () => (await podsOf(rs!)).length === 3);
    for (const p of await podsOf(rs!)) assert.equal(p.metadata.labels!['pod-template-hash'], hash);
    await eventually(async () => (await events('web')).some((e) => e.reason === 'ScalingReplicaSet'));
    const scaling = (await events('web')).filter((e) => e.reason === 'ScalingReplicaSet');
    assert.deepEqual(scaling.map((e) => [e.type, e.message, e.source.component]), [['Normal', `Scaled up replica set web-${hash} to 3`, 'deployment-controller']]);
    await eventually(async () => (await events(rs!.metadata.name)).filter((e) => e.reason === 'SuccessfulCreate').length === 3);
    await eventually(async () => (await deployment('web')).metadata.annotations?.['deployment.kubernetes.io/revision'] === '1');
    const progressing = condition(await deployment('web'), 'Progressing');
    assert.ok(progressing && progressing.status === 'True', JSON.stringify(progressing));
  });

  it('kubectl rollout status finishes once the pods are Ready; status and conditions as kube writes them', async () => {
    const status = kubectl.start('-n', NS, 'rollout', 'status', 'deployment/web', '--timeout=60s');
    await rollOut('web', 1, 0);
    const done = await status.done;
    assert.equal(done.code, 0, done.err);
    assert.match(done.out, /deployment "web" successfully rolled out/);
    const d = await deployment('web');
    assert.deepEqual([d.status.replicas, d.status.updatedReplicas, d.status.readyReplicas, d.status.availableReplicas], [3, 3, 3, 3]);
    const [rs] = await replicaSetsOf(d);
    assert.deepEqual(condition(d, 'Available'), { ...condition(d, 'Available'), status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    assert.deepEqual(condition(d, 'Progressing'), { ...condition(d, 'Progressing'), status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${rs!.metadata.name}" has successfully progressed.` });
    // kubectl describe finds the new ReplicaSet by comparing templates without the hash label, as kube's controller does
    const described = await k('describe', 'deployment', 'web');
    assert.match(described, /Replicas:\s+3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable/);
    assert.match(described, new RegExp(`NewReplicaSet:\\s+${rs!.metadata.name} \\(3/3 replicas created\\)`));
    assert.match(described, /Available\s+True\s+MinimumReplicasAvailable/);
    assert.match(described, /Progressing\s+True\s+NewReplicaSetAvailable/);
    assert.match(described, new RegExp(`Normal\\s+ScalingReplicaSet\\s+.*deployment-controller\\s+Scaled up replica set ${rs!.metadata.name} to 3`));
  });

  it('kubectl scale resizes the ReplicaSet ("Scaled up replica set … to 4 from 3")', async () => {
    await k('scale', 'deployment/web', '--replicas=4');
    const d = await deployment('web');
    const [rs] = await replicaSetsOf(d);
    await eventually(async () => (await podsOf(rs!)).length === 4);
    await eventually(async () => (await events('web')).some((e) => e.message === `Scaled up replica set ${rs!.metadata.name} to 4 from 3`));
    await rollOut('web', 1, 1);
  });

  it('kubectl set image rolls out a new ReplicaSet within maxSurge and maxUnavailable (25% of 4: 1 and 1)', async () => {
    const before = (await replicaSetsOf(await deployment('web')))[0]!;
    await k('set', 'image', 'deployment/web', 'nginx=nginx:1.25');
    // the first step, before any new pod is Ready: the new ReplicaSet takes the surge, the old one gives one up
    await eventually(async () => {
      const rss = await replicaSetsOf(await deployment('web'));
      const fresh = rss.find((rs) => rs.metadata.uid !== before.metadata.uid);
      const old = rss.find((rs) => rs.metadata.uid === before.metadata.uid);
      return fresh?.spec.replicas === 2 && old?.spec.replicas === 3;
    });
    await rollOut('web', 1, 1);
    const d = await deployment('web');
    const rss = await replicaSetsOf(d);
    const fresh = newest(rss, d)!;
    assert.equal(d.metadata.annotations!['deployment.kubernetes.io/revision'], '2');
    assert.equal(fresh.spec.template.spec.containers[0]!.image, 'nginx:1.25');
    assert.equal(rss.find((rs) => rs.metadata.uid === before.metadata.uid)!.spec.replicas, 0);
    const msgs = (await events('web')).map((e) => e.message);
    assert.ok(msgs.includes(`Scaled up replica set ${fresh.metadata.name} to 1`), msgs.join('\n'));
    assert.ok(msgs.includes(`Scaled down replica set ${before.metadata.name} to 3 from 4`), msgs.join('\n'));
    // how the rest goes depends on how soon the new pods are Ready; the old ReplicaSet ends at 0 (from the
    // tenth different message on, client-go's correlator writes them as one event "combined from similar events")
    assert.ok(msgs.some((m) => new RegExp(`^(\\(combined from similar events\\): )?Scaled down replica set ${before.metadata.name} to 0 from [1-3]$`).test(m)), msgs.join('\n'));
  });

  it('kubectl rollout history lists the revisions; rollout undo brings the first template back as revision 3', async () => {
    const history = await k('rollout', 'history', 'deployment/web');
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    const first = (await replicaSetsOf(await deployment('web'))).find((rs) => rs.metadata.annotations!['deployment.kubernetes.io/revision'] === '1')!;
    const undo = await k('rollout', 'undo', 'deployment/web');
    assert.match(undo, /deployment.apps\/web rolled back/);
    await eventually(async () => (await replicaSetsOf(await deployment('web'))).find((rs) => rs.metadata.uid === first.metadata.uid)?.metadata.annotations?.['deployment.kubernetes.io/revision'] === '3');
    await rollOut('web', 1, 1);
    const d = await deployment('web');
    const back = (await replicaSetsOf(d)).find((rs) => rs.metadata.uid === first.metadata.uid)!;
    assert.equal(back.metadata.annotations!['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(back.spec.replicas, 4);
    assert.equal(d.spec.template.spec.containers[0]!.image, 'nginx');
    assert.match(await k('rollout', 'history', 'deployment/web'), /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);
  });

  it('kubectl rollout pause holds template changes (Progressing DeploymentPaused); resume rolls them out', async () => {
    await k('rollout', 'pause', 'deployment/web');
    await eventually(async () => condition(await deployment('web'), 'Progressing')?.reason === 'DeploymentPaused');
    assert.deepEqual(condition(await deployment('web'), 'Progressing'), { ...condition(await deployment('web'), 'Progressing'), status: 'Unknown', message: 'Deployment is paused' });
    const count = (await replicaSetsOf(await deployment('web'))).length;
    await k('set', 'image', 'deployment/web', 'nginx=nginx:1.26');
    // the controller saw the change (observedGeneration) and made no ReplicaSet for it
    await eventually(async () => {
      const d = await deployment('web');
      return (d.status as { observedGeneration?: number }).observedGeneration === (d.metadata as { generation?: number }).generation;
    });
    assert.equal((await replicaSetsOf(await deployment('web'))).length, count);
    await k('rollout', 'resume', 'deployment/web');
    await eventually(async () => (await replicaSetsOf(await deployment('web'))).length === count + 1);
    await rollOut('web', 1, 1);
    assert.equal((await deployment('web')).metadata.annotations!['deployment.kubernetes.io/revision'], '4');
  });

  it('kubectl rollout restart makes a new ReplicaSet with the restartedAt template annotation', async () => {
    const count = (await replicaSetsOf(await deployment('web'))).length;
    await k('rollout', 'restart', 'deployment/web');
    await eventually(async () => (await replicaSetsOf(await deployment('web'))).length === count + 1);
    await rollOut('web', 1, 1);
    const d = await deployment('web');
    assert.ok(newest(await replicaSetsOf(d), d)!.spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']);
  });

  it('revisionHistoryLimit deletes the oldest ReplicaSets scaled to 0 once the rollout is complete', async () => {
    const out = await kubectl('-n', NS, 'patch', 'deployment/web', '-p', '{"spec":{"revisionHistoryLimit":1}}');
    assert.equal(out.code, 0, out.err);
    await eventually(async () => (await replicaSetsOf(await deployment('web'))).length === 2);
    const d = await deployment('web');
    const revisions = (await replicaSetsOf(d)).map((rs) => Number(rs.metadata.annotations!['deployment.kubernetes.io/revision'])).sort();
    assert.deepEqual(revisions, [4, 5]);
  });

  it('adopts an orphan ReplicaSet its selector matches; one with its template becomes its new ReplicaSet', async () => {
    const template = { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const orphan = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/replicasets`, {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'legacy-rs', labels: { app: 'legacy' } },
      spec: { replicas: 2, selector: { matchLabels: { app: 'legacy' } }, template },
    });
    assert.equal(orphan.status, 201, orphan.text);
    const created = await t.req('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'legacy' }, spec: { replicas: 2, selector: { matchLabels: { app: 'legacy' } }, template },
    });
    assert.equal(created.status, 201, created.text);
    await eventually(async () => {
      const rs = (await t.req('GET', `/apis/apps/v1/namespaces/${NS}/replicasets/legacy-rs`)).body as Obj;
      return rs.metadata.ownerReferences?.[0]?.uid === created.body.metadata.uid && rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '1';
    });
    await rollOut('legacy', 1, 0);
    assert.deepEqual((await replicaSetsOf(await deployment('legacy'))).map((rs) => rs.metadata.name), ['legacy-rs'], 'no ReplicaSet of its own was made');
  });

  it('Recreate scales the old ReplicaSet to 0 before the new one gets any replica', async () => {
    const body = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'batch' },
      spec: { replicas: 2, strategy: { type: 'Recreate' }, selector: { matchLabels: { app: 'batch' } }, template: { metadata: { labels: { app: 'batch' } }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } } },
    };
    assert.equal((await t.req('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, body)).status, 201);
    await rollOut('batch', 0, 0);
    await k('set', 'image', 'deployment/batch', 'c=busybox:2');
    await eventually(async () => {
      const d = await deployment('batch');
      const rss = await replicaSetsOf(d);
      assert.ok(rss.filter((rs) => rs.spec.replicas > 0).length <= 1, 'never two ReplicaSets with replicas');
      const done = rss.length === 2 && d.status.updatedReplicas === 2 && d.status.availableReplicas === 2 && d.status.replicas === 2;
      if (!done) await readyAll(d);
      return done;
    }, 60_000);
  });

  it('a new ReplicaSet that cannot be created: Progressing False ReplicaSetCreateError and a Warning event with the error', async () => {
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'dep-quota' } })).status, 201);
    const quota = await t.req('POST', '/api/v1/namespaces/dep-quota/resourcequotas', { metadata: { name: 'rs' }, spec: { hard: { 'count/replicasets.apps': '1' } } });
    assert.equal(quota.status, 201, quota.text);
    await eventually(async () => (await t.req('GET', '/api/v1/namespaces/dep-quota/resourcequotas/rs')).body.status?.hard !== undefined);
    const body = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'capped' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'capped' } }, template: { metadata: { labels: { app: 'capped' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    assert.equal((await t.req('POST', '/apis/apps/v1/namespaces/dep-quota/deployments', body)).status, 201);
    await eventually(async () => ((await t.req('GET', '/apis/apps/v1/namespaces/dep-quota/replicasets')).body.items as unknown[]).length === 1);
    const r = await kubectl('-n', 'dep-quota', 'set', 'image', 'deployment/capped', 'c=nginx:2');
    assert.equal(r.code, 0, r.err);
    let message = '';
    await eventually(async () => {
      const d = (await t.req('GET', '/apis/apps/v1/namespaces/dep-quota/deployments/capped')).body as Obj;
      const c = condition(d, 'Progressing');
      message = c?.message ?? '';
      return c?.status === 'False' && c.reason === 'ReplicaSetCreateError';
    }, 20_000);
    assert.match(message, /^Failed to create new replica set "capped-[a-z0-9]+": replicasets\.apps "capped-[a-z0-9]+" is forbidden: exceeded quota: rs/);
    const warnings = ((await t.req('GET', '/api/v1/namespaces/dep-quota/events')).body.items as { reason: string; type: string; message: string; involvedObject: { kind: string } }[])
      .filter((e) => e.reason === 'ReplicaSetCreateError');
    assert.ok(warnings.length > 0 && warnings.every((e) => e.type === 'Warning' && e.involvedObject.kind === 'Deployment' && e.message.startsWith('Failed to create new replica set "capped-')), JSON.stringify(warnings));
  });

  it('a rollout that makes no progress for progressDeadlineSeconds is ProgressDeadlineExceeded; rollout status fails', async () => {
    const body = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'stuck' },
      spec: { replicas: 1, progressDeadlineSeconds: 1, selector: { matchLabels: { app: 'stuck' } }, template: { metadata: { labels: { app: 'stuck' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    assert.equal((await t.req('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, body)).status, 201);
    // Timed out once its ReplicaSet's pod is counted: a deadline of 1 s, measured from a condition stamped in whole
    // seconds, can pass before the pod is created, and the status change that follows is progress (the condition goes
    // back to True until the deadline passes again), as in kube. The pod never becomes Ready: then nothing moves.
    await eventually(async () => {
      const d = await deployment('stuck');
      return condition(d, 'Progressing')?.reason === 'ProgressDeadlineExceeded' && d.status.replicas === 1 && d.status.updatedReplicas === 1;
    }, 30_000);
    const d = await deployment('stuck');
    const [rs] = await replicaSetsOf(d);
    assert.deepEqual(condition(d, 'Progressing'), { ...condition(d, 'Progressing'), status: 'False', message: `ReplicaSet "${rs!.metadata.name}" has timed out progressing.` });
    assert.deepEqual(condition(d, 'Available'), { ...condition(d, 'Available'), status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
    const status = await kubectl('-n', NS, 'rollout', 'status', 'deployment/stuck', '--timeout=20s');
    assert.notEqual(status.code, 0);
    assert.match(status.err, /deployment "stuck" exceeded its progress deadline/);
  });
});
