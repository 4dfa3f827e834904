// kubectl 1.27 with the published OpenAPI documents and its default
// validation (no --validate=false): create, apply, replace and diff -f
// (kubectl reads /openapi/v2 as protobuf, detects server-side field
// validation in /openapi/v3, takes strategic-merge-patch metadata from v2),
// and explain (v3, and v2 with --output=plaintext-openapiv2). Every kubectl
// call gets a fresh --cache-dir, so nothing is read from an earlier answer.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { schemaFor } from '../../src/api/schemas.js';
import { startTestServer, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
const missing = existsSync(KUBECTL) ? false : `kubectl 1.27 not found at ${KUBECTL}`;
if (missing && process.env.CI === 'true') throw new Error(`${missing} (required under CI=true)`);

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`;

/** A description as kubectl prints it once its line wrapping is undone. */
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
function descriptionOf(group: string, version: string, kind: string, ...path: string[]): string {
  let s = schemaFor(group, version, kind);
  for (const p of path) s = s?.properties?.[p] ?? s?.items?.properties?.[p];
  assert.ok(s?.description, `${kind}.${path.join('.')} has a description`);
  return flat(s.description);
}

describe('kubectl 1.27 with OpenAPI', { skip: missing }, () => {
  let t: TestServer;
  let dir: string;
  before(async () => {
    t = await startTestServer();
    dir = tempDir('svc-kubectl-openapi-');
  });
  after(async () => {
    await t?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const kubectl = (...args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      const cache = mkdtempSync(join(dir, 'cache-'));
      execFile(KUBECTL, ['--kubeconfig', t.kubeconfig, '--cache-dir', cache, ...args], { timeout: 60_000, maxBuffer: 8 << 20 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout, err: stderr });
      });
    });
  const manifest = (name: string, text: string) => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };

  it('create -f of a configmap and a deployment passes the default validation', async () => {
    const cm = await kubectl('create', '-f', manifest('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n  namespace: default\ndata:\n  k: v\n'));
    assert.equal(cm.code, 0, cm.err);
    assert.match(cm.out, /^configmap\/plain created\n$/);
    const d = await kubectl('create', '-f', manifest('created.yaml', DEPLOYMENT.replace('name: web', 'name: created')));
    assert.equal(d.code, 0, d.err);
    assert.match(d.out, /^deployment.apps\/created created\n$/);
    assert.equal((await t.req('GET', '/apis/apps/v1/namespaces/default/deployments/created')).body.spec.replicas, 2);
  });

  it('create -f with an unknown field: the server rejects it (kubectl sent fieldValidation=Strict, not validated locally)', async () => {
    const r = await kubectl('create', '-f', manifest('bogus.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bogus\n  namespace: default\nbogus: 1\ndata:\n  k: v\n'));
    assert.notEqual(r.code, 0);
    assert.match(r.err, /^Error from server \(BadRequest\): error when creating ".*bogus\.yaml": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"\n$/);
    assert.equal((await t.req('GET', '/api/v1/namespaces/default/configmaps/bogus')).status, 404);
  });

  it('a manifest written for Kubernetes (rbac.authorization.k8s.io) passes the default validation', async () => {
    const r = await kubectl('apply', '-f', manifest('role.yaml', 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: reader\n  namespace: default\nrules: []\n'));
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^role.rbac.authorization.k8s.io\/reader created\n$/);
  });

  it('apply -f (client-side): created, unchanged, configured; diff -f exits 1 with a difference and 0 without', async () => {
    const f = manifest('web.yaml', DEPLOYMENT);
    const created = await kubectl('apply', '-f', f);
    assert.equal(created.code, 0, created.err);
    assert.match(created.out, /^deployment.apps\/web created\n$/);
    const same = await kubectl('diff', '-f', f);
    assert.equal(same.code, 0, same.err + same.out);
    assert.equal(same.out, '');
    assert.match((await kubectl('apply', '-f', f)).out, /^deployment.apps\/web unchanged\n$/);

    writeFileSync(f, DEPLOYMENT.replace('replicas: 2', 'replicas: 3'));
    const diff = await kubectl('diff', '-f', f);
    assert.equal(diff.code, 1, diff.err);
    assert.match(diff.out, /^-  replicas: 2$/m);
    assert.match(diff.out, /^\+  replicas: 3$/m);
    assert.equal((await t.req('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body.spec.replicas, 2, 'diff persists nothing');

    const updated = await kubectl('apply', '-f', f);
    assert.equal(updated.code, 0, updated.err);
    assert.match(updated.out, /^deployment.apps\/web configured\n$/);
    assert.equal((await t.req('GET', '/apis/apps/v1/namespaces/default/deployments/web')).body.spec.replicas, 3);
  });

  it('apply -f switching to the Recreate strategy drops rollingUpdate (retainKeys)', async () => {
    const f = manifest('recreate.yaml', DEPLOYMENT.replace('name: web', 'name: recreate'));
    assert.equal((await kubectl('apply', '-f', f)).code, 0);
    const before = (await t.req('GET', '/apis/apps/v1/namespaces/default/deployments/recreate')).body;
    assert.ok(before.spec.strategy.rollingUpdate, 'defaulted rollingUpdate');
    writeFileSync(f, DEPLOYMENT.replace('name: web', 'name: recreate').replace('replicas: 2', 'replicas: 2\n  strategy:\n    type: Recreate'));
    const r = await kubectl('apply', '-f', f, '-v=8');
    assert.equal(r.code, 0, r.err.slice(-2000));
    assert.match(r.err, /"\$retainKeys":\["type"\]/, 'kubectl computed the patch with retainKeys');
    assert.deepEqual((await t.req('GET', '/apis/apps/v1/namespaces/default/deployments/recreate')).body.spec.strategy, { type: 'Recreate' });
  });

  it('replace -f', async () => {
    const f = manifest('replaced.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: replaced\n  namespace: default\ndata:\n  k: v1\n');
    assert.equal((await kubectl('create', '-f', f)).code, 0);
    writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: replaced\n  namespace: default\ndata:\n  k: v2\n');
    const r = await kubectl('replace', '-f', f);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^configmap\/replaced replaced\n$/);
    assert.deepEqual((await t.req('GET', '/api/v1/namespaces/default/configmaps/replaced')).body.data, { k: 'v2' });
  });

  it('explain pods: the kind, its description and its fields with ours', async () => {
    const r = await kubectl('explain', 'pods');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^KIND:\s+Pod\nVERSION:\s+v1\n/);
    const out = flat(r.out);
    assert.ok(out.includes(`DESCRIPTION: ${descriptionOf('', 'v1', 'Pod')}`), r.out);
    for (const [field, type] of [['apiVersion', 'string'], ['kind', 'string'], ['metadata', 'ObjectMeta'], ['spec', 'PodSpec'], ['status', 'PodStatus']]) {
      assert.match(r.out, new RegExp(`^  ${field}\\t<${type}>$`, 'm'));
    }
    assert.ok(out.includes(`spec <PodSpec> ${descriptionOf('', 'v1', 'Pod', 'spec')}`), r.out);
  });

  it('explain pods.spec.containers.resources', async () => {
    const r = await kubectl('explain', 'pods.spec.containers.resources');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^KIND:\s+Pod\nVERSION:\s+v1\n\nFIELD: resources <ResourceRequirements>\n/);
    const out = flat(r.out);
    assert.ok(out.includes(descriptionOf('', 'v1', 'Pod', 'spec', 'containers', 'resources')), r.out);
    for (const field of ['limits', 'requests']) {
      assert.match(r.out, new RegExp(`^  ${field}\\t<map\\[string\\]Quantity>$`, 'm'));
      assert.ok(out.includes(descriptionOf('', 'v1', 'Pod', 'spec', 'containers', 'resources', field)), field);
    }
  });

  it('explain deployments.spec.strategy, and with --recursive', async () => {
    const r = await kubectl('explain', 'deployments.spec.strategy');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: strategy <DeploymentStrategy>\n/);
    const out = flat(r.out);
    assert.ok(out.includes(descriptionOf('apps', 'v1', 'Deployment', 'spec', 'strategy')), r.out);
    assert.ok(out.includes(`type <string> ${descriptionOf('apps', 'v1', 'Deployment', 'spec', 'strategy', 'type')}`), r.out);
    assert.match(r.out, /^  rollingUpdate\t<RollingUpdateDeployment>$/m);

    const rec = await kubectl('explain', 'deployments.spec.strategy', '--recursive');
    assert.equal(rec.code, 0, rec.err);
    assert.match(rec.out, /^  rollingUpdate\t<RollingUpdateDeployment>\n    maxSurge\t<IntOrString>\n    maxUnavailable\t<IntOrString>\n  type\t<string>\n/m);
  });

  it('explain a kind of a group with a domain, in either spelling; and from the v2 document', async () => {
    const k8s = await kubectl('explain', 'ingresses', '--api-version=networking.k8s.io/v1');
    assert.equal(k8s.code, 0, k8s.err);
    assert.match(k8s.out, /^GROUP:\s+networking.k8s.io\nKIND:\s+Ingress\n/);
    const svc = await kubectl('explain', 'ingresses', '--api-version=networking.svc.io/v1');
    assert.equal(svc.code, 0, svc.err);
    assert.match(svc.out, /^GROUP:\s+networking.svc.io\nKIND:\s+Ingress\n/);
    const v2 = await kubectl('explain', 'pods.spec', '--output=plaintext-openapiv2');
    assert.equal(v2.code, 0, v2.err);
    assert.match(v2.out, /^KIND:\s+Pod\nVERSION:\s+v1\n\nRESOURCE: spec <Object>\n/);
    assert.ok(flat(v2.out).includes(descriptionOf('', 'v1', 'Pod', 'spec', 'containers')), v2.out);
  });

  it('get --raw: the v3 index and a group-version document', async () => {
    const index = await kubectl('get', '--raw', '/openapi/v3');
    assert.equal(index.code, 0, index.err);
    const paths = JSON.parse(index.out).paths;
    assert.match(paths['apis/apps/v1'].serverRelativeURL, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
    const doc = await kubectl('get', '--raw', paths['api/v1'].serverRelativeURL);
    assert.equal(doc.code, 0, doc.err);
    assert.ok(JSON.parse(doc.out).components.schemas['io.k8s.api.core.v1.Pod']);
  });
});
