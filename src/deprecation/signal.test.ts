// The signals of a request to a deprecated endpoint: Warning text per built-in
// deprecated kind and spelling, audit annotations, the gauge (through the
// registry's exposition), and custom resources through the same path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allResources, lookup } from '../api/catalog/index.js';
import type { ServedResource } from '../registry/registry.js';
import type { RequestContext } from '../server/context.js';
import { auditAnnotationsOf } from '../server/auditannotations.js';
import { exposition } from '../metrics/registry.js';
import { deprecatedEndpoint, signalDeprecated } from './signal.js';

function fakeCtx(): RequestContext & { headers: Record<string, unknown> } {
  const headers: Record<string, unknown> = {};
  const res = { headersSent: false, writableEnded: false, setHeader(n: string, v: unknown) { headers[n] = v; } };
  return { req: { headers: {} }, res, url: new URL('https://x/'), headers } as unknown as RequestContext & { headers: Record<string, unknown> };
}

const served = (group: string, version: string, resource: string): ServedResource => lookup(group, version, resource)!;

describe('warnings of the deprecated built-in endpoints', () => {
  const cases: [string, string, string, string, string | undefined][] = [
    ['', 'v1', 'componentstatuses', '', 'v1 ComponentStatus is deprecated in v1.19+'],
    ['flowcontrol.apiserver.k8s.io', 'v1beta2', 'flowschemas', '',
      'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema'],
    ['flowcontrol.apiserver.svc.io', 'v1beta2', 'flowschemas', '',
      'flowcontrol.apiserver.svc.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.svc.io/v1beta3 FlowSchema'],
    ['flowcontrol.apiserver.k8s.io', 'v1beta2', 'flowschemas', 'status',
      'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema'],
    ['flowcontrol.apiserver.k8s.io', 'v1beta2', 'prioritylevelconfigurations', '',
      'flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration'],
    ['flowcontrol.apiserver.svc.io', 'v1beta2', 'prioritylevelconfigurations', 'status',
      'flowcontrol.apiserver.svc.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.svc.io/v1beta3 PriorityLevelConfiguration'],
    ['flowcontrol.apiserver.k8s.io', 'v1beta3', 'flowschemas', '', undefined],
    ['apps', 'v1', 'deployments', 'scale', undefined],
    ['networking.k8s.io', 'v1alpha1', 'clustercidrs', '', undefined],
  ];
  for (const [group, version, resource, subName, text] of cases) {
    it(`${group || 'core'}/${version} ${resource}${subName ? `/${subName}` : ''}`, () => {
      const r = served(group, version, resource);
      const sub = subName ? r.subresources.find((s) => s.name === subName) : undefined;
      assert.equal(deprecatedEndpoint(r, sub, group)?.warning, text);
    });
  }
  it('every deprecated built-in warns, whatever the spelling; no other one does', () => {
    for (const r of allResources()) {
      const e = deprecatedEndpoint(r, undefined, r.group);
      assert.equal(e !== undefined, r.deprecated !== undefined, `${r.group}/${r.version}/${r.resource}`);
    }
  });
});

describe('one request to a deprecated endpoint', () => {
  it('sends the Warning, annotates the audit event and sets the gauge', async () => {
    const ctx = fakeCtx();
    const e = deprecatedEndpoint(served('flowcontrol.apiserver.k8s.io', 'v1beta2', 'flowschemas'), undefined, 'flowcontrol.apiserver.k8s.io')!;
    signalDeprecated(ctx, e);
    signalDeprecated(ctx, e);
    assert.deepEqual(ctx.headers.Warning, [`299 - "${e.warning}"`]);
    assert.deepEqual(Object.fromEntries(auditAnnotationsOf(ctx)), {
      'svc.io/deprecated': 'true', 'k8s.io/deprecated': 'true', 'svc.io/removed-release': '1.29', 'k8s.io/removed-release': '1.29',
    });
    const text = await exposition();
    assert.match(text, /# HELP apiserver_requested_deprecated_apis \[STABLE\] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release\.\n# TYPE apiserver_requested_deprecated_apis gauge\n/);
    assert.match(text, /apiserver_requested_deprecated_apis\{group="flowcontrol\.apiserver\.k8s\.io",version="v1beta2",resource="flowschemas",subresource="",removed_release="1\.29"\} 1\n/);
  });
  it('a kind without a removal release: no removed-release annotation, an empty label', async () => {
    const ctx = fakeCtx();
    signalDeprecated(ctx, deprecatedEndpoint(served('', 'v1', 'componentstatuses'), undefined, '')!);
    assert.deepEqual(Object.fromEntries(auditAnnotationsOf(ctx)), { 'svc.io/deprecated': 'true', 'k8s.io/deprecated': 'true' });
    assert.match(await exposition(), /apiserver_requested_deprecated_apis\{group="",version="v1",resource="componentstatuses",subresource="",removed_release=""\} 1\n/);
  });
  it('a custom resource version: its own warning, kube\'s empty removal release', async () => {
    const crd = { ...served('apps', 'v1', 'deployments'), group: 'stable.example.com', version: 'v1beta1', resource: 'crontabs', kind: 'CronTab', custom: { deprecationWarning: 'stable.example.com/v1beta1 CronTab is deprecated' } } as unknown as ServedResource;
    const ctx = fakeCtx();
    const e = deprecatedEndpoint(crd, undefined, 'stable.example.com')!;
    signalDeprecated(ctx, e);
    assert.deepEqual(ctx.headers.Warning, ['299 - "stable.example.com/v1beta1 CronTab is deprecated"']);
    assert.deepEqual(Object.fromEntries(auditAnnotationsOf(ctx)), { 'svc.io/deprecated': 'true', 'k8s.io/deprecated': 'true' });
    assert.match(await exposition(), /apiserver_requested_deprecated_apis\{group="stable\.example\.com",version="v1beta1",resource="crontabs",subresource="",removed_release=""\} 1\n/);
    const current = { ...crd, custom: {} } as unknown as ServedResource;
    assert.equal(deprecatedEndpoint(current, undefined, 'stable.example.com'), undefined);
  });
});
