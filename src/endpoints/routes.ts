// Which (method, path) pairs under a served group-version have a route: the
// one place that decides it, from the catalogue (scope, verbs, subresources),
// with the routes Kubernetes' API installer registers for each resource and
// go-restful's matching rules:
//
//   cluster-scoped R                      namespaced R
//   R                LIST POST DELCOLL    namespaces/{ns}/R              LIST POST DELCOLL
//   watch/R          WATCHLIST            watch/namespaces/{ns}/R        WATCHLIST
//   R/{name}         GET PUT PATCH DELETE namespaces/{ns}/R/{name}       GET PUT PATCH DELETE
//   watch/R/{name}   WATCH                watch/namespaces/{ns}/R/{name} WATCH
//   R/{name}/S       the subresource's    namespaces/{ns}/R/{name}/S     the subresource's
//   R/{name}/S/{path:*}  proxies only     namespaces/{ns}/R/{name}/S/{path:*}
//                                         R, watch/R   LIST and WATCHLIST across namespaces
//
// A route exists only for what the resource can do: LIST for `list`, POST
// for `create`, WATCHLIST for `list` and `watch`, WATCH for `watch`, an item
// path only when one of get/update/patch/delete is there. A subresource's
// POST (eviction, binding, token) is on its item path. Connecters (exec,
// attach, portforward, proxy) take their verbs' methods; proxies also HEAD
// and OPTIONS, and a sub-path after them.
//
// Matching is go-restful's: the path's segments (trailing slashes trimmed)
// must match a template segment for segment, `{param}` matching any one
// segment and `{path:*}` the rest; no template matching the path is 404, a
// template matching the path but not the method is 405. Methods are compared
// exactly, so HEAD and OPTIONS have no route except on a proxy.
import type { ServedResource, ServedSubresource } from '../registry/registry.js';
import type { ResourceRequestInfo } from './requestinfo.js';

export interface Route {
  readonly resource: ServedResource;
  /** Set on a subresource's route. */
  readonly subresource?: ServedSubresource;
  /** `namespace`: under namespaces/{ns}/; `cluster`: a cluster-scoped resource; `all`: a namespaced resource across namespaces. */
  readonly scope: 'namespace' | 'cluster' | 'all';
  /** The collection (R), an object (R/{name}) or a subresource of one (R/{name}/S[/{path}]). */
  readonly target: 'collection' | 'object' | 'subresource';
  /** Reached through the deprecated `watch/` prefix (a WATCH or WATCHLIST route). */
  readonly watchPrefix: boolean;
  /** HTTP methods the route answers. */
  readonly methods: ReadonlySet<string>;
}

/** A route for the request, or the status Kubernetes answers when there is none. */
export type RouteMatch = { readonly route: Route; readonly status?: undefined } | { readonly route?: undefined; readonly status: 404 | 405 };

/** The resources of the group-version a request names, by resource name (plural). */
export type ResourceLookup = (resource: string) => ServedResource | undefined;

const VERB_METHODS: Readonly<Record<string, string>> = { get: 'GET', list: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE' };
/** What a proxy answers besides its verbs' methods (Kubernetes' proxy REST passes every method on). */
const PROXY_EXTRA_METHODS = ['HEAD', 'OPTIONS'];

/** Connecters stream or upgrade rather than store (exec, attach, portforward, proxy). */
export function isConnecter(s: ServedSubresource): boolean {
  return s.connect === true || /Options$/.test(s.kind);
}

/** A connecter that takes a sub-path after its name (…/proxy/{path:*}) and every method. */
function isProxy(s: ServedSubresource): boolean {
  return isConnecter(s) && s.name === 'proxy';
}

/** The path segments after `/api/{version}` or `/apis/{group}/{version}`, trailing slashes trimmed (as go-restful tokenizes). */
export function routeSegments(info: Pick<ResourceRequestInfo, 'path' | 'apiPrefix'>): string[] {
  const trimmed = info.path.replace(/^\/+|\/+$/g, '');
  const all = trimmed === '' ? [] : trimmed.split('/');
  return all.slice(info.apiPrefix === 'api' ? 2 : 3);
}

/** Every route whose path template matches `segments` (whatever its methods). */
export function routesMatching(segments: readonly string[], lookup: ResourceLookup): Route[] {
  const out: Route[] = [];
  let rest = segments;
  const watchPrefix = rest[0] === 'watch';
  if (watchPrefix) rest = rest.slice(1);
  if (rest.length === 0) return out;
  // R[/…]: a cluster-scoped resource, or a namespaced one across namespaces.
  const first = lookup(rest[0]!);
  if (first) shapes(first, rest.slice(1), first.namespaced ? 'all' : 'cluster', watchPrefix, out);
  // namespaces/{ns}/R[/…]: a namespaced resource in a namespace.
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const inNamespace = lookup(rest[2]!);
    if (inNamespace?.namespaced) shapes(inNamespace, rest.slice(3), 'namespace', watchPrefix, out);
  }
  return out;
}

/** The routes of `r` matching the segments after its name in the path (`after`: [], [name], [name, sub, …]). */
function shapes(r: ServedResource, after: readonly string[], scope: Route['scope'], watchPrefix: boolean, out: Route[]): void {
  const verbs = new Set(r.verbs);
  const add = (target: Route['target'], methods: Iterable<string>, subresource?: ServedSubresource) => {
    const set = new Set(methods);
    if (set.size > 0) out.push({ resource: r, scope, target, watchPrefix, methods: set, ...(subresource ? { subresource } : {}) });
  };
  if (after.length === 0) {
    if (watchPrefix) add('collection', verbs.has('list') && verbs.has('watch') ? ['GET'] : []);
    else if (scope === 'all') add('collection', verbs.has('list') ? ['GET'] : []);
    else add('collection', methodsOf(r.verbs, ['list', 'create', 'deletecollection']));
    return;
  }
  if (scope === 'all') return; // across namespaces there is only the collection
  if (after.length === 1) {
    if (watchPrefix) add('object', verbs.has('watch') ? ['GET'] : []);
    else add('object', methodsOf(r.verbs, ['get', 'update', 'patch', 'delete']));
    return;
  }
  if (watchPrefix) return; // no subresource lists and watches
  const sub = r.subresources.find((s) => s.name === after[1]);
  if (!sub) return;
  if (after.length === 2) {
    add('subresource', [...methodsOf(sub.verbs, ['get', 'list', 'create', 'update', 'patch', 'delete']), ...(isProxy(sub) ? PROXY_EXTRA_METHODS : [])], sub);
  } else if (isProxy(sub)) {
    add('subresource', [...methodsOf(sub.verbs, ['get', 'create', 'update', 'patch', 'delete']), ...PROXY_EXTRA_METHODS], sub);
  }
}

/** HTTP methods of the verbs among `routeVerbs` the resource has; DELETE of `deletecollection` on a collection. */
function methodsOf(have: readonly string[], routeVerbs: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of routeVerbs) {
    if (!have.includes(v)) continue;
    const m = v === 'deletecollection' ? 'DELETE' : VERB_METHODS[v];
    if (m !== undefined && !out.includes(m)) out.push(m);
  }
  return out;
}

/** The route a request takes: 404 when no template matches its path, 405 when none that does takes its method. */
export function matchRoute(method: string, segments: readonly string[], lookup: ResourceLookup): RouteMatch {
  const matching = routesMatching(segments, lookup);
  if (matching.length === 0) return { status: 404 };
  const route = matching.find((r) => r.methods.has(method));
  return route ? { route } : { status: 405 };
}
