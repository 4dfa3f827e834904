// Deprecation signals end to end (issue 26): a request to a deprecated
// built-in version gets kube's Warning header in the request's spelling,
// kubectl 1.27 prints it, the apiserver_requested_deprecated_apis gauge holds
// the endpoint; `svc apiserver` warns at start-up about a deprecated flag and a
// GA feature gate set explicitly; the gauge is scraped from /metrics and the
// audit event of a deprecated request carries the deprecated and
// removed-release annotations in both spellings.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './harness.js';
import { kubectlFor, kubectlMissing } from './kubectlcli.js';
import { startSvcApiserver } from './svcprocess.js';
import { tempDir } from '../../src/testing/tempdir.js';
import { auditOptions, readLog } from './auditlog.js';

const warningOf = (group: string, kind: string) =>
  `${group}/v1beta2 ${kind} is deprecated in v1.26+, unavailable in v1.29+; use ${group}/v1beta3 ${kind}`;

describe('deprecated API versions', () => {
  let t: TestServer;
  let auditLog: string;
  const k = kubectlFor(() => t);
  before(async () => {
    const audit = auditOptions(tempDir('svc-deprecation-audit-'), {}, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    auditLog = audit.log.path!;
    t = await startTestServer({ audit });
    const pl = await t.req('POST', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations', {
      metadata: { name: 'pl-1' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } },
    });
    assert.equal(pl.status, 201, pl.text);
    const fs = await t.req('POST', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas', {
      metadata: { name: 'fs-1' }, spec: { priorityLevelConfiguration: { name: 'pl-1' }, matchingPrecedence: 500 },
    });
    assert.equal(fs.status, 201, fs.text);
  });
  after(async () => {
    await t?.stop();
    k.cleanup();
  });

  const cases: [string, string, string | undefined][] = [
    ['/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas', 'list, k8s.io spelling', warningOf('flowcontrol.apiserver.k8s.io', 'FlowSchema')],
    ['/apis/flowcontrol.apiserver.svc.io/v1beta2/flowschemas/fs-1', 'get, svc.io spelling', warningOf('flowcontrol.apiserver.svc.io', 'FlowSchema')],
    ['/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas/fs-1/status', 'the status subresource', warningOf('flowcontrol.apiserver.k8s.io', 'FlowSchema')],
    ['/apis/flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations/pl-1', 'a priority level', warningOf('flowcontrol.apiserver.k8s.io', 'PriorityLevelConfiguration')],
    ['/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas/absent', 'a 404 still warns (kube signals every request to the route)', warningOf('flowcontrol.apiserver.k8s.io', 'FlowSchema')],
    ['/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas?watch=true&timeoutSeconds=1', 'a watch', warningOf('flowcontrol.apiserver.k8s.io', 'FlowSchema')],
    ['/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas', 'the current version: no warning', undefined],
    ['/api/v1/namespaces', 'a GA kind: no warning', undefined],
  ];
  for (const [path, name, warning] of cases) {
    it(name, async () => {
      const r = await t.req('GET', path);
      assert.deepEqual(r.headers.warning, warning === undefined ? undefined : `299 - "${warning}"`, `${r.status} ${r.text.slice(0, 200)}`);
    });
  }

  it('a write to the deprecated version warns once and is stored', async () => {
    const r = await t.req('POST', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas', {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'FlowSchema',
      metadata: { name: 'fs-2' }, spec: { priorityLevelConfiguration: { name: 'pl-1' }, matchingPrecedence: 600 },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.warning, `299 - "${warningOf('flowcontrol.apiserver.k8s.io', 'FlowSchema')}"`);
  });

  it('the gauge holds each deprecated endpoint requested, joinable by group, version, resource and subresource', async () => {
    const scrape = await t.req('GET', '/metrics');
    assert.equal(scrape.status, 200);
    const text = scrape.text;
    for (const [group, resource, sub] of [
      ['flowcontrol.apiserver.k8s.io', 'flowschemas', ''], ['flowcontrol.apiserver.svc.io', 'flowschemas', ''],
      ['flowcontrol.apiserver.k8s.io', 'flowschemas', 'status'], ['flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', ''],
    ]) {
      assert.ok(text.includes(`apiserver_requested_deprecated_apis{group="${group}",version="v1beta2",resource="${resource}",subresource="${sub}",removed_release="1.29"} 1\n`), `${group} ${resource} ${sub}`);
    }
    assert.ok(!/apiserver_requested_deprecated_apis\{[^}]*version="v1beta3"/.test(text), 'v1beta3 is not deprecated');
  });

  it('the audit event of a deprecated request carries the annotations in both spellings; a current one none', async () => {
    const events = readLog(auditLog).filter((e) => e.stage === 'ResponseComplete');
    const old = events.find((e) => e.requestURI === '/apis/flowcontrol.apiserver.svc.io/v1beta2/flowschemas/fs-1');
    assert.ok(old, 'the v1beta2 get was audited');
    for (const domain of ['svc.io', 'k8s.io']) {
      assert.equal(old.annotations?.[`${domain}/deprecated`], 'true');
      assert.equal(old.annotations?.[`${domain}/removed-release`], '1.29');
    }
    const current = events.find((e) => e.requestURI === '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    assert.ok(current, 'the v1beta3 list was audited');
    assert.equal(current.annotations?.['k8s.io/deprecated'], undefined);
  });

  it('kubectl 1.27 prints the warning on stderr', { skip: kubectlMissing }, async () => {
    const r = await k('get', 'flowschemas.v1beta2.flowcontrol.apiserver.k8s.io');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /fs-1/);
    assert.ok(r.err.includes(`Warning: ${warningOf('flowcontrol.apiserver.k8s.io', 'FlowSchema')}`), r.err);
    const current = await k('get', 'flowschemas.v1beta3.flowcontrol.apiserver.k8s.io');
    assert.equal(current.code, 0, current.err);
    assert.ok(!current.err.includes('Warning:'), current.err);
  });
});

describe('start-up warnings', () => {
  it('a deprecated flag and a GA feature gate set explicitly are reported, and the server starts', async () => {
    const { server } = await startSvcApiserver(tempDir('svc-dep-'), ['--admission-control=NamespaceLifecycle', '--feature-gates=ServerSideApply=true']);
    try {
      const out = server.out();
      assert.ok(out.includes('Flag --admission-control has been deprecated, Use --enable-admission-plugins or --disable-admission-plugins instead. Will be removed in a future version.\n'), out);
      assert.ok(out.includes('Setting GA feature gate ServerSideApply=true. It will be removed in a future release.'), out);
    } finally {
      server.proc.kill('SIGTERM');
      await server.exit;
    }
  });
  it('without them the server says nothing of the kind', async () => {
    const { server } = await startSvcApiserver(tempDir('svc-dep-'), ['--enable-admission-plugins=NamespaceLifecycle']);
    try {
      assert.ok(!/deprecated|Setting GA/.test(server.out()), server.out());
    } finally {
      server.proc.kill('SIGTERM');
      await server.exit;
    }
  });
});
