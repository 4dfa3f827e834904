// Table tests for request info: every path shape, verb rule and group spelling.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalGroup, exactFieldMatch, groupSpelling, kubernetesGroup, queryBool, RequestInfoError, resolveRequestInfo,
  spellApiVersion, spellGroup, type ResourceRequestInfo,
} from './requestinfo.js';

type Want = Partial<Omit<ResourceRequestInfo, 'isResourceRequest'>> & Pick<ResourceRequestInfo, 'verb'>;

/** Expected resource info: core group v1, cluster-scoped, unless the row says otherwise. */
function want(url: string, w: Want): ResourceRequestInfo {
  const path = decodeURIComponent(url.split('?')[0]!);
  return {
    isResourceRequest: true, path, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: '',
    resource: '', subresource: '', name: '', parts: [], ...w,
  };
}

const resourceRows: [method: string, url: string, w: Want][] = [
  // core collections and objects
  ['GET', '/api/v1/pods', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/namespaces/ns/pods', { verb: 'list', namespace: 'ns', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/namespaces/ns/pods/p', { verb: 'get', namespace: 'ns', resource: 'pods', name: 'p', parts: ['pods', 'p'] }],
  ['HEAD', '/api/v1/namespaces/ns/pods/p', { verb: 'get', namespace: 'ns', resource: 'pods', name: 'p', parts: ['pods', 'p'] }],
  ['GET', '/api/v1/namespaces/ns/pods/p/status',
    { verb: 'get', namespace: 'ns', resource: 'pods', name: 'p', subresource: 'status', parts: ['pods', 'p', 'status'] }],
  ['PUT', '/api/v1/namespaces/ns/pods/p/status',
    { verb: 'update', namespace: 'ns', resource: 'pods', name: 'p', subresource: 'status', parts: ['pods', 'p', 'status'] }],
  ['GET', '/api/v1/namespaces/ns/pods/p/log/extra/stuff',
    { verb: 'get', namespace: 'ns', resource: 'pods', name: 'p', subresource: 'log', parts: ['pods', 'p', 'log', 'extra', 'stuff'] }],
  ['POST', '/api/v1/namespaces/ns/pods/p/binding',
    { verb: 'create', namespace: 'ns', resource: 'pods', name: 'p', subresource: 'binding', parts: ['pods', 'p', 'binding'] }],
  ['GET', '/api/v1/nodes/n1', { verb: 'get', resource: 'nodes', name: 'n1', parts: ['nodes', 'n1'] }],
  ['GET', '/api/v1/nodes/n1/proxy/metrics',
    { verb: 'get', resource: 'nodes', name: 'n1', subresource: 'proxy', parts: ['nodes', 'n1', 'proxy', 'metrics'] }],
  // verbs from the method
  ['POST', '/api/v1/namespaces/ns/configmaps', { verb: 'create', namespace: 'ns', resource: 'configmaps', parts: ['configmaps'] }],
  ['PUT', '/api/v1/namespaces/ns/configmaps/c', { verb: 'update', namespace: 'ns', resource: 'configmaps', name: 'c', parts: ['configmaps', 'c'] }],
  ['PATCH', '/api/v1/namespaces/ns/configmaps/c', { verb: 'patch', namespace: 'ns', resource: 'configmaps', name: 'c', parts: ['configmaps', 'c'] }],
  ['DELETE', '/api/v1/namespaces/ns/configmaps/c', { verb: 'delete', namespace: 'ns', resource: 'configmaps', name: 'c', parts: ['configmaps', 'c'] }],
  ['DELETE', '/api/v1/namespaces/ns/configmaps', { verb: 'deletecollection', namespace: 'ns', resource: 'configmaps', parts: ['configmaps'] }],
  ['DELETE', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dc',
    { verb: 'deletecollection', namespace: 'ns', resource: 'configmaps', parts: ['configmaps'] }],
  ['OPTIONS', '/api/v1/namespaces/ns/configmaps', { verb: '', namespace: 'ns', resource: 'configmaps', parts: ['configmaps'] }],
  ['POST', '/api/v1/namespaces', { verb: 'create', resource: 'namespaces', parts: ['namespaces'] }],
  // the namespace object itself and its subresources
  ['GET', '/api/v1/namespaces', { verb: 'list', resource: 'namespaces', parts: ['namespaces'] }],
  ['GET', '/api/v1/namespaces/ns', { verb: 'get', namespace: 'ns', resource: 'namespaces', name: 'ns', parts: ['namespaces', 'ns'] }],
  ['DELETE', '/api/v1/namespaces/ns', { verb: 'delete', namespace: 'ns', resource: 'namespaces', name: 'ns', parts: ['namespaces', 'ns'] }],
  ['PUT', '/api/v1/namespaces/ns/status',
    { verb: 'update', namespace: 'ns', resource: 'namespaces', name: 'ns', subresource: 'status', parts: ['namespaces', 'ns', 'status'] }],
  ['PUT', '/api/v1/namespaces/ns/finalize',
    { verb: 'update', namespace: 'ns', resource: 'namespaces', name: 'ns', subresource: 'finalize', parts: ['namespaces', 'ns', 'finalize'] }],
  // named groups
  ['GET', '/apis/apps/v1/deployments', { verb: 'list', apiPrefix: 'apis', apiGroup: 'apps', resource: 'deployments', parts: ['deployments'] }],
  ['GET', '/apis/apps/v1/namespaces/ns/deployments/x/scale',
    { verb: 'get', apiPrefix: 'apis', apiGroup: 'apps', namespace: 'ns', resource: 'deployments', name: 'x', subresource: 'scale',
      parts: ['deployments', 'x', 'scale'] }],
  ['PATCH', '/apis/apps/v1/namespaces/ns/deployments/x/scale',
    { verb: 'patch', apiPrefix: 'apis', apiGroup: 'apps', namespace: 'ns', resource: 'deployments', name: 'x', subresource: 'scale',
      parts: ['deployments', 'x', 'scale'] }],
  ['GET', '/apis/rbac.authorization.svc.io/v1/clusterroles/x',
    { verb: 'get', apiPrefix: 'apis', apiGroup: 'rbac.authorization.svc.io', resource: 'clusterroles', name: 'x', parts: ['clusterroles', 'x'] }],
  ['GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/x',
    { verb: 'get', apiPrefix: 'apis', apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'x', parts: ['clusterroles', 'x'] }],
  ['POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    { verb: 'create', apiPrefix: 'apis', apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', parts: ['selfsubjectaccessreviews'] }],
  ['GET', '/apis/batch/v1/namespaces/ns/jobs/j/status',
    { verb: 'get', apiPrefix: 'apis', apiGroup: 'batch', apiVersion: 'v1', namespace: 'ns', resource: 'jobs', name: 'j', subresource: 'status',
      parts: ['jobs', 'j', 'status'] }],
  ['GET', '/apis/stable.example.com/v1beta1/namespaces/ns/crontabs',
    { verb: 'list', apiPrefix: 'apis', apiGroup: 'stable.example.com', apiVersion: 'v1beta1', namespace: 'ns', resource: 'crontabs', parts: ['crontabs'] }],
  // a collection named "namespaces" listed across namespaces in a group
  ['GET', '/apis/example.com/v1/namespaces', { verb: 'list', apiPrefix: 'apis', apiGroup: 'example.com', resource: 'namespaces', parts: ['namespaces'] }],
  // the deprecated /watch/ and /proxy/ prefixes
  ['GET', '/api/v1/watch/pods', { verb: 'watch', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/watch/namespaces', { verb: 'watch', resource: 'namespaces', parts: ['namespaces'] }],
  ['GET', '/api/v1/watch/namespaces/ns', { verb: 'watch', namespace: 'ns', resource: 'namespaces', name: 'ns', parts: ['namespaces', 'ns'] }],
  ['GET', '/api/v1/watch/namespaces/ns/pods', { verb: 'watch', namespace: 'ns', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/watch/namespaces/ns/pods/p', { verb: 'watch', namespace: 'ns', resource: 'pods', name: 'p', parts: ['pods', 'p'] }],
  ['GET', '/api/v1/watch/namespaces/ns/pods?watch=false', { verb: 'watch', namespace: 'ns', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/watch/pods?fieldSelector=metadata.name%3Dp', { verb: 'watch', resource: 'pods', parts: ['pods'] }],
  ['GET', '/apis/apps/v1/watch/namespaces/ns/deployments',
    { verb: 'watch', apiPrefix: 'apis', apiGroup: 'apps', namespace: 'ns', resource: 'deployments', parts: ['deployments'] }],
  ['GET', '/api/v1/proxy/namespaces/ns/pods/p/a/b', { verb: 'proxy', namespace: 'ns', resource: 'pods', name: 'p', parts: ['pods', 'p', 'a', 'b'] }],
  ['GET', '/api/v1/proxy/nodes/n1/x', { verb: 'proxy', resource: 'nodes', name: 'n1', parts: ['nodes', 'n1', 'x'] }],
  // list vs watch from the query
  ['GET', '/api/v1/namespaces/ns/pods?watch=true', { verb: 'watch', namespace: 'ns', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/namespaces/ns/pods?watch=false', { verb: 'list', namespace: 'ns', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?limit=500&resourceVersion=0', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?timeoutSeconds=2&watch=True', { verb: 'watch', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?watch=1&watch=0', { verb: 'watch', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?watch=0&watch=1', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/apis/apps/v1/deployments?watch=true&allowWatchBookmarks=true',
    { verb: 'watch', apiPrefix: 'apis', apiGroup: 'apps', resource: 'deployments', parts: ['deployments'] }],
  // a metadata.name field selector names the object of a list or watch
  ['GET', '/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dp1&limit=500&resourceVersion=0',
    { verb: 'list', namespace: 'ns', resource: 'pods', name: 'p1', parts: ['pods'] }],
  ['GET', '/api/v1/namespaces/ns/pods?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dp1&resourceVersion=7&timeoutSeconds=30&watch=true',
    { verb: 'watch', namespace: 'ns', resource: 'pods', name: 'p1', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name==p1,status.phase!=Running&watch=1',
    { verb: 'watch', resource: 'pods', name: 'p1', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name!%3Dp1', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.namespace%3Dns', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Da%5C%2Cb', { verb: 'list', resource: 'pods', name: 'a,b', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name%3D..', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Da%25b', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp&limit=abc', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp&timeoutSeconds=&watch=yes', { verb: 'watch', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Dp,bogus&watch=1', { verb: 'watch', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/pods?fieldSelector=metadata.name%3Db,metadata.name%3Da', { verb: 'list', resource: 'pods', name: 'a', parts: ['pods'] }],
  // paths no route serves (src/endpoints/routes.ts answers 404/405) still get Kubernetes' attributes
  ['GET', '/api/v1/namespaces/ns/nodes', { verb: 'list', namespace: 'ns', resource: 'nodes', parts: ['nodes'] }],
  ['GET', '/api/v1/configmaps/c', { verb: 'get', resource: 'configmaps', name: 'c', parts: ['configmaps', 'c'] }],
  ['POST', '/api/v1/configmaps', { verb: 'create', resource: 'configmaps', parts: ['configmaps'] }],
  ['GET', '/api/v1/watch/configmaps/c', { verb: 'watch', resource: 'configmaps', name: 'c', parts: ['configmaps', 'c'] }],
  ['GET', '/api/v1/namespaces/ns/configmaps/c/status/extra',
    { verb: 'get', namespace: 'ns', resource: 'configmaps', name: 'c', subresource: 'status', parts: ['configmaps', 'c', 'status', 'extra'] }],
  ['GET', '/apis/apps/v1/namespaces/ns', { verb: 'get', apiPrefix: 'apis', apiGroup: 'apps', namespace: 'ns', resource: 'namespaces', name: 'ns', parts: ['namespaces', 'ns'] }],
  ['GET', '/api/v1/namespaces/ns/nodes/n', { verb: 'get', namespace: 'ns', resource: 'nodes', name: 'n', parts: ['nodes', 'n'] }],
  // URL details: escapes, slashes, absolute form
  ['GET', '/api/v1/namespaces/ns/configmaps/a%2Fb',
    { verb: 'get', namespace: 'ns', resource: 'configmaps', name: 'a', subresource: 'b', parts: ['configmaps', 'a', 'b'] }],
  ['GET', '/api/v1/namespaces/ns/configmaps/c%3Ax', { verb: 'get', namespace: 'ns', resource: 'configmaps', name: 'c:x', parts: ['configmaps', 'c:x'] }],
  ['GET', '/api/v1/pods/', { verb: 'list', resource: 'pods', parts: ['pods'] }],
  ['GET', '/api/v1/namespaces/ns/pods/p#frag', { verb: 'get', namespace: 'ns', resource: 'pods', name: 'p', parts: ['pods', 'p'] }],
];

const nonResourceRows: [method: string, url: string, verb: string, path?: string][] = [
  ['GET', '/', 'get'],
  ['GET', '', 'get', '/'],
  ['GET', '/healthz', 'get'],
  ['GET', '/livez/ping', 'get'],
  ['GET', '/readyz?verbose', 'get', '/readyz'],
  ['GET', '/version', 'get'],
  ['GET', '/version/', 'get'],
  ['GET', '/metrics', 'get'],
  ['GET', '/openapi/v2', 'get'],
  ['GET', '/openapi/v3/apis/apps/v1?hash=ABC', 'get', '/openapi/v3/apis/apps/v1'],
  ['GET', '/api', 'get'],
  ['GET', '/api/v1', 'get'],
  ['GET', '/api/v1/', 'get'],
  ['GET', '/apis', 'get'],
  ['GET', '/apis/apps', 'get'],
  ['GET', '/apis/apps/v1', 'get'],
  ['GET', '/apis/rbac.authorization.k8s.io/v1?timeout=32s', 'get', '/apis/rbac.authorization.k8s.io/v1'],
  ['POST', '/logs/x', 'post'],
  ['DELETE', '/healthz', 'delete'],
  ['PUT', '/foo/bar/baz/qux', 'put'],
];

describe('resolveRequestInfo', () => {
  for (const [method, url, w] of resourceRows) {
    it(`${method} ${url}`, () => assert.deepEqual(resolveRequestInfo({ method, url }), want(url.split('#')[0]!, w)));
  }
  for (const [method, url, verb, path] of nonResourceRows) {
    it(`${method} ${url || '(empty)'} is not a resource request`, () =>
      assert.deepEqual(resolveRequestInfo({ method, url }), { isResourceRequest: false, path: path ?? url, verb }));
  }
  it('accepts the absolute form of a request target', () => {
    const info = resolveRequestInfo({ method: 'GET', url: 'https://127.0.0.1:6443/api/v1/namespaces/ns/pods?watch=1' });
    assert.deepEqual(info, want('/api/v1/namespaces/ns/pods', { verb: 'watch', namespace: 'ns', resource: 'pods', parts: ['pods'] }));
  });
  it('treats a missing method and url as GET /', () =>
    assert.deepEqual(resolveRequestInfo({}), { isResourceRequest: false, path: '/', verb: 'get' }));
  it('keeps the verb get for a named object even with watch=true, as Kubernetes does', () =>
    assert.equal(resolveRequestInfo({ method: 'GET', url: '/api/v1/namespaces/ns/pods/p?watch=true' }).verb, 'get'));
  for (const url of ['/api/v1/watch', '/apis/apps/v1/proxy']) {
    it(`rejects ${url}`, () => assert.throws(() => resolveRequestInfo({ method: 'GET', url }), RequestInfoError));
  }
  it('rejects a malformed path escape', () =>
    assert.throws(() => resolveRequestInfo({ method: 'GET', url: '/api/v1/pods/%zz' }), RequestInfoError));
});

describe('queryBool', () => {
  const rows: [string, boolean][] = [
    ['', false], ['watch', true], ['watch=', true],
    ['watch=1', true], ['watch=t', true], ['watch=T', true], ['watch=true', true], ['watch=TRUE', true], ['watch=True', true],
    ['watch=yes', true], ['watch=f', true],
    ['watch=0', false], ['watch=false', false], ['watch=False', false], ['watch=FALSE', false], ['watch=fAlSe', false],
    ['watch=true&watch=false', true], ['watch=false&watch=true', false], ['other=true', false],
  ];
  for (const [q, expected] of rows) {
    it(`?${q} → ${expected}`, () => assert.equal(queryBool(new URLSearchParams(q), 'watch'), expected));
  }
});

describe('exactFieldMatch', () => {
  const rows: [string, string | undefined][] = [
    ['metadata.name=a', 'a'],
    ['metadata.name==a', 'a'],
    ['metadata.name!=a', undefined],
    ['metadata.name=', ''],
    ['spec.nodeName=n,metadata.name=a', 'a'],
    ['metadata.name=a,,', 'a'],
    ['metadata.name=a\\=b', 'a=b'],
    ['metadata.name=a\\\\b', 'a\\b'],
    ['metadata.name=a=b', undefined],
    ['metadata.name=a\\b', undefined],
    ['metadata.name=a\\', undefined],
    ['metadata.name', undefined],
    ['metadata.name=a,junk', undefined],
    ['x=1,metadata.name=z,metadata.name=y', 'y'],
    ['', undefined],
  ];
  for (const [selector, expected] of rows) {
    it(`${JSON.stringify(selector)} → ${String(expected)}`, () => assert.equal(exactFieldMatch(selector, 'metadata.name'), expected));
  }
});

describe('group spellings', () => {
  const rows: [group: string, svc: string, k8s: string, spelling: 'svc.io' | 'k8s.io' | undefined][] = [
    ['rbac.authorization.k8s.io', 'rbac.authorization.svc.io', 'rbac.authorization.k8s.io', 'k8s.io'],
    ['rbac.authorization.svc.io', 'rbac.authorization.svc.io', 'rbac.authorization.k8s.io', 'svc.io'],
    ['apiextensions.k8s.io', 'apiextensions.svc.io', 'apiextensions.k8s.io', 'k8s.io'],
    ['flowcontrol.apiserver.svc.io', 'flowcontrol.apiserver.svc.io', 'flowcontrol.apiserver.k8s.io', 'svc.io'],
    ['meta.k8s.io', 'meta.svc.io', 'meta.k8s.io', 'k8s.io'],
    ['k8s.io', 'svc.io', 'k8s.io', 'k8s.io'],
    ['apps', 'apps', 'apps', undefined],
    ['batch', 'batch', 'batch', undefined],
    ['policy', 'policy', 'policy', undefined],
    ['', '', '', undefined],
    ['cluster.x-k8s.io', 'cluster.x-k8s.io', 'cluster.x-k8s.io', undefined],
    ['k8s.io.example.com', 'k8s.io.example.com', 'k8s.io.example.com', undefined],
    ['stable.example.com', 'stable.example.com', 'stable.example.com', undefined],
  ];
  for (const [group, svc, k8s, spelling] of rows) {
    it(`${group || '(core)'}`, () => {
      assert.equal(canonicalGroup(group), svc);
      assert.equal(kubernetesGroup(group), k8s);
      assert.equal(groupSpelling(group), spelling);
      assert.equal(spellGroup(svc, groupSpelling(group)), spelling === undefined ? svc : group);
    });
  }
  it('answers in the spelling of the request', () => {
    const info = resolveRequestInfo({ method: 'GET', url: '/apis/rbac.authorization.k8s.io/v1/clusterroles' });
    assert.ok(info.isResourceRequest);
    const stored = canonicalGroup(info.apiGroup);
    assert.equal(stored, 'rbac.authorization.svc.io');
    assert.equal(spellApiVersion(`${stored}/v1`, groupSpelling(info.apiGroup)), 'rbac.authorization.k8s.io/v1');
  });
  const versions: [string, 'svc.io' | 'k8s.io' | undefined, string][] = [
    ['v1', 'k8s.io', 'v1'],
    ['apps/v1', 'k8s.io', 'apps/v1'],
    ['meta.svc.io/v1', 'k8s.io', 'meta.k8s.io/v1'],
    ['meta.k8s.io/v1', 'svc.io', 'meta.svc.io/v1'],
    ['meta.k8s.io/v1', undefined, 'meta.svc.io/v1'],
    ['apidiscovery.svc.io/v2beta1', 'k8s.io', 'apidiscovery.k8s.io/v2beta1'],
  ];
  for (const [apiVersion, spelling, expected] of versions) {
    it(`spellApiVersion(${apiVersion}, ${String(spelling)})`, () => assert.equal(spellApiVersion(apiVersion, spelling), expected));
  }
});
