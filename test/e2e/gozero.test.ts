// Go's always-written fields through the real server (issue 17, class 5): a
// struct field without omitempty is written even at its zero value, so
// kube-apiserver answers a created ReplicaSet with `status: {"replicas": 0}`
// (its strategy resets the status, its encoder writes the zero struct). Each
// row names the Go struct and fields it pins (k8s.io/api v0.27 types.go) and
// checks the written zero values in the create, update, /status write, merge
// patch, dry-run and server-side apply responses and in later reads, and that
// none of them is owned through managedFields by the create.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';

const NS = 'gozero';
const labels = { app: 'gz' };
const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
const selector = { matchLabels: labels };

interface Row {
  /** The Go struct and fields the row pins. */
  readonly pins: string;
  /** The collection path. */
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** A status the client sends on create (the create resets it). */
  readonly sent: Record<string, unknown>;
  /** The status after create, and after main-resource writes. */
  readonly created: Record<string, unknown>;
  /** A /status write of one field, what the status then is, and the fields the write owns. */
  readonly statusWrite: Record<string, unknown>;
  readonly afterStatusWrite: Record<string, unknown>;
  readonly owns: readonly string[];
}

const ROWS: readonly Row[] = [
  {
    pins: 'apps/v1 ReplicaSetStatus.replicas',
    path: `/apis/apps/v1/namespaces/${NS}/replicasets`,
    body: { spec: { replicas: 0, selector, template } },
    sent: { replicas: 5, readyReplicas: 2 },
    created: { replicas: 0 },
    statusWrite: { observedGeneration: 1 },
    afterStatusWrite: { replicas: 0, observedGeneration: 1 },
    owns: ['f:observedGeneration'],
  },
  {
    pins: 'apps/v1 StatefulSetStatus.replicas, .availableReplicas',
    path: `/apis/apps/v1/namespaces/${NS}/statefulsets`,
    body: { spec: { selector, template, serviceName: 'gz' } },
    sent: { replicas: 3, currentRevision: 'r1' },
    created: { replicas: 0, availableReplicas: 0 },
    statusWrite: { observedGeneration: 1 },
    afterStatusWrite: { replicas: 0, availableReplicas: 0, observedGeneration: 1 },
    owns: ['f:observedGeneration'],
  },
  {
    pins: 'apps/v1 DaemonSetStatus.currentNumberScheduled, .numberMisscheduled, .desiredNumberScheduled, .numberReady',
    path: `/apis/apps/v1/namespaces/${NS}/daemonsets`,
    body: { spec: { selector, template } },
    sent: { numberReady: 4 },
    created: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
    statusWrite: { desiredNumberScheduled: 2 },
    afterStatusWrite: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 0 },
    owns: ['f:desiredNumberScheduled'],
  },
  {
    pins: 'core/v1 ReplicationControllerStatus.replicas',
    path: `/api/v1/namespaces/${NS}/replicationcontrollers`,
    body: { spec: { replicas: 0, selector: labels, template } },
    sent: { replicas: 2 },
    created: { replicas: 0 },
    statusWrite: { observedGeneration: 1 },
    afterStatusWrite: { replicas: 0, observedGeneration: 1 },
    owns: ['f:observedGeneration'],
  },
  {
    pins: 'autoscaling/v2 HorizontalPodAutoscalerStatus.desiredReplicas, .currentMetrics (a nil slice: null)',
    path: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
    body: { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3 } },
    sent: { currentReplicas: 3, desiredReplicas: 4 },
    created: { desiredReplicas: 0, currentMetrics: null },
    statusWrite: { currentReplicas: 2 },
    afterStatusWrite: { currentReplicas: 2, desiredReplicas: 0, currentMetrics: null },
    owns: ['f:currentReplicas'],
  },
  {
    pins: 'autoscaling/v1 HorizontalPodAutoscalerStatus.currentReplicas, .desiredReplicas (the v1 view of the v2 object)',
    path: `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`,
    body: { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3 } },
    sent: { currentReplicas: 3, desiredReplicas: 4 },
    created: { currentReplicas: 0, desiredReplicas: 0 },
    statusWrite: { observedGeneration: 1, currentReplicas: 0, desiredReplicas: 0 },
    afterStatusWrite: { observedGeneration: 1, currentReplicas: 0, desiredReplicas: 0 },
    owns: ['f:observedGeneration'],
  },
  {
    pins: 'policy/v1 PodDisruptionBudgetStatus.disruptionsAllowed, .currentHealthy, .desiredHealthy, .expectedPods',
    path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
    body: { spec: { minAvailable: 1, selector } },
    sent: { expectedPods: 3 },
    created: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    statusWrite: { observedGeneration: 1 },
    afterStatusWrite: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    owns: ['f:observedGeneration'],
  },
  {
    pins: 'storage/v1 VolumeAttachmentStatus.attached',
    path: '/apis/storage.svc.io/v1/volumeattachments',
    body: { spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv1' } } },
    sent: { attached: true },
    created: { attached: false },
    statusWrite: { attachmentMetadata: { dev: '/dev/x' } },
    afterStatusWrite: { attached: false, attachmentMetadata: { dev: '/dev/x' } },
    owns: ['f:attachmentMetadata'],
  },
  {
    pins: 'core/v1 NodeStatus.daemonEndpoints (DaemonEndpoint.Port), .nodeInfo (NodeSystemInfo: ten strings): structs held by value',
    path: '/api/v1/nodes',
    body: {},
    sent: {},
    created: {
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' },
    },
    statusWrite: { capacity: { cpu: '2' } },
    afterStatusWrite: {
      capacity: { cpu: '2' }, allocatable: { cpu: '2' },
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' },
    },
    owns: ['f:allocatable', 'f:capacity'],
  },
  {
    pins: 'core/v1 ServiceStatus.loadBalancer (a struct held by value)',
    path: `/api/v1/namespaces/${NS}/services`,
    body: { spec: { ports: [{ port: 80 }] } },
    sent: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
    created: { loadBalancer: {} },
    statusWrite: { conditions: [{ type: 'Ready', status: 'True', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    afterStatusWrite: { loadBalancer: {}, conditions: [{ type: 'Ready', status: 'True', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    owns: ['f:conditions'],
  },
  {
    pins: 'core/v1 PersistentVolumeClaimStatus.phase: reset, then Pending (its default)',
    path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`,
    body: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
    sent: { phase: 'Bound' },
    created: { phase: 'Pending' },
    statusWrite: { phase: 'Pending', conditions: [{ type: 'Resizing', status: 'True' }] },
    afterStatusWrite: { phase: 'Pending', conditions: [{ type: 'Resizing', status: 'True', lastProbeTime: null, lastTransitionTime: null }] },
    owns: ['f:conditions'],
  },
];

/** The names of a managedFields entry's top-level fields (f:spec, f:status, …). */
const topFields = (entry: { fieldsV1?: Record<string, unknown> }) => Object.keys(entry.fieldsV1 ?? {});

describe('Go\'s always-written fields (issue 17, class 5)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => t?.stop());

  ROWS.forEach((row, i) => {
    it(row.pins, async () => {
      const name = `gz${i}`; // HPA rows share one storage
      const at = `${row.path}/${name}`;
      const create = await t.req('POST', row.path, { ...row.body, metadata: { name, labels: { row: String(i) } }, status: row.sent });
      assert.equal(create.status, 201, create.text);
      assert.deepEqual(create.body.status, row.created, 'create');
      assert.equal(create.body.metadata.managedFields.length, 1);
      for (const m of create.body.metadata.managedFields) assert.ok(!topFields(m).includes('f:status'), `the create owns no status: ${JSON.stringify(m.fieldsV1)}`);

      assert.deepEqual((await t.req('GET', at)).body.status, row.created, 'get');
      const listed = (await t.req('GET', row.path)).body.items.find((i: { metadata: { name: string } }) => i.metadata.name === name);
      assert.deepEqual(listed.status, row.created, 'list');

      const dry = await t.req('POST', `${row.path}?dryRun=All`, { ...row.body, metadata: { name: `${name}-dry` }, status: row.sent });
      assert.equal(dry.status, 201, dry.text);
      assert.deepEqual(dry.body.status, row.created, 'dry-run create');

      const update = await t.req('PUT', at, { ...create.body, metadata: { ...create.body.metadata, labels: { touched: 'yes' } }, status: row.sent });
      assert.equal(update.status, 200, update.text);
      assert.deepEqual(update.body.status, row.created, 'update keeps the status');
      for (const m of update.body.metadata.managedFields ?? []) assert.ok(!topFields(m).includes('f:status'), `the update owns no status: ${JSON.stringify(m.fieldsV1)}`);

      const patch = await t.req('PATCH', at, { metadata: { labels: { patched: 'yes' } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patch.status, 200, patch.text);
      assert.deepEqual(patch.body.status, row.created, 'merge patch keeps the status');

      const written = await t.req('PUT', `${at}/status`, { ...patch.body, status: row.statusWrite });
      assert.equal(written.status, 200, written.text);
      assert.deepEqual(written.body.status, row.afterStatusWrite, '/status write');
      const statusEntries = (written.body.metadata.managedFields ?? []).filter((m: { subresource?: string }) => m.subresource === 'status');
      assert.equal(statusEntries.length, 1, JSON.stringify(written.body.metadata.managedFields));
      assert.deepEqual(Object.keys(statusEntries[0].fieldsV1['f:status']).sort(), [...row.owns].sort(), 'the /status write owns what it changed, not the zero values');
      assert.deepEqual((await t.req('GET', at)).body.status, row.afterStatusWrite, 'get after /status');

      const merged = await t.req('PATCH', `${at}/status`, { metadata: { labels: { x: 'y' } } }, { headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(merged.status, 200, merged.text);
      assert.deepEqual(merged.body.status, row.afterStatusWrite, 'merge patch on /status');

      const applied = await t.req('PATCH', `${row.path}/${name}-applied?fieldManager=gz`, { apiVersion: create.body.apiVersion, kind: create.body.kind, ...row.body, metadata: { name: `${name}-applied` } }, { headers: { 'content-type': 'application/apply-patch+yaml' } });
      assert.equal(applied.status, 201, applied.text);
      assert.deepEqual(applied.body.status, row.created, 'server-side apply create');
      for (const m of applied.body.metadata.managedFields ?? []) assert.ok(!topFields(m).includes('f:status'), `the apply owns no status: ${JSON.stringify(m.fieldsV1)}`);
      const appliedDry = await t.req('PATCH', `${row.path}/${name}-applied-dry?fieldManager=gz&dryRun=All`, { apiVersion: create.body.apiVersion, kind: create.body.kind, ...row.body, metadata: { name: `${name}-applied-dry` } }, { headers: { 'content-type': 'application/apply-patch+yaml' } });
      assert.equal(appliedDry.status, 201, appliedDry.text);
      assert.deepEqual(appliedDry.body.status, row.created, 'dry-run server-side apply create');
    });
  });

  it('core/v1 PodCondition.lastProbeTime, .lastTransitionTime (metav1.Time held by value: null) through a /status patch', async () => {
    const pods = `/api/v1/namespaces/${NS}/pods`;
    const c = await t.req('POST', pods, { metadata: { name: 'p' }, spec: template.spec, status: { phase: 'Running' } });
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.body.status, { phase: 'Pending', qosClass: 'BestEffort' });
    const p = await t.req('PATCH', `${pods}/p/status`, { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    assert.equal(p.status, 200, p.text);
    assert.deepEqual(p.body.status, { phase: 'Pending', qosClass: 'BestEffort', conditions: [{ type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: null }] });
    assert.deepEqual((await t.req('GET', `${pods}/p`)).body.status, p.body.status);
  });

  it('core/v1 ContainerStatus.name, .ready, .restartCount, .image, .imageID, .state, .lastState through a /status write', async () => {
    const pods = `/api/v1/namespaces/${NS}/pods`;
    await t.req('POST', pods, { metadata: { name: 'cs' }, spec: template.spec });
    const cur = (await t.req('GET', `${pods}/cs`)).body;
    const w = await t.req('PUT', `${pods}/cs/status`, { ...cur, status: { ...cur.status, containerStatuses: [{ name: 'c', state: { running: {} } }] } });
    assert.equal(w.status, 200, w.text);
    assert.deepEqual(w.body.status.containerStatuses, [{ name: 'c', state: { running: { startedAt: null } }, lastState: {}, ready: false, restartCount: 0, image: '', imageID: '' }]);
  });

  it('core/v1 Event.source, .firstTimestamp, .lastTimestamp, .eventTime, .reportingComponent, .reportingInstance; events/v1 Event.deprecatedSource, .deprecatedFirstTimestamp, .deprecatedLastTimestamp', async () => {
    const core = `/api/v1/namespaces/${NS}/events`;
    const c = await t.req('POST', core, { metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: NS }, reason: 'Test', message: 'm', type: 'Normal' });
    assert.equal(c.status, 201, c.text);
    const written = { source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' };
    for (const [k, v] of Object.entries(written)) assert.deepEqual(c.body[k], v, k);
    for (const m of c.body.metadata.managedFields) for (const k of Object.keys(written)) assert.ok(!(`f:${k}` in m.fieldsV1), `the create owns no zero ${k}`);
    const viaEvents = await t.req('GET', `/apis/events.svc.io/v1/namespaces/${NS}/events/e1`);
    assert.equal(viaEvents.status, 200);
    for (const [k, v] of Object.entries({ deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null, eventTime: null, reportingController: '', reportingInstance: '' })) {
      assert.deepEqual(viaEvents.body[k], v, `events.svc.io/v1 ${k}`);
    }
    const listed = (await t.req('GET', `/apis/events.svc.io/v1/namespaces/${NS}/events`)).body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'e1');
    assert.deepEqual(listed.deprecatedSource, {});
  });

  it('coordination/v1 Lease.spec, core/v1 Node.spec: a kind\'s spec struct is written even when the client sent none', async () => {
    const l = await t.req('POST', `/apis/coordination.svc.io/v1/namespaces/${NS}/leases`, { metadata: { name: 'l', labels } });
    assert.equal(l.status, 201, l.text);
    assert.deepEqual(l.body.spec, {});
    assert.deepEqual(Object.keys(l.body.metadata.managedFields[0].fieldsV1), ['f:metadata'], 'the zero spec is not owned');
    assert.deepEqual((await t.req('GET', `/apis/coordination.svc.io/v1/namespaces/${NS}/leases/l`)).body.spec, {});
    // (a Node's spec is not empty on create: TaintNodesByCondition, on by default, taints it not-ready; without it, {})
    const n = await t.req('POST', '/api/v1/nodes', { metadata: { name: 'nospec' } });
    assert.deepEqual(n.body.spec, { taints: [{ key: 'node.svc.io/not-ready', effect: 'NoSchedule' }] });
  });

  it('autoscaling/v1 ScaleSpec.replicas is omitempty, ScaleStatus.replicas always written', async () => {
    const rs = `/apis/apps/v1/namespaces/${NS}/replicasets`;
    assert.equal((await t.req('POST', rs, { metadata: { name: 'sc' }, spec: { replicas: 0, selector, template } })).status, 201);
    const s = await t.req('GET', `${rs}/sc/scale`);
    assert.equal(s.status, 200);
    assert.deepEqual(s.body.spec, {});
    assert.deepEqual(s.body.status, { replicas: 0, selector: 'app=gz' });
    const up = await t.req('PUT', `${rs}/sc/scale`, { metadata: { name: 'sc' }, spec: { replicas: 2 } });
    assert.deepEqual(up.body.spec, { replicas: 2 });
    assert.deepEqual(up.body.status, { replicas: 0, selector: 'app=gz' });
  });
});
