// --runtime-config end to end: the real `svc` process started with a version
// turned off and an alpha version turned on; discovery and routing follow it
// in both group spellings, and malformed values stop the process (exit 1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSvc, startSvcApiserver, type AdminClient as Client, type SvcProcess } from './svcprocess.js';
import { startTestServer, type TestServer } from './harness.js';
import { parseRuntimeConfig } from '../../src/api/catalog/enablement.js';
import { tempDir } from '../../src/testing/tempdir.js';

describe('--runtime-config', () => {
  let server: SvcProcess;
  let req: Client;
  before(async () => {
    ({ server, req } = await startSvcApiserver(tempDir('svc-rc-'),
      ['--runtime-config=flowcontrol.apiserver.svc.io/v1beta2=false,resource.svc.io/v1alpha2=true', '--runtime-config=storage.k8s.io/v1/csinodes=false']));
  });
  after(async () => {
    server?.proc.kill('SIGTERM');
    await server?.exit;
  });

  it('discovery lists what the flag enables and leaves out what it disables', async () => {
    const apis = (await req('GET', '/apis')).body as { groups: { name: string; versions: { version: string }[]; preferredVersion: { version: string } }[] };
    const group = (name: string) => apis.groups.find((g) => g.name === name);
    for (const name of ['flowcontrol.apiserver.svc.io', 'flowcontrol.apiserver.k8s.io']) {
      assert.deepEqual(group(name)?.versions.map((v) => v.version), ['v1beta3'], name);
      assert.equal(group(name)?.preferredVersion.version, 'v1beta3');
    }
    for (const name of ['resource.svc.io', 'resource.k8s.io']) assert.deepEqual(group(name)?.versions.map((v) => v.version), ['v1alpha2'], name);
    assert.equal(group('networking.k8s.io')?.versions.some((v) => v.version === 'v1alpha1'), false, 'other alphas stay off');
    const fc = await req('GET', '/apis/flowcontrol.apiserver.k8s.io');
    assert.deepEqual(fc.body.versions.map((v: { version: string }) => v.version), ['v1beta3']);
    const resources = (await req('GET', '/apis/resource.k8s.io/v1alpha2')).body as { resources: { name: string }[] };
    assert.deepEqual(resources.resources.map((r) => r.name).filter((n) => !n.includes('/')).sort(), ['podschedulingcontexts', 'resourceclaims', 'resourceclaimtemplates', 'resourceclasses']);
    const storage = (await req('GET', '/apis/storage.k8s.io/v1')).body as { resources: { name: string }[] };
    const names = storage.resources.map((r) => r.name);
    assert.ok(names.includes('storageclasses'), names.join(','));
    assert.ok(!names.includes('csinodes'), 'a resource key turns off one resource');
  });

  it('routing follows: the disabled version is 404, the enabled alpha serves', async () => {
    assert.equal((await req('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas')).status, 404);
    assert.equal((await req('GET', '/apis/flowcontrol.apiserver.svc.io/v1beta2')).status, 404);
    assert.equal((await req('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas')).status, 200);
    assert.equal((await req('GET', '/apis/storage.k8s.io/v1/csinodes')).status, 404);
    const created = await req('POST', '/apis/resource.k8s.io/v1alpha2/resourceclasses', { apiVersion: 'resource.k8s.io/v1alpha2', kind: 'ResourceClass', metadata: { name: 'gpu' }, driverName: 'gpu.example.com' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.apiVersion, 'resource.k8s.io/v1alpha2');
    const got = await req('GET', '/apis/resource.svc.io/v1alpha2/resourceclasses/gpu');
    assert.equal(got.status, 200);
    assert.equal(got.body.driverName, 'gpu.example.com');
  });
});

describe('--runtime-config=api/all=false,api/v1=true (the core group only)', () => {
  let t: TestServer;
  // without the RBAC API, RBAC cannot be a mode (see the errors below)
  before(async () => (t = await startTestServer({ runtimeConfig: parseRuntimeConfig({ 'api/all': 'false', 'api/v1': 'true' }), authorization: { modes: ['AlwaysAllow'] } })));
  after(async () => t?.stop());

  it('serves no named group, and the core group still works (pods without scheduling.svc.io)', async () => {
    assert.deepEqual((await t.req('GET', '/apis')).body.groups, []);
    assert.equal((await t.req('GET', '/apis/apps/v1/namespaces/default/deployments')).status, 404);
    const pod = await t.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x:1' }] } });
    assert.equal(pod.status, 201, pod.text);
    const named = await t.req('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'q' }, spec: { priorityClassName: 'gold', containers: [{ name: 'c', image: 'x:1' }] } });
    assert.equal(named.status, 403, named.text);
    assert.match(named.body.message, /no PriorityClass with name gold was found/);
  });
});

describe('--runtime-config errors', () => {
  const rows: [string, RegExp][] = [
    ['--runtime-config=nothing.example/v1=true', /invalid argument for "--runtime-config" flag: unknown api groups nothing\.example/],
    ['--runtime-config=apps/v1=maybe', /invalid value of apps\/v1: maybe/],
    ['--runtime-config=apps/v7', /group version apps\/v7 that has not been registered/],
    ['--runtime-config=api/all=false', /invalid key with only api\/all=false/],
    ['--runtime-config=v1=false', /runtime-config invalid key v1/],
    ['--runtime-config=rbac.authorization.k8s.io/v1=false', /--authorization-mode=RBAC needs the rbac\.authorization\.svc\.io\/v1 API: enable it with --runtime-config or choose other modes/],
  ];
  for (const [flag, message] of rows) {
    it(`${flag} exits 1 with a clear message`, async () => {
      const p = runSvc(['apiserver', flag, `--data-dir=${tempDir('svc-rc-')}`, '--secure-port=0']);
      assert.equal(await p.exit, 1);
      assert.match(p.out(), message);
    });
  }
});
