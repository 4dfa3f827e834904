// Table tests for routes: for each (method, path), the route Kubernetes'
// installer registers for it — or 404 when no route matches the path, 405
// when routes match the path but none takes the method. Resources come from
// the real catalogue (the default enablement).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { enabledByDefaultResources } from '../api/catalog/index.js';
import { canonicalGroup, resolveRequestInfo } from './requestinfo.js';
import { matchRoute, routeSegments, type Route } from './routes.js';

/** `resource[/sub] scope target[ watch]`, e.g. `configmaps namespace collection`. */
function describeRoute(r: Route): string {
  const sub = r.subresource ? `/${r.subresource.name}` : '';
  return `${r.resource.resource}${sub} ${r.scope} ${r.target}${r.watchPrefix ? ' watch' : ''}`;
}

function route(method: string, url: string): string | number {
  const info = resolveRequestInfo({ method, url });
  assert.ok(info.isResourceRequest, `${url} is a resource request`);
  const served = enabledByDefaultResources().filter((r) => r.group === canonicalGroup(info.apiGroup) && r.version === info.apiVersion);
  const m = matchRoute(method, routeSegments(info), (resource) => served.find((r) => r.resource === resource));
  return m.route ? describeRoute(m.route) : m.status;
}

const NS = '/api/v1/namespaces/ns';

