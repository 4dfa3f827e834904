// kubectl 1.27 against the real server with the generated admin kubeconfig:
// get, create -f --validate=false, get -o yaml, delete, api-resources,
// get --raw /readyz?verbose.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
const missing = existsSync(KUBECTL) ? false : `kubectl 1.27 not found at ${KUBECTL}`;
if (missing && process.env.CI === 'true') throw new Error(`${missing} (required under CI=true)`);

describe('kubectl 1.27', { skip: missing }, () => {
  let t: TestServer;
  let cache: string;
  before(async () => {
    t = await startTestServer();
    cache = tempDir('svc-kubectl-');
  });
  after(async () => t?.stop());

  const kubectl = (...args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(KUBECTL, ['--kubeconfig', t.kubeconfig, '--cache-dir', cache, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout, err: stderr });
      });
    });

  it('get ns', async () => {
    const r = await kubectl('get', 'ns');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^NAME\s+/);
    assert.match(r.out, /\ndefault\s/);
    assert.match(r.out, /\nsvc-system\s/);
  });

  it('get prints the server Table columns: -o wide, -A, --show-labels, --sort-by, -w', async () => {
    await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cols-b', labels: { tier: 'web' } }, data: { a: '1', b: '2' } });
    await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cols-a' }, data: { a: '1' } });
    const g = await kubectl('get', 'cm', 'cols-b');
    assert.equal(g.code, 0, g.err);
    assert.match(g.out, /^NAME\s+DATA\s+AGE\n/);
    assert.match(g.out, /\ncols-b\s+2\s+\d+s\n/);
    const ns = await kubectl('get', 'ns', 'default');
    assert.match(ns.out, /^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+/);
    const all = await kubectl('get', 'cm', '-A', '--show-labels');
    assert.match(all.out, /^NAMESPACE\s+NAME\s+DATA\s+AGE\s+LABELS\n/);
    assert.match(all.out, /\ndefault\s+cols-b\s+2\s+\S+\s+tier=web\n/);
    const sorted = await kubectl('get', 'cm', '--sort-by=.metadata.name', '-o', 'wide');
    assert.equal(sorted.code, 0, sorted.err);
    assert.ok(sorted.out.indexOf('cols-a') < sorted.out.indexOf('cols-b'), sorted.out);
    const { spawn } = await import('node:child_process');
    const w = spawn(KUBECTL, ['--kubeconfig', t.kubeconfig, '--cache-dir', cache, 'get', 'cm', 'cols-a', '-w']);
    let out = '';
    w.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const end = Date.now() + 20_000;
    while (!/NAME\s+DATA\s+AGE\ncols-a\s+1\s+/.test(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await t.req('PUT', '/api/v1/namespaces/default/configmaps/cols-a', { metadata: { name: 'cols-a' }, data: { a: '1', b: '2', c: '3' } });
    while (!/\ncols-a\s+3\s+/.test(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    w.kill();
    assert.match(out, /^NAME\s+DATA\s+AGE\ncols-a\s+1\s+\S+\ncols-a\s+3\s+/, 'one header, then a row per event');
  });

  it('label, annotate, patch (strategic, merge, json) and client-side apply', async () => {
    await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'pt' }, data: { a: '1' } });
    assert.equal((await kubectl('label', 'cm', 'pt', 'tier=web')).code, 0);
    assert.equal((await kubectl('annotate', 'cm', 'pt', 'note=hi')).code, 0);
    const smp = await kubectl('patch', 'cm', 'pt', '-p', '{"data":{"b":"2"}}');
    assert.equal(smp.code, 0, smp.err);
    const merge = await kubectl('patch', 'cm', 'pt', '--type=merge', '-p', '{"data":{"a":null}}');
    assert.equal(merge.code, 0, merge.err);
    const json = await kubectl('patch', 'cm', 'pt', '--type=json', '-p', '[{"op":"add","path":"/data/c","value":"3"}]');
    assert.equal(json.code, 0, json.err);
    const got = (await t.req('GET', '/api/v1/namespaces/default/configmaps/pt')).body;
    assert.deepEqual(got.data, { b: '2', c: '3' });
    assert.equal(got.metadata.labels.tier, 'web');
    assert.equal(got.metadata.annotations.note, 'hi');
    const bad = await kubectl('patch', 'cm', 'pt', '--type=json', '-p', '[{"op":"test","path":"/data/b","value":"nope"}]');
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /The request is invalid: the server rejected our request due to an error in our request/); // kubectl's text for Kubernetes' 422 without causes

    const f = join(cache, 'applied.yaml');
    writeFileSync(f, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n');
    const created = await kubectl('apply', '-f', f, '--validate=false');
    assert.equal(created.code, 0, created.err);
    assert.match(created.out, /deployment.apps\/web created/);
    assert.match((await kubectl('apply', '-f', f, '--validate=false')).out, /deployment.apps\/web unchanged/);
    writeFileSync(f, readFileSync(f, 'utf8').replace('replicas: 2', 'replicas: 3').replace('nginx:1.25', 'nginx:1.26'));
    const updated = await kubectl('apply', '-f', f, '--validate=false');
    assert.equal(updated.code, 0, updated.err);
    assert.match(updated.out, /deployment.apps\/web configured/);
    const d = (await t.req('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body;
    assert.equal(d.spec.replicas, 3);
    assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1.26');
    assert.equal(d.spec.template.spec.containers.length, 1, 'containers merged by name');
  });

  it('create -f --validate=false, get -o yaml, get by short name, delete', async () => {
    const f = join(cache, 'cm.yaml');
    writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  namespace: default\ndata:\n  k: v\n');
    const c = await kubectl('create', '-f', f, '--validate=false');
    assert.equal(c.code, 0, c.err);
    assert.match(c.out, /configmap\/demo created/);
    const y = await kubectl('get', 'cm', 'demo', '-o', 'yaml');
    assert.equal(y.code, 0, y.err);
    assert.match(y.out, /kind: ConfigMap/);
    assert.match(y.out, /k: v/);
    const d = await kubectl('delete', 'configmap', 'demo');
    assert.equal(d.code, 0, d.err);
    assert.match(d.out, /configmap "demo" deleted/);
    const gone = await kubectl('get', 'cm', 'demo');
    assert.notEqual(gone.code, 0);
    assert.match(gone.err, /Error from server \(NotFound\): configmaps "demo" not found/);
  });

  it('applies a manifest written for Kubernetes (k8s.io group)', async () => {
    const f = join(cache, 'role.yaml');
    writeFileSync(f, 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: reader\n  namespace: default\nrules: []\n');
    const c = await kubectl('create', '-f', f, '--validate=false');
    assert.equal(c.code, 0, c.err);
    assert.match(c.out, /role.rbac.authorization.k8s.io\/reader created/);
  });

  it('get --chunk-size pages through the list', async () => {
    for (let i = 0; i < 5; i++) await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: `chunk-${i}` } });
    const r = await kubectl('get', 'cm', '--chunk-size=2', '-o', 'name');
    assert.equal(r.code, 0, r.err);
    for (let i = 0; i < 5; i++) assert.match(r.out, new RegExp(`configmap/chunk-${i}\n`));
  });

  it('get -w prints changes; wait --for=delete returns when the object goes', async () => {
    const { spawn } = await import('node:child_process');
    await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'watched' } });
    const w = spawn(KUBECTL, ['--kubeconfig', t.kubeconfig, '--cache-dir', cache, 'get', 'cm', '-w', '-o', 'name']);
    let out = '';
    w.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const until = async (re: RegExp) => {
      const end = Date.now() + 20_000;
      while (!re.test(out)) {
        if (Date.now() > end) throw new Error(`kubectl get -w printed: ${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(/configmap\/watched\n/);
    await t.req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'appeared' } });
    await until(/configmap\/appeared\n/);
    w.kill();

    const waiting = kubectl('wait', '--for=delete', 'cm/watched', '--timeout=20s');
    await new Promise((r) => setTimeout(r, 500));
    await t.req('DELETE', '/api/v1/namespaces/default/configmaps/watched');
    const r = await waiting;
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /configmap\/watched condition met|deleted/);
  });

  it('api-resources and get --raw /readyz?verbose', async () => {
    const a = await kubectl('api-resources');
    assert.equal(a.code, 0, a.err);
    assert.match(a.out, /\npods\s+po\s+v1\s+true\s+Pod\n/);
    assert.match(a.out, /deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
    const r = await kubectl('get', '--raw', '/readyz?verbose');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /readyz check passed/);
  });
});
