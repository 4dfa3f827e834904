// The admission chain end to end: the real `svc` process started with
// --enable-admission-plugins=AlwaysDeny (and a configuration file) on an
// fresh data directory refuses writes with kube's message; a server without NamespaceLifecycle lets a
// create into a missing namespace through; bad flags and files exit 1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../../src/testing/tempdir.js';
import { runSvc, startSvcApiserver, type AdminClient as Client, type SvcProcess } from './svcprocess.js';
import { startTestServer, type TestServer } from './harness.js';
import { PLUGIN_FACTORIES } from '../../src/admission/plugins/index.js';

function configFile(dir: string, body: string): string {
  const file = join(dir, 'admission.yaml');
  writeFileSync(file, body);
  return file;
}

describe('--enable-admission-plugins=AlwaysDeny (svc apiserver)', () => {
  let server: SvcProcess;
  let req: Client;
  before(async () => {
    // A fresh data directory: the start's own writes (system namespaces, RBAC policy) are refused
    // too; as kube-apiserver, the server serves anyway and its hooks keep retrying.
    const dataDir = tempDir('svc-adm-');
    const cfg = configFile(dataDir, 'apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: AlwaysDeny\n  configuration: {}\n');
    ({ server, req } = await startSvcApiserver(dataDir, ['--enable-admission-plugins=AlwaysDeny', `--admission-control-config-file=${cfg}`]));
  });
  after(async () => {
    server?.proc.kill('SIGTERM');
    await server?.exit;
  });

  it('refuses a create with 403 and kube\'s message, before validation', async () => {
    const res = await req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm' }, data: { a: 'b' } });
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.reason, 'Forbidden');
    assert.equal(res.body.message, 'configmaps "cm" is forbidden: admission control is denying all modifications');
    assert.deepEqual(res.body.details, { name: 'cm', kind: 'configmaps' });
    const invalid = await req('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'Not_Valid' } });
    assert.equal(invalid.status, 403, 'the mutating phase refuses before validation');
  });
  it('serves on a fresh data directory, its refused start-up writes failing /readyz and retried', async () => {
    assert.equal((await req('GET', '/api/v1/namespaces/default')).status, 404, 'the default namespace could not be created');
    const ready = await req('GET', '/readyz?verbose');
    assert.equal(ready.status, 500);
    assert.match(String(ready.body), /\[-\]poststarthook\/start-system-namespaces-controller failed: reason withheld/);
    assert.match(String(ready.body), /\[-\]poststarthook\/rbac\/bootstrap-roles failed: reason withheld/);
    assert.match(server.out(), /poststarthook\/start-system-namespaces-controller failed: namespaces "default" is forbidden: admission control is denying all modifications; retrying/);
  });
  it('refuses a connect (pods/exec) before looking at the pod', async () => {
    const res = await req('POST', '/api/v1/namespaces/default/pods/p/exec?command=ls&stdout=true');
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.message, 'pods "p" is forbidden: admission control is denying all modifications');
  });
});

describe('--disable-admission-plugins=NamespaceLifecycle', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer({ admission: { disable: ['NamespaceLifecycle'] } })));
  after(async () => t?.stop());

  it('lets a create into a missing namespace through (NamespaceLifecycle answers 404)', async () => {
    const res = await t.req('POST', '/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'cm' } });
    assert.equal(res.status, 201, res.text);
  });
});

describe('NamespaceLifecycle on by default', () => {
  let t: TestServer;
  before(async () => (t = await startTestServer()));
  after(async () => t?.stop());

  it('refuses a create into a missing namespace', async () => {
    const res = await t.req('POST', '/api/v1/namespaces/nowhere/configmaps', { metadata: { name: 'cm' } });
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.message, 'namespaces "nowhere" not found');
  });
});

describe('CONNECT through every built plugin', () => {
  let t: TestServer;
  // (but AlwaysDeny, and the plugins that cannot start without a configuration file: their own suites)
  const needConfiguration = new Set(['AlwaysDeny', 'ImagePolicyWebhook', 'EventRateLimit']);
  before(async () => (t = await startTestServer({ admission: { enable: [...PLUGIN_FACTORIES.keys()].filter((n) => !needConfiguration.has(n)) } })));
  after(async () => t?.stop());

  // Each plugin lets a connect it does not handle through untouched: the request reaches the pod lookup.
  const rows: [string, string, number, string][] = [
    ['POST', '/api/v1/namespaces/default/pods/p/exec?command=ls&stdout=true', 404, 'pods "p" not found'],
    ['POST', '/api/v1/namespaces/default/pods/p/attach?stdin=1', 404, 'pods "p" not found'],
    ['POST', '/api/v1/namespaces/default/pods/p/portforward?ports=80', 404, 'pods "p" not found'],
    ['GET', '/api/v1/namespaces/default/pods/p/proxy/x', 404, 'pods "p" not found'],
    ['GET', '/api/v1/namespaces/default/services/s:80/proxy/', 404, 'services "s" not found'],
    ['GET', '/api/v1/nodes/n/proxy/metrics', 404, 'nodes "n" not found'],
    ['POST', '/api/v1/namespaces/default/pods/p/exec?stdin=maybe', 400, 'strconv.ParseBool: parsing "maybe": invalid syntax'],
  ];
  for (const [method, path, status, message] of rows) {
    it(`${method} ${path}`, async () => {
      const res = await t.req(method, path);
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.message, message);
    });
  }
});

describe('admission start-up errors exit 1', () => {
  const dir = tempDir('svc-adm-');
  const bad = configFile(dir, 'apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\nplugins:\n- configuration: {}\n');
  const rows: [string[], RegExp][] = [
    [['--enable-admission-plugins=Foo'], /Error: enable-admission-plugins plugin "Foo" is unknown/],
    [['--disable-admission-plugins=NamespaceLifecycle,Bar'], /Error: disable-admission-plugins plugin "Bar" is unknown/],
    [['--enable-admission-plugins=AlwaysDeny', '--disable-admission-plugins=AlwaysDeny'], /\[AlwaysDeny\] in enable-admission-plugins and disable-admission-plugins overlapped/],
    [[`--admission-control-config-file=${join(dir, 'missing.yaml')}`], /Error: failed to read plugin config: unable to read admission control configuration from ".*missing\.yaml"/],
    [[`--admission-control-config-file=${bad}`], /Error: failed to read plugin config: .*admission\.yaml: plugins\[0\]\.name: Required value/],
  ];
  for (const [flags, message] of rows) {
    it(`${flags.join(' ')}`, async () => {
      const p = runSvc(['apiserver', ...flags, `--data-dir=${tempDir('svc-adm-')}`, '--secure-port=0']);
      assert.equal(await p.exit, 1, p.out());
      assert.match(p.out(), message);
    });
  }
});
