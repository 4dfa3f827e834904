// Kinds served in several versions share one store in the storage version:
// objects written in one version read back in the other, and round-trip
// without loss (spec "Versioning"). HPA autoscaling v2 ⇄ v1, flowcontrol
// v1beta3 ⇄ v1beta2, core Events ⇄ events.svc.io/v1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';

describe('conversion between served versions', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'conv' } });
  });
  after(async () => t?.stop());

  const hpaV2 = (name: string) => ({
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
      ],
    },
  });

  it('an HPA written as v2 reads as v1 (cpu target, other metrics kept in an annotation) and back without loss', async () => {
    const c = await t.req('POST', '/apis/autoscaling/v2/namespaces/conv/horizontalpodautoscalers', hpaV2('web'));
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const v1 = await t.req('GET', '/apis/autoscaling/v1/namespaces/conv/horizontalpodautoscalers/web');
    assert.equal(v1.status, 200);
    assert.equal(v1.body.apiVersion, 'autoscaling/v1');
    assert.equal(v1.body.spec.targetCPUUtilizationPercentage, 60);
    assert.equal(v1.body.spec.metrics, undefined);
    assert.match(v1.body.metadata.annotations['autoscaling.alpha.svc.io/metrics'], /memory/);
    // An update through v1 keeps what only v2 can say.
    const u = await t.req('PUT', '/apis/autoscaling/v1/namespaces/conv/horizontalpodautoscalers/web', { ...v1.body, spec: { ...v1.body.spec, maxReplicas: 9 } });
    assert.equal(u.status, 200, JSON.stringify(u.body));
    assert.equal(u.body.apiVersion, 'autoscaling/v1');
    const v2 = await t.req('GET', '/apis/autoscaling/v2/namespaces/conv/horizontalpodautoscalers/web');
    assert.equal(v2.body.spec.maxReplicas, 9);
    assert.deepEqual(v2.body.spec.metrics.map((m: { resource: { name: string } }) => m.resource.name).sort(), ['cpu', 'memory']);
    assert.equal(v2.body.metadata.annotations?.['autoscaling.alpha.svc.io/metrics'], undefined, 'round-trip annotations are not stored');
    const l1 = await t.req('GET', '/apis/autoscaling/v1/namespaces/conv/horizontalpodautoscalers');
    assert.equal(l1.body.items[0].spec.targetCPUUtilizationPercentage, 60);
  });

  it('an HPA created as v1 gets v2 defaults and reads back as v1 unchanged', async () => {
    const body = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'old' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 70 } };
    const c = await t.req('POST', '/apis/autoscaling/v1/namespaces/conv/horizontalpodautoscalers', body);
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.equal(c.body.apiVersion, 'autoscaling/v1');
    assert.equal(c.body.spec.targetCPUUtilizationPercentage, 70);
    assert.equal(c.body.spec.minReplicas, 1);
    const v2 = await t.req('GET', '/apis/autoscaling/v2/namespaces/conv/horizontalpodautoscalers/old');
    assert.deepEqual(v2.body.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
    // A merge patch through v1 is applied to the v1 view.
    const p = await t.req('PATCH', '/apis/autoscaling/v1/namespaces/conv/horizontalpodautoscalers/old', { spec: { targetCPUUtilizationPercentage: 50 } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(p.body.spec.targetCPUUtilizationPercentage, 50);
    const after = await t.req('GET', '/apis/autoscaling/v2/namespaces/conv/horizontalpodautoscalers/old');
    assert.equal(after.body.spec.metrics[0].resource.target.averageUtilization, 50);
  });

  it('a watch in v1 sees v1 objects', async () => {
    const w = await t.req('GET', '/apis/autoscaling/v1/namespaces/conv/horizontalpodautoscalers?watch=1&timeoutSeconds=1');
    const events = w.text.trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(events.length >= 2);
    for (const e of events) {
      assert.equal(e.object.apiVersion, 'autoscaling/v1');
      assert.equal(typeof e.object.spec.targetCPUUtilizationPercentage, 'number');
    }
  });

  it('flowcontrol v1beta2 assuredConcurrencyShares is v1beta3 nominalConcurrencyShares', async () => {
    const body = { metadata: { name: 'plc' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } } } };
    const c = await t.req('POST', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations', body);
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.equal(c.body.spec.limited.assuredConcurrencyShares, 7);
    const v3 = await t.req('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations/plc');
    assert.equal(v3.body.apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta3');
    assert.equal(v3.body.spec.limited.nominalConcurrencyShares, 7);
    assert.equal(v3.body.spec.limited.assuredConcurrencyShares, undefined);
  });

  it('events.svc.io/v1 Events are core Events (one storage, renamed fields)', async () => {
    const ev = {
      metadata: { name: 'e1' }, eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'svc.io/test', reportingInstance: 'i1',
      action: 'Started', reason: 'Started', regarding: { kind: 'Pod', namespace: 'conv', name: 'p' }, note: 'hello', type: 'Normal',
    };
    const c = await t.req('POST', '/apis/events.svc.io/v1/namespaces/conv/events', ev);
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.equal(c.body.note, 'hello');
    const core = await t.req('GET', '/api/v1/namespaces/conv/events/e1');
    assert.equal(core.status, 200, 'the same object through the core group');
    assert.equal(core.body.message, 'hello');
    assert.equal(core.body.involvedObject.name, 'p');
    const list = await t.req('GET', '/apis/events.k8s.io/v1/namespaces/conv/events');
    assert.deepEqual(list.body.items.map((i: { note: string }) => i.note), ['hello']);
  });
});

