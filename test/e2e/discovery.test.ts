// Aggregated discovery over HTTPS (AggregatedDiscoveryEndpoint gate on):
// the negotiated document at /api and /apis, entity tags, legacy discovery
// beside it; and kubectl 1.27 (plus a newer kubectl, which asks for v2 first)
// resolving resources from two discovery requests instead of one per
// group-version, with the same api-resources output as legacy discovery.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { FeatureGates } from '../../src/features/gates.js';
import { startTestServer, type TestServer } from './harness.js';
import { tempDir } from '../../src/testing/tempdir.js';

const K8S = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const SVC = 'application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';
const NEWER = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const missing = existsSync(KUBECTL) ? false : `kubectl 1.27 not found at ${KUBECTL}`;
if (missing && process.env.CI === 'true') throw new Error(`${missing} (required under CI=true)`);

function kubectl(bin: string, kubeconfig: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  // A fresh cache per call: kubectl would otherwise reuse discovery from disk.
  const cache = tempDir('svc-disc-');
  return new Promise((resolve) => {
    execFile(bin, ['--kubeconfig', kubeconfig, '--cache-dir', cache, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout, err: stderr });
    });
  });
}

/** The paths of the GET requests kubectl logged at -v=6 (1.27's and 1.33's log formats). */
function requestedPaths(stderr: string): string[] {
  const out: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /GET https?:\/\/[^/ ]+(\/\S*) \d{3}/.exec(line) ?? /verb="GET" url="https?:\/\/[^/"]+(\/[^"]*)"/.exec(line);
    if (m) out.push(m[1]!.replace(/\?.*$/, ''));
  }
  return out;
}

describe('aggregated discovery', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ featureGates: FeatureGates.parse('AggregatedDiscoveryEndpoint=true') });
  });
  after(async () => t?.stop());

  it('/apis answers the k8s.io-typed document to a stock client, with its Content-Type, an ETag and Vary', async () => {
    const r = await t.req('GET', '/apis', undefined, { headers: { accept: `${K8S},application/json` } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], K8S);
    assert.equal(r.headers.vary, 'Accept');
    assert.match(String(r.headers.etag), /^"[0-9A-F]+"$/);
    assert.equal(r.body.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    assert.equal(r.body.kind, 'APIGroupDiscoveryList');
    const apps = r.body.items.find((g: any) => g.metadata.name === 'apps');
    const deploy = apps.versions[0].resources.find((x: any) => x.resource === 'deployments');
    assert.equal(deploy.scope, 'Namespaced');
    assert.deepEqual(deploy.shortNames, ['deploy']);
    assert.ok(deploy.subresources.some((s: any) => s.subresource === 'scale' && s.responseKind.kind === 'Scale'));

    const again = await t.req('GET', '/apis', undefined, { headers: { accept: K8S, 'if-none-match': String(r.headers.etag) } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
  });

  it('/api answers the core group; the svc.io spelling gets the svc.io document', async () => {
    const core = await t.req('GET', '/api', undefined, { headers: { accept: `${K8S},application/json` } });
    assert.equal(core.headers['content-type'], K8S);
    assert.equal(core.body.items.length, 1);
    assert.ok(core.body.items[0].versions[0].resources.some((x: any) => x.resource === 'pods'));
    const svc = await t.req('GET', '/apis', undefined, { headers: { accept: `${SVC},application/json` } });
    assert.equal(svc.headers['content-type'], SVC);
    assert.equal(svc.body.apiVersion, 'apidiscovery.svc.io/v2beta1');
  });

  it('legacy discovery for plain JSON and for group-version paths', async () => {
    const plain = await t.req('GET', '/apis', undefined, { headers: { accept: 'application/json' } });
    assert.equal(plain.headers['content-type'], 'application/json');
    assert.equal(plain.body.kind, 'APIGroupList');
    const gv = await t.req('GET', '/apis/apps/v1', undefined, { headers: { accept: `${K8S},application/json` } });
    assert.equal(gv.body.kind, 'APIResourceList');
    const v2only = await t.req('GET', '/apis', undefined, { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    assert.equal(v2only.status, 406, 'v1.27 serves no v2 and nothing else was acceptable');
  });

  const clients = [KUBECTL, ...(existsSync(NEWER) ? [NEWER] : [])];
  for (const bin of clients) {
    it(`${bin.split('/').pop()}: get po with a fresh cache asks /api and /apis only`, { skip: missing }, async () => {
      await t.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'disc' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
      const r = await kubectl(bin, t.kubeconfig, 'get', 'po', '-v=6');
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^NAME\s+READY\s+STATUS/);
      assert.match(r.out, /\ndisc\s/);
      const paths = requestedPaths(r.err);
      assert.deepEqual(paths, ['/api', '/apis', '/api/v1/namespaces/default/pods'], r.err);
    });
  }

  it('kubectl 1.27 api-resources and api-versions print what legacy discovery gives', { skip: missing }, async () => {
    const legacy = await startTestServer();
    try {
      for (const cmd of ['api-resources', 'api-versions']) {
        const agg = await kubectl(KUBECTL, t.kubeconfig, cmd);
        const leg = await kubectl(KUBECTL, legacy.kubeconfig, cmd);
        assert.equal(agg.code, 0, agg.err);
        assert.equal(agg.out, leg.out, cmd);
      }
      const agg = await kubectl(KUBECTL, t.kubeconfig, 'api-resources');
      assert.match(agg.out, /\npods\s+po\s+v1\s+true\s+Pod\n/);
      assert.match(agg.out, /\ndeployments\s+deploy\s+apps\/v1\s+true\s+Deployment\n/);
      const fanOut = requestedPaths((await kubectl(KUBECTL, legacy.kubeconfig, 'get', 'po', '-v=6')).err);
      assert.ok(fanOut.includes('/apis/apps/v1'), 'legacy discovery asks per group-version (the check above can fail)');
    } finally {
      await legacy.stop();
    }
  });
});
