// The admission chain end to end: the real `svc` process started with
// --enable-admission-plugins=AlwaysDeny (and a configuration file) on an
// initialized data directory refuses writes with kube's message; a server without NamespaceLifecycle lets a
// create into a missing namespace through; bad flags and files exit 1.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../../src/testing/tempdir.js';
import { runSvc, startSvcApiserver, type AdminClient as Client, type SvcProcess } from './svcprocess.js';
import { startTestServer, type TestServer } from './harness.js';

function configFile(dir: string, body: string): string {
  const file = join(dir, 'admission.yaml');
  writeFileSync(file, body);
  return file;
}

describe('--enable-admission-plugins=AlwaysDeny (svc apiserver)', () => {
  let server: SvcProcess;
  let req: Client;
  before(async () => {
    // A data directory that has been started once: the system namespaces and RBAC policy exist
    // (the start writes them through admission, which AlwaysDeny would refuse).
    const dataDir = tempDir('svc-adm-');
    await (await startTestServer({ dataDir })).server.shutdown();
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
  it('refuses a delete and reads still work', async () => {
    assert.equal((await req('GET', '/api/v1/namespaces/default')).status, 200);
    const res = await req('DELETE', '/api/v1/namespaces/svc-public');
    assert.equal(res.status, 403);
    assert.equal(res.body.message, 'namespaces "svc-public" is forbidden: admission control is denying all modifications');
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

describe('admission start-up errors exit 1', () => {
  const dir = tempDir('svc-adm-');
  const bad = configFile(dir, 'apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\nplugins:\n- configuration: {}\n');
  const rows: [string[], RegExp][] = [
    [['--enable-admission-plugins=Foo'], /Error: enable-admission-plugins plugin "Foo" is unknown/],
    [['--disable-admission-plugins=NamespaceLifecycle,Bar'], /Error: disable-admission-plugins plugin "Bar" is unknown/],
    [['--enable-admission-plugins=AlwaysDeny', '--disable-admission-plugins=AlwaysDeny'], /\[AlwaysDeny\] in enable-admission-plugins and disable-admission-plugins overlapped/],
    [['--enable-admission-plugins=ServiceAccount'], /Error: admission plugin "ServiceAccount" is not available yet/],
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
