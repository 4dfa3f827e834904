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

  it('an HPA created as v1 with no CPU target: the conversion\'s 80 % is shown and owned by the writer, as kube tracks it', async () => {
    const body = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'plain' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 } };
    const c = await t.req('POST', '/apis/autoscaling/v1/namespaces/conv/horizontalpodautoscalers?fieldManager=tool', body);
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.equal(c.body.spec.targetCPUUtilizationPercentage, 80);
    const [entry] = c.body.metadata.managedFields;
    assert.equal(entry.manager, 'tool');
    assert.equal(entry.apiVersion, 'autoscaling/v1');
    assert.deepEqual(Object.keys(entry.fieldsV1['f:spec']).sort(), ['f:maxReplicas', 'f:minReplicas', 'f:scaleTargetRef', 'f:targetCPUUtilizationPercentage']);
    // the same create through v2 owns the defaulted metric in v2's terms
    const c2 = await t.req('POST', '/apis/autoscaling/v2/namespaces/conv/horizontalpodautoscalers?fieldManager=tool', { ...body, apiVersion: 'autoscaling/v2', metadata: { name: 'plain2' } });
    assert.equal(c2.status, 201, JSON.stringify(c2.body));
    assert.ok(c2.body.metadata.managedFields[0].fieldsV1['f:spec']['f:metrics'], 'v2 tracks the metrics list');
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

// managedFields entries record the version they were written in; their field
// paths are that version's, so a write through another version is checked
// against them in theirs (spec "Apply": version skew).
describe('field ownership across served versions', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'skew' } });
  });
  after(async () => t?.stop());
  const path = (version: string, name: string) => `/apis/autoscaling/${version}/namespaces/skew/horizontalpodautoscalers/${name}`;
  const apply = (version: string, name: string, body: unknown, q: string) =>
    t.req('PATCH', `${path(version, name)}?${q}`, undefined, { raw: JSON.stringify(body), headers: { 'Content-Type': 'application/apply-patch+yaml' } });
  const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
  const v2 = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: { scaleTargetRef: target, ...spec } });
  const v1 = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: { scaleTargetRef: target, ...spec } });
  const cpu = (n: number) => [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } }];
  const entries = (obj: { metadata: { managedFields: { manager: string; apiVersion: string; fieldsV1: { 'f:spec'?: Record<string, unknown> } }[] } }) =>
    Object.fromEntries(obj.metadata.managedFields.map((e) => [e.manager, { apiVersion: e.apiVersion, spec: Object.keys(e.fieldsV1['f:spec'] ?? {}).sort() }]));

  it('an apply through v1 that changes what a v2 applier owns conflicts in v2 terms; force takes it', async () => {
    const a = await apply('v2', 'h1', v2('h1', { minReplicas: 2, maxReplicas: 5, metrics: cpu(60) }), 'fieldManager=v2-applier');
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const b = await apply('v1', 'h1', v1('h1', { maxReplicas: 5, targetCPUUtilizationPercentage: 80 }), 'fieldManager=v1-applier');
    assert.equal(b.status, 409, JSON.stringify(b.body));
    // The path is v2's (v1 has no .spec.metrics); an Apply manager is named without its version, as Kubernetes does.
    assert.equal(b.body.message, 'Apply failed with 1 conflict: conflict with "v2-applier": .spec.metrics');
    assert.deepEqual(b.body.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "v2-applier"', field: '.spec.metrics' }]);
    // The same value through v1 shares ownership: no conflict.
    const same = await apply('v1', 'h1', v1('h1', { maxReplicas: 5, targetCPUUtilizationPercentage: 60 }), 'fieldManager=v1-applier');
    assert.equal(same.status, 200, JSON.stringify(same.body));
    const forced = await apply('v1', 'h1', v1('h1', { maxReplicas: 5, targetCPUUtilizationPercentage: 80 }), 'fieldManager=v1-applier&force=true');
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    assert.equal(forced.body.spec.targetCPUUtilizationPercentage, 80);
    assert.deepEqual(entries(forced.body), {
      'v2-applier': { apiVersion: 'autoscaling/v2', spec: ['f:maxReplicas', 'f:minReplicas', 'f:scaleTargetRef'] },
      'v1-applier': { apiVersion: 'autoscaling/v1', spec: ['f:maxReplicas', 'f:scaleTargetRef', 'f:targetCPUUtilizationPercentage'] },
    });
  });

  it('an update through v1 takes a changed field from a v2 manager as v2 names it', async () => {
    await apply('v2', 'h2', v2('h2', { maxReplicas: 5, metrics: cpu(60) }), 'fieldManager=v2-applier');
    const live = await t.req('GET', path('v1', 'h2'));
    const u = await t.req('PUT', `${path('v1', 'h2')}?fieldManager=editor`, { ...live.body, spec: { ...live.body.spec, targetCPUUtilizationPercentage: 70 } });
    assert.equal(u.status, 200, JSON.stringify(u.body));
    const e = entries(u.body);
    assert.deepEqual(e['v2-applier'], { apiVersion: 'autoscaling/v2', spec: ['f:maxReplicas', 'f:scaleTargetRef'] });
    assert.deepEqual(e.editor, { apiVersion: 'autoscaling/v1', spec: ['f:targetCPUUtilizationPercentage'] });
  });

  it('an applier that applied through v2 and now applies through v1 loses, in v2 terms, what it dropped', async () => {
    const behavior = { scaleDown: { stabilizationWindowSeconds: 60 } };
    await apply('v2', 'h3', v2('h3', { minReplicas: 2, maxReplicas: 5, metrics: cpu(60), behavior }), 'fieldManager=m');
    const again = await apply('v1', 'h3', v1('h3', { maxReplicas: 5, targetCPUUtilizationPercentage: 60 }), 'fieldManager=m');
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(entries(again.body), { m: { apiVersion: 'autoscaling/v1', spec: ['f:maxReplicas', 'f:scaleTargetRef', 'f:targetCPUUtilizationPercentage'] } });
    // spec.behavior (v2 only; v1 carries it in an annotation) and minReplicas were m's alone: pruned, as
    // v2 names them; minReplicas is then defaulted again (1).
    const now = await t.req('GET', path('v2', 'h3'));
    assert.equal(now.body.spec.behavior, undefined, JSON.stringify(now.body.spec));
    assert.equal(now.body.spec.minReplicas, 1);
    assert.deepEqual(now.body.spec.metrics, cpu(60));
  });

  it('an entry of a version the kind does not have is dropped by the next write', async () => {
    await apply('v2', 'h4', v2('h4', { maxReplicas: 5, metrics: cpu(60) }), 'fieldManager=v2-applier');
    const live = await t.req('GET', path('v2', 'h4'));
    const stray = { manager: 'stray', operation: 'Update', apiVersion: 'apps/v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:scaleTargetRef': {} } } };
    const u = await t.req('PUT', `${path('v2', 'h4')}?fieldManager=editor`, { ...live.body, metadata: { ...live.body.metadata, managedFields: [...live.body.metadata.managedFields, stray] } });
    assert.equal(u.status, 200, JSON.stringify(u.body));
    const p = await t.req('PATCH', `${path('v2', 'h4')}?fieldManager=editor`, { spec: { maxReplicas: 6 } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.metadata.managedFields.map((e: { manager: string }) => e.manager).sort(), ['editor', 'v2-applier']);
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
