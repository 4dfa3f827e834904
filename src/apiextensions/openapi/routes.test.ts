// The operations published for one version of a custom resource (kube's CRD builder routes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CR_PATCH_TYPES, SCALE_ID, versionRoutes, type VersionRoutesInput } from './routes.js';

const base: VersionRoutesInput = {
  group: 'stable.example.com', version: 'v1', kind: 'CronTab', plural: 'crontabs', namespaced: true,
  kindId: 'com.example.stable.v1.CronTab', listId: 'com.example.stable.v1.CronTabList', status: false, scale: false,
};

/** path → "METHOD operationId" lines. */
function table(input: VersionRoutesInput): Record<string, string[]> {
  return Object.fromEntries(versionRoutes(input).map((r) => [r.path, r.ops.map((o) => `${o.method} ${o.operationId}`)]));
}

describe('versionRoutes', () => {
  const P = '/apis/stable.example.com/v1';
  const cases: [name: string, input: VersionRoutesInput, want: Record<string, string[]>][] = [
    ['namespaced, no subresources', base, {
      [`${P}/crontabs`]: ['get listStableExampleComV1CronTabForAllNamespaces'],
      [`${P}/namespaces/{namespace}/crontabs`]: [
        'get listStableExampleComV1NamespacedCronTab', 'post createStableExampleComV1NamespacedCronTab', 'delete deletecollectionStableExampleComV1NamespacedCronTab',
      ],
      [`${P}/namespaces/{namespace}/crontabs/{name}`]: [
        'get readStableExampleComV1NamespacedCronTab', 'put replaceStableExampleComV1NamespacedCronTab',
        'delete deleteStableExampleComV1NamespacedCronTab', 'patch patchStableExampleComV1NamespacedCronTab',
      ],
    }],
    ['cluster-scoped with status and scale', { ...base, namespaced: false, status: true, scale: true }, {
      [`${P}/crontabs`]: ['get listStableExampleComV1CronTab', 'post createStableExampleComV1CronTab', 'delete deletecollectionStableExampleComV1CronTab'],
      [`${P}/crontabs/{name}`]: [
        'get readStableExampleComV1CronTab', 'put replaceStableExampleComV1CronTab', 'delete deleteStableExampleComV1CronTab', 'patch patchStableExampleComV1CronTab',
      ],
      [`${P}/crontabs/{name}/scale`]: ['get readStableExampleComV1CronTabScale', 'put replaceStableExampleComV1CronTabScale', 'patch patchStableExampleComV1CronTabScale'],
      [`${P}/crontabs/{name}/status`]: ['get readStableExampleComV1CronTabStatus', 'put replaceStableExampleComV1CronTabStatus', 'patch patchStableExampleComV1CronTabStatus'],
    }],
  ];
  for (const [name, input, want] of cases) it(name, () => assert.deepEqual(table(input), want));

  it('no watch paths (a list takes watch=true)', () => {
    for (const r of versionRoutes({ ...base, status: true, scale: true })) assert.ok(!r.path.includes('/watch/'), r.path);
    const list = versionRoutes(base).find((r) => r.path.endsWith('/namespaces/{namespace}/crontabs'))!.ops.find((o) => o.method === 'get')!;
    assert.ok(list.query.includes('watch'));
    assert.equal(list.stream, undefined);
  });

  it('path parameters, bodies, answers and the group-version-kind of each operation', () => {
    const routes = versionRoutes({ ...base, status: true, scale: true });
    const at = (suffix: string) => routes.find((r) => r.path === `/apis/stable.example.com/v1/namespaces/{namespace}/crontabs${suffix}`)!;
    assert.deepEqual(at('').params, ['namespace', 'pretty']);
    assert.deepEqual(at('/{name}').params, ['name', 'namespace', 'pretty']);
    const op = (suffix: string, method: string) => at(suffix).ops.find((o) => o.method === method)!;
    assert.equal(op('', 'get').response, base.listId);
    assert.deepEqual(op('', 'post').body, { id: base.kindId, required: true, consumes: ['application/json', 'application/yaml'] });
    assert.equal(op('/{name}', 'delete').response, 'io.k8s.apimachinery.pkg.apis.meta.v1.Status');
    assert.equal(op('/{name}', 'delete').body?.required, false);
    assert.deepEqual(op('/{name}', 'patch').body?.consumes, CR_PATCH_TYPES);
    assert.ok(!op('/{name}', 'patch').body!.consumes!.includes('application/strategic-merge-patch+json'));
    assert.equal(op('/{name}/status', 'put').response, base.kindId);
    assert.equal(op('/{name}/scale', 'put').response, SCALE_ID);
    assert.equal(op('/{name}/scale', 'get').description, 'read scale of the specified CronTab');
    for (const r of routes) {
      for (const o of r.ops) {
        assert.deepEqual(o.gvk, { group: 'stable.example.com', version: 'v1', kind: 'CronTab' }, `${o.operationId}`);
        assert.equal(o.tag, 'stableExampleCom_v1');
      }
    }
  });
});
