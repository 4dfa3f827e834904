import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { servedGroups, servedResources } from '../server/served.js';
import { aggregatedList, encodeDocument, matchesETag, negotiateAggregated } from './aggregated.js';
import { Discovery } from './discovery.js';

const K8S = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const SVC = 'application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList';
const K8S_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('negotiateAggregated', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ['kubectl 1.27', `${K8S},application/json`, K8S],
    ['kubectl 1.31+: v2 is skipped, v2beta1 used', `${K8S_V2},${K8S},application/json`, K8S],
    ['only v2: legacy', `${K8S_V2},application/json`, undefined],
    ['svc.io spelling', `${SVC},application/json`, SVC],
    ['yaml', 'application/yaml;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList', 'application/yaml;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList'],
    ['plain JSON first wins', `application/json,${K8S}`, undefined],
    ['q values order the list', `application/json;q=0.5,${K8S}`, K8S],
    ['no Accept', undefined, undefined],
    ['*/*', '*/*', undefined],
    ['an unknown group is skipped', 'application/json;g=apidiscovery.example.com;v=v2beta1;as=APIGroupDiscoveryList,application/json', undefined],
    ['another kind is skipped', 'application/json;g=meta.k8s.io;v=v1;as=Table,' + K8S, K8S],
    ['protobuf is skipped', `application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,${K8S}`, K8S],
  ];
  for (const [name, accept, want] of cases) {
    it(name, () => assert.equal(negotiateAggregated(accept)?.contentType, want));
  }
});

