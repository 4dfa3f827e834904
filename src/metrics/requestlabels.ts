// The label values kube-apiserver v1.27 reports for a request
// (endpoints/metrics: CanonicalVerb, CleanVerb, CleanScope, cleanDryRun).
//
//   verb   the HTTP method made canonical: GET on a collection is LIST, a watch
//          is WATCH, an apply patch is APPLY, the streaming subresources are
//          CONNECT; any other method is "other" (bounded values)
//   scope  "resource" (a name, or a create), "namespace", "cluster", or "" for
//          non-resource requests
//   dry_run "" when absent, "All" when every value is All, else "invalid"
import type { RequestInfo } from '../endpoints/requestinfo.js';

const VALID_VERBS = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

/** kube's CleanScope. */
export function requestScope(info: RequestInfo): string {
  if (!info.isResourceRequest) return '';
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return 'cluster';
}

/** The reported verb: CanonicalVerb then cleanVerb, as kube's MonitorRequest computes it. */
export function reportedVerb(method: string | undefined, info: RequestInfo, scope: string, contentType: string | undefined): string {
  const m = method === undefined ? 'GET' : method.toUpperCase();
  if (info.isResourceRequest && info.verb === 'watch') return 'WATCH';
  let verb = m === 'GET' || m === 'HEAD' ? (scope !== 'resource' && scope !== '' ? 'LIST' : 'GET') : m;
  if (verb === 'PATCH' && contentType === APPLY_CONTENT_TYPE) verb = 'APPLY';
  if (info.isResourceRequest && info.subresource !== '' && CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  return VALID_VERBS.has(verb) ? verb : 'other';
}

/** kube's cleanDryRun over the raw query (the common case, no dryRun, costs one search). */
export function dryRunLabel(search: string, params: URLSearchParams): string {
  if (!search.includes('dryRun')) return '';
  const values = params.getAll('dryRun');
  if (values.length === 0) return '';
  for (const v of values) if (v !== 'All') return 'invalid';
  return 'All';
}

/** Whether the request changes state (kube's maxinflight: every verb but get, list and watch, non-resource HEAD included). */
export function isMutating(info: RequestInfo): boolean {
  return info.verb !== 'get' && info.verb !== 'list' && info.verb !== 'watch';
}
