// Real operators' CRDs with kubectl 1.27 (issue 23): prometheus-operator's and
// cert-manager's definitions from ../shared/reference/crds/ installed with
// `kubectl apply --server-side` (the Prometheus CRD is too big for client-side
// apply), with kube-apiserver's verdicts (VERDICTS.md: the four cert-manager
// CRDs with selectableFields, a v1.28 field, are refused); then resources of
// them created, listed with their printer columns, explained, scaled, and
// applied with conflicts.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { eventually, type TestServer } from './harness.js';
import { BACKENDS } from './backends.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';

const crds = fileURLToPath(new URL('../../../../shared/reference/crds/', import.meta.url));
const missing = existsSync(crds) ? false : `the reference CRDs are not at ${crds} (../shared beside the repository)`;
if (missing && process.env.CI === 'true') throw new Error(missing);

/** VERDICTS.md: what kube-apiserver answered to each file applied with --server-side. */
const REFUSED = ['acme.cert-manager.io_challenges', 'acme.cert-manager.io_orders', 'cert-manager.io_certificaterequests', 'cert-manager.io_certificates'];

for (const backend of BACKENDS) describe(`kubectl 1.27 with real CRDs (${backend.name})`, { skip: kubectlMissing || backend.skip || missing }, () => {
  let t: TestServer;
  const k = kubectlFor(() => t);
  before(async () => {
    t = await backend.start({ controllers: true });
    assert.equal((await t.req('POST', '/api/v1/namespaces', { metadata: { name: 'mon' } })).status, 201);
  });
  after(async () => {
    await t?.stop();
    k.cleanup();
  });

  it('installs every reference CRD with apply --server-side, refusing exactly what kube-apiserver refused', async () => {
    const prom = await k('apply', '--server-side', '-f', join(crds, 'prometheus-operator'));
    assert.equal(prom.code, 0, prom.err);
    assert.equal(prom.out.split('\n').filter((l) => l.endsWith('serverside-applied')).length, 10, prom.out);
    const cm = await k('apply', '--server-side', '-f', join(crds, 'cert-manager'));
    assert.notEqual(cm.code, 0);
    for (const f of REFUSED) {
      const name = f.replace(/^([^_]+)_(.+)$/, '$2.$1');
      assert.ok(cm.err.includes(`Error from server: failed to create typed patch object (/${name}; apiextensions.k8s.io/v1, Kind=CustomResourceDefinition): .spec.versions[0].selectableFields: field not declared in schema`), cm.err);
    }
    assert.match(cm.out, /customresourcedefinition\.apiextensions\.k8s\.io\/issuers\.cert-manager\.io serverside-applied/);
    // kubectl wait fails on a CRD whose conditions are still null (as against kube-apiserver): the naming controller runs first.
    await eventually(async () => ((await t.req('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).body.items as { status?: { conditions?: unknown[] | null } }[]).every((c) => (c.status?.conditions ?? []).length > 0));
    const wait = await k('wait', '--for=condition=Established', '--all', 'crd', '--timeout=30s');
    assert.equal(wait.code, 0, wait.err);
    assert.equal(wait.out.trim().split('\n').length, 12);
  });

  it('serves the resources: create, list with printer columns, categories, explain', async () => {
    const sm = k.file('sm.yaml', 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: web\n  namespace: mon\nspec:\n  selector: {}\n  endpoints:\n  - port: web\n');
    const made = await k('apply', '-f', sm);
    assert.equal(made.code, 0, made.err);
    const got = await k('get', 'servicemonitors', '-n', 'mon');
    assert.match(got.out, /^NAME\s+AGE\nweb\s+\d+s\n$/);
    const prom = k.file('prom.yaml', 'apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata:\n  name: main\n  namespace: mon\nspec:\n  version: v2.45.0\n  replicas: 2\n');
    assert.equal((await k('apply', '--server-side', '-f', prom)).code, 0);
    const table = await k('get', 'prometheus', '-n', 'mon');
    assert.match(table.out, /^NAME\s+VERSION\s+DESIRED\s+READY\s+RECONCILED\s+AVAILABLE\s+AGE\nmain\s+v2\.45\.0\s+2\s+/);
    const category = await k('get', 'prometheus-operator', '-n', 'mon', '-o', 'name');
    assert.deepEqual(category.out.trim().split('\n').sort(), ['prometheus.monitoring.coreos.com/main', 'servicemonitor.monitoring.coreos.com/web']);
    const explain = await k('explain', 'prometheus.spec.replicas');
    assert.equal(explain.code, 0, explain.err);
    assert.match(explain.out, /KIND:\s+Prometheus/);
    assert.match(explain.out, /FIELD: replicas <integer>/);
  });

  it('kubectl get all includes custom resources in the category all', async () => {
    const crd = k.file('crontab-crd.yaml', [
      'apiVersion: apiextensions.k8s.io/v1', 'kind: CustomResourceDefinition', 'metadata: {name: crontabs.stable.example.com}', 'spec:',
      '  group: stable.example.com', '  scope: Namespaced', '  names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct], categories: [all]}',
      '  versions:', '  - name: v1', '    served: true', '    storage: true', '    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}', '',
    ].join('\n'));
    assert.equal((await k('apply', '-f', crd)).code, 0);
    assert.equal((await k('wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=30s')).code, 0);
    const ct = k.file('ct.yaml', 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\n  namespace: mon\nspec: {cronSpec: "0 0 * * *"}\n');
    assert.equal((await k('apply', '-f', ct)).code, 0);
    const all = await k('get', 'all', '-n', 'mon', '-o', 'name');
    assert.equal(all.code, 0, all.err);
    assert.ok(all.out.split('\n').includes('crontab.stable.example.com/nightly'), all.out);
    const short = await k('get', 'ct', '-n', 'mon', '-o', 'jsonpath={.items[*].spec.cronSpec}');
    assert.equal(short.out, '0 0 * * *');
  });

  it('refuses invalid resources with kube\'s 422', async () => {
    const bad = k.file('bad.yaml', 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: bad\n  namespace: mon\nspec:\n  selector: {}\n  endpoints:\n  - port: 8080\n');
    const r = await k('apply', '-f', bad);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /The ServiceMonitor "bad" is invalid: spec\.endpoints\[0\]\.port: Invalid value: "integer": spec\.endpoints\[0\]\.port in body must be of type string: "integer"/);
  });

  it('scales a resource through its scale subresource', async () => {
    const r = await k('scale', 'prometheus', 'main', '-n', 'mon', '--replicas=3');
    assert.equal(r.code, 0, r.err);
    assert.equal((await t.req('GET', '/apis/monitoring.coreos.com/v1/namespaces/mon/prometheuses/main')).body.spec.shards, 3);
  });

  it('server-side apply conflicts between managers, and --force-conflicts takes the field', async () => {
    const other = k.file('prom-b.yaml', 'apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata:\n  name: main\n  namespace: mon\nspec:\n  replicas: 5\n');
    const conflict = await k('apply', '--server-side', '--field-manager=other', '-f', other);
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.err, /Apply failed with 1 conflict: conflict with "kubectl": \.spec\.replicas/);
    const forced = await k('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other);
    assert.equal(forced.code, 0, forced.err);
    assert.equal((await t.req('GET', '/apis/monitoring.coreos.com/v1/namespaces/mon/prometheuses/main')).body.spec.replicas, 5);
  });
});