describe('aggregatedList', () => {
  const deployments = servedResources().find((r) => r.group === 'apps' && r.resource === 'deployments')!;
  const csr = servedResources().find((r) => r.group === 'certificates.svc.io' && r.resource === 'certificatesigningrequests')!;

  it('describes a resource: scope, verbs, names, categories, subresources, responseKind', () => {
    const doc = aggregatedList([{ name: 'apps', versions: [{ version: 'v1', resources: [deployments] }] }], 'k8s.io') as any;
    assert.equal(doc.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    assert.equal(doc.kind, 'APIGroupDiscoveryList');
    assert.deepEqual(doc.items[0].metadata, { name: 'apps', creationTimestamp: null });
    const v = doc.items[0].versions[0];
    assert.equal(v.version, 'v1');
    assert.equal(v.freshness, 'Current');
    assert.deepEqual(v.resources[0], {
      resource: 'deployments',
      responseKind: { group: '', version: '', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
      categories: ['all'],
      subresources: [
        { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
      ],
    });
  });

  it('cluster-scoped resources; the core group has no name', () => {
    const doc = aggregatedList([{ name: '', versions: [{ version: 'v1', resources: [csr] }] }], 'svc.io') as any;
    assert.equal(doc.apiVersion, 'apidiscovery.svc.io/v2beta1');
    assert.deepEqual(doc.items[0].metadata, { creationTimestamp: null });
    assert.equal(doc.items[0].versions[0].resources[0].scope, 'Cluster');
  });
});

describe('entity tags', () => {
  it('change with the content and match If-None-Match', () => {
    const a = encodeDocument({ x: 1 }, 'json');
    const b = encodeDocument({ x: 2 }, 'json');
    assert.notEqual(a.etag, b.etag);
    assert.match(a.etag, /^"[0-9A-F]{128}"$/);
    assert.equal(encodeDocument({ x: 1 }, 'yaml').etag, a.etag, 'one tag per content, whatever the encoding');
    assert.ok(matchesETag(a.etag, a.etag));
    assert.ok(matchesETag(`"other", ${a.etag}`, a.etag));
    assert.ok(matchesETag(`W/${a.etag}`, a.etag));
    assert.ok(matchesETag('*', a.etag));
    assert.ok(!matchesETag(b.etag, a.etag));
    assert.ok(!matchesETag(undefined, a.etag));
  });
});

describe('Discovery with the aggregated endpoint', () => {
  const resources = servedResources();
  const discovery = (aggregated: boolean) => new Discovery({ resources, groups: servedGroups(resources), serverAddress: () => '127.0.0.1:6443', aggregated });
  const on = discovery(true);

  it('/apis lists every group of legacy /apis, in the same order, with the resources of each group-version', () => {
    const a = on.answer('/apis', `${K8S},application/json`);
    assert.equal(a?.kind, 'aggregated');
    if (a?.kind !== 'aggregated') return;
    assert.equal(a.status, 200);
    assert.equal(a.contentType, K8S);
    const doc = JSON.parse(a.body);
    const legacy = on.handle('/apis') as { groups: { name: string; versions: { version: string }[] }[] };
    assert.deepEqual(
      doc.items.map((g: any) => [g.metadata.name, g.versions.map((v: any) => v.version)]),
      legacy.groups.map((g) => [g.name, g.versions.map((v) => v.version)]),
    );
    const names = doc.items.map((g: any) => g.metadata.name);
    for (const g of ['apps', 'authorization.k8s.io', 'authorization.svc.io', 'apiextensions.k8s.io', 'rbac.authorization.k8s.io']) assert.ok(names.includes(g), g);
    // Every resource of every group-version appears, as legacy /apis/<g>/<v> lists it.
    for (const g of doc.items) {
      for (const v of g.versions) {
        const list = on.handle(`/apis/${g.metadata.name}/${v.version}`) as { resources: { name: string }[] };
        assert.deepEqual(v.resources.map((r: any) => r.resource), list.resources.map((r) => r.name).filter((n) => !n.includes('/')), `${g.metadata.name}/${v.version}`);
      }
    }
  });

  it('/api answers the core group alone', () => {
    const a = on.answer('/api/', `${K8S},application/json`);
    assert.equal(a?.kind, 'aggregated');
    if (a?.kind !== 'aggregated') return;
    const doc = JSON.parse(a.body);
    assert.equal(doc.items.length, 1);
    assert.deepEqual(doc.items[0].metadata, { creationTimestamp: null });
    const pods = doc.items[0].versions[0].resources.find((r: any) => r.resource === 'pods');
    assert.deepEqual(pods.shortNames, ['po']);
    assert.deepEqual(pods.categories, ['all']);
    assert.ok(pods.subresources.some((s: any) => s.subresource === 'status'));
  });

  it('the svc.io spelling answers the svc.io document', () => {
    const a = on.answer('/apis', `${SVC},application/json`);
    if (a?.kind !== 'aggregated') return assert.fail('not aggregated');
    assert.equal(a.contentType, SVC);
    assert.equal(JSON.parse(a.body).apiVersion, 'apidiscovery.svc.io/v2beta1');
  });

  it('responseKind groups follow the document spelling', () => {
    const find = (accept: string) => {
      const a = on.answer('/api', accept);
      if (a?.kind !== 'aggregated') throw new Error('not aggregated');
      const sa = JSON.parse(a.body).items[0].versions[0].resources.find((r: any) => r.resource === 'serviceaccounts');
      return sa.subresources.find((s: any) => s.subresource === 'token').responseKind.group;
    };
    assert.equal(find(K8S), 'authentication.k8s.io');
    assert.equal(find(SVC), 'authentication.svc.io');
  });

  it('yaml on request', () => {
    const a = on.answer('/apis', 'application/yaml;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    if (a?.kind !== 'aggregated') return assert.fail('not aggregated');
    assert.equal(parseYaml(a.body).kind, 'APIGroupDiscoveryList');
  });

  it('If-None-Match with the current tag is 304', () => {
    const first = on.answer('/apis', K8S);
    if (first?.kind !== 'aggregated') return assert.fail('not aggregated');
    const again = on.answer('/apis', K8S, first.etag);
    assert.equal(again?.kind === 'aggregated' && again.status, 304);
    const stale = on.answer('/apis', K8S, '"0"');
    assert.equal(stale?.kind === 'aggregated' && stale.status, 200);
    const svc = on.answer('/apis', SVC);
    assert.notEqual(svc?.kind === 'aggregated' && svc.etag, first.etag, 'the two spellings are different documents');
  });

  it('legacy discovery otherwise: plain Accept, group-version paths, and the gate off', () => {
    assert.equal(on.answer('/apis', 'application/json')?.kind, 'legacy');
    assert.equal(on.answer('/apis/apps/v1', `${K8S},application/json`)?.kind, 'legacy');
    assert.equal(discovery(false).answer('/apis', `${K8S},application/json`)?.kind, 'legacy');
    assert.equal(on.answer('/apis/nope', K8S), undefined);
  });
});