// [method, path, the route or the status, the Kubernetes behaviour the row pins]
const rows: [string, string, string | 404 | 405, string][] = [
  // a namespaced resource in a namespace
  ['GET', `${NS}/configmaps`, 'configmaps namespace collection', 'LIST'],
  ['POST', `${NS}/configmaps`, 'configmaps namespace collection', 'POST'],
  ['DELETE', `${NS}/configmaps`, 'configmaps namespace collection', 'DELETECOLLECTION'],
  ['PUT', `${NS}/configmaps`, 405, 'no PUT on a collection (golden errors-06 put-on-collection)'],
  ['PATCH', `${NS}/configmaps`, 405, 'no PATCH on a collection (golden errors-06 patch-collection)'],
  ['GET', `${NS}/configmaps/`, 'configmaps namespace collection', 'a trailing slash is trimmed (go-restful 3.9)'],
  ['GET', `${NS}/configmaps/c`, 'configmaps namespace object', 'GET'],
  ['PUT', `${NS}/configmaps/c`, 'configmaps namespace object', 'PUT'],
  ['PATCH', `${NS}/configmaps/c`, 'configmaps namespace object', 'PATCH'],
  ['DELETE', `${NS}/configmaps/c`, 'configmaps namespace object', 'DELETE'],
  ['POST', `${NS}/configmaps/c`, 405, 'no POST on an object (golden errors-06 post-to-object)'],
  ['HEAD', `${NS}/configmaps/c`, 405, 'methods are matched exactly: no HEAD route'],
  ['OPTIONS', `${NS}/configmaps`, 405, 'no OPTIONS route'],
  ['GET', `${NS}/configmaps/c/status`, 404, 'no such subresource (golden errors-01 get-unknown-subresource)'],
  ['GET', `${NS}/configmaps/c/x/y`, 404, 'too many segments'],
  ['GET', `${NS}/widgets`, 404, 'unknown resource (golden errors-01 get-unknown-resource)'],
  // across namespaces: only LIST and WATCHLIST
  ['GET', '/api/v1/configmaps', 'configmaps all collection', 'LIST across namespaces'],
  ['POST', '/api/v1/configmaps', 405, 'the all-namespaces path has no POST'],
  ['DELETE', '/api/v1/configmaps', 405, 'the all-namespaces path has no DELETECOLLECTION'],
  ['GET', '/api/v1/configmaps/c', 404, 'no object route without a namespace'],
  ['GET', '/api/v1/watch/configmaps', 'configmaps all collection watch', 'WATCHLIST across namespaces'],
  ['GET', '/api/v1/watch/configmaps/c', 404, 'no WATCH of one object without a namespace'],
  // the deprecated watch paths
  ['GET', '/api/v1/watch/namespaces/ns/configmaps', 'configmaps namespace collection watch', 'WATCHLIST'],
  ['GET', '/api/v1/watch/namespaces/ns/configmaps/c', 'configmaps namespace object watch', 'WATCH'],
  ['POST', '/api/v1/watch/namespaces/ns/configmaps', 405, 'watch routes are GET only'],
  ['GET', '/api/v1/watch/namespaces/ns/pods/p/status', 404, 'no watch of a subresource'],
  ['GET', '/api/v1/proxy/namespaces/ns/pods/p', 404, 'the deprecated proxy/ paths are not routed'],
  // cluster-scoped resources have no namespaced routes
  ['GET', '/api/v1/nodes', 'nodes cluster collection', 'LIST'],
  ['GET', '/api/v1/nodes/n', 'nodes cluster object', 'GET'],
  ['GET', '/api/v1/watch/nodes/n', 'nodes cluster object watch', 'WATCH'],
  ['GET', `${NS}/nodes`, 404, 'cluster-scoped: no namespaced collection'],
  ['GET', `${NS}/nodes/n`, 404, 'cluster-scoped: no namespaced object'],
  ['GET', '/api/v1/nodes/n/proxy/metrics', 'nodes/proxy cluster subresource', 'CONNECT with a sub-path'],
  // namespaces: cluster-scoped, with status and finalize
  ['GET', '/api/v1/namespaces', 'namespaces cluster collection', 'LIST'],
  ['POST', '/api/v1/namespaces', 'namespaces cluster collection', 'POST'],
  ['DELETE', '/api/v1/namespaces', 405, 'namespaces have no deletecollection'],
  ['GET', '/api/v1/namespaces/ns', 'namespaces cluster object', 'GET'],
  ['POST', '/api/v1/namespaces/ns', 405, 'no POST on an object'],
  ['GET', '/api/v1/namespaces/ns/status', 'namespaces/status cluster subresource', 'GET status'],
  ['PUT', '/api/v1/namespaces/ns/finalize', 'namespaces/finalize cluster subresource', 'PUT finalize'],
  ['GET', '/api/v1/namespaces/ns/finalize', 405, 'finalize is PUT only'],
  ['GET', '/api/v1/namespaces/ns/nodes', 404, 'not a namespace subresource, not a namespaced resource'],
  // subresources
  ['POST', `${NS}/pods/p/status`, 405, 'status takes GET, PUT, PATCH'],
  ['PUT', `${NS}/pods/p/status`, 'pods/status namespace subresource', 'PUT status'],
  ['GET', `${NS}/pods/p/status/extra`, 404, 'nothing after a subresource that is not a proxy'],
  ['POST', `${NS}/pods/p/eviction`, 'pods/eviction namespace subresource', "a subresource's POST is on its object path"],
  ['GET', `${NS}/pods/p/eviction`, 405, 'eviction is create only'],
  ['GET', `${NS}/pods/p/log`, 'pods/log namespace subresource', 'GET log'],
  ['GET', `${NS}/pods/p/log/extra`, 404, 'log takes no sub-path'],
  ['POST', `${NS}/pods/p/exec`, 'pods/exec namespace subresource', 'CONNECT (POST)'],
  ['PUT', `${NS}/pods/p/exec`, 405, 'exec connects with GET and POST only'],
  ['HEAD', `${NS}/pods/p/proxy/a/b`, 'pods/proxy namespace subresource', 'a proxy passes HEAD on'],
  ['OPTIONS', `${NS}/pods/p/proxy`, 'pods/proxy namespace subresource', 'a proxy passes OPTIONS on'],
  ['GET', '/apis/apps/v1/namespaces/ns/deployments/d/scale', 'deployments/scale namespace subresource', 'GET scale'],
  ['POST', '/apis/apps/v1/namespaces/ns/deployments/d/scale', 405, 'scale takes GET, PUT, PATCH'],
  // create-only and read-only resources
  ['GET', `${NS}/bindings`, 405, 'bindings are create only (golden errors-06 get-bindings)'],
  ['POST', `${NS}/bindings`, 'bindings namespace collection', 'POST'],
  ['GET', '/api/v1/bindings', 404, 'not a lister: no all-namespaces route'],
  ['GET', `${NS}/bindings/b`, 404, 'no object verbs: no object route'],
  ['POST', '/apis/authentication.k8s.io/v1/tokenreviews', 'tokenreviews cluster collection', 'POST'],
  ['GET', '/apis/authentication.k8s.io/v1/tokenreviews', 405, 'create only'],
  ['GET', '/apis/authentication.k8s.io/v1/tokenreviews/t', 404, 'no object route'],
  ['DELETE', '/api/v1/componentstatuses', 405, 'get and list only'],
  ['GET', '/api/v1/watch/componentstatuses', 404, 'not a watcher: no WATCHLIST route'],
  // named groups
  ['GET', '/apis/apps/v1/namespaces/ns', 404, 'no resource named (namespaces are core only)'],
  ['GET', '/apis/apps/v1/namespaces', 404, 'no resource named'],
  ['GET', '/apis/apps/v1/deployments', 'deployments all collection', 'LIST across namespaces'],
  ['GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/r', 'clusterroles cluster object', 'either group spelling'],
  ['GET', '/apis/apps/v7/namespaces/ns/deployments', 404, 'unknown version of a known group'],
];

describe('routes', () => {
  for (const [method, path, want, why] of rows) {
    it(`${method} ${path} → ${want} (${why})`, () => assert.equal(route(method, path), want));
  }
});