describe('server-side apply over HTTPS', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.stop());
  const apply = (path: string, body: unknown, q: string) =>
    t.req('PATCH', `${path}?${q}`, undefined, { raw: JSON.stringify(body), headers: { 'Content-Type': 'application/apply-patch+yaml' } });
  const cm = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data });
  const path = '/api/v1/namespaces/default/configmaps/a';

  it('creates (201), conflicts with another manager (409 with causes), force takes the field, managedFields per manager', async () => {
    const c = await apply(path, cm({ x: '1' }), 'fieldManager=alice');
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.deepEqual(c.body.metadata.managedFields.map((e: { manager: string; operation: string }) => [e.manager, e.operation]), [['alice', 'Apply']]);
    const conflict = await apply(path, cm({ x: '2' }), 'fieldManager=bob');
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.reason, 'Conflict');
    assert.equal(conflict.body.message, 'Apply failed with 1 conflict: conflict with "alice": .data.x');
    assert.deepEqual(conflict.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.x' }]);
    const forced = await apply(path, cm({ x: '2' }), 'fieldManager=bob&force=true');
    assert.equal(forced.status, 200);
    assert.equal(forced.body.data.x, '2');
    assert.deepEqual(forced.body.metadata.managedFields.map((e: { manager: string }) => e.manager), ['bob']);
  });

  it('an update takes ownership without conflict; the User-Agent names the manager when fieldManager is absent', async () => {
    const g = await t.req('GET', path);
    const u = await t.req('PUT', path, { ...g.body, data: { x: '2', y: 'new' } }, { headers: { 'User-Agent': 'my-tool/1.0 (linux)' } });
    assert.equal(u.status, 200);
    const byManager = Object.fromEntries(u.body.metadata.managedFields.map((e: { manager: string; fieldsV1: unknown }) => [e.manager, e.fieldsV1]));
    assert.deepEqual(byManager['my-tool'], { 'f:data': { 'f:y': {} } });
  });

  it('rejects an apply without fieldManager, with managedFields, or force on a non-apply patch', async () => {
    const noManager = await apply(path, cm({ x: '1' }), '');
    assert.equal(noManager.status, 422);
    assert.match(noManager.body.message, /fieldManager: Required value: is required for apply patch/);
    const withManaged = await apply(path, { ...cm({}), metadata: { name: 'a', managedFields: [{ manager: 'x' }] } }, 'fieldManager=alice');
    assert.equal(withManaged.status, 400);
    assert.equal(withManaged.body.message, 'metadata.managedFields must be nil');
    const force = await t.req('PATCH', `${path}?force=true`, { data: { z: '1' } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(force.status, 422);
    assert.match(force.body.message, /force: Forbidden: may not be specified for non-apply patch/);
  });

  it('dryRun=All applies nothing', async () => {
    const before = await t.req('GET', path);
    const dry = await apply(path, cm({ x: '9' }), 'fieldManager=bob&dryRun=All');
    assert.equal(dry.status, 200);
    assert.equal(dry.body.data.x, '9');
    const after = await t.req('GET', path);
    assert.deepEqual(after.body, before.body);
    const ghost = await apply('/api/v1/namespaces/default/configmaps/ghost', { ...cm({}), metadata: { name: 'ghost' } }, 'fieldManager=bob&dryRun=All');
    assert.equal(ghost.status, 201);
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/configmaps/ghost')).status, 404);
  });
});
