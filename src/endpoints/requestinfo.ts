// Request info: turns a request's method, path and query into the attributes
// every later stage keys on (verb, API group and version, namespace, resource,
// subresource, name), with the same grammar and verb rules as Kubernetes'
// apiserver (request/requestinfo.go):
//
//   /api/{version}/...                 core group ("api" is the groupless prefix)
//   /apis/{group}/{version}/...        named groups
//   .../{watch|proxy}/...              deprecated verb prefixes
//   .../namespaces/{ns}/{resource}/{name}/{subresource}/...
//   .../namespaces/{ns}[/status|/finalize]   the namespace object itself
//
// Everything else (/healthz, /version, /openapi/v2, discovery at /api,
// /api/v1, /apis, /apis/{group}, /apis/{group}/{version}) is a non-resource
// request whose verb is the lowercase HTTP method.
//
// The svc.io / k8s.io group spelling helpers live here too: the group is first
// seen in the path, and the rest of the server stores the svc.io spelling and
// answers in the spelling of the request.

/** Verbs of resource requests; '' for an HTTP method with no API verb. */
export type ResourceVerb =
  | 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'proxy' | '';

export interface ResourceRequestInfo {
  readonly isResourceRequest: true;
  /** The decoded URL path. */
  readonly path: string;
  readonly verb: ResourceVerb;
  readonly apiPrefix: 'api' | 'apis';
  /** '' for the core group; otherwise as spelled in the request (see canonicalGroup). */
  readonly apiGroup: string;
  readonly apiVersion: string;
  /** '' for cluster-scoped requests; the namespace's own name for /namespaces/{ns}. */
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  /** From the path, or from a `metadata.name=` field selector on list and watch. */
  readonly name: string;
  /** Path segments from the resource on: resource/name/subresource/... */
  readonly parts: readonly string[];
}

export interface NonResourceRequestInfo {
  readonly isResourceRequest: false;
  readonly path: string;
  /** The lowercase HTTP method. */
  readonly verb: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

/** What is read from a request; node's IncomingMessage and Http2ServerRequest fit. */
export interface RequestLine {
  readonly method?: string | undefined;
  /** The request target: a path with an optional query (absolute form is accepted). */
  readonly url?: string | undefined;
}

/** A request target that cannot be classified; the edge answers it with an error. */
export class RequestInfoError extends Error {
  override readonly name = 'RequestInfoError';
}

const VERB_PREFIXES = new Set(['watch', 'proxy']);
/** Path verbs whose third part is not a subresource. */
const VERBS_WITHOUT_SUBRESOURCES = new Set(['proxy']);
/** Subresources of a namespace, told apart from resources inside the namespace. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const METHOD_VERBS: Readonly<Record<string, ResourceVerb>> = {
  GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete',
};

export function resolveRequestInfo(req: RequestLine): RequestInfo {
  const method = req.method ?? 'GET';
  const { path, query } = splitTarget(req.url ?? '/');
  const nonResource: NonResourceRequestInfo = { isResourceRequest: false, path, verb: method.toLowerCase() };

  const segments = splitPath(path);
  const apiPrefix = segments[0];
  if (segments.length < 3 || (apiPrefix !== 'api' && apiPrefix !== 'apis')) return nonResource;
  let rest = segments.slice(1);
  let apiGroup = '';
  if (apiPrefix === 'apis') {
    if (rest.length < 3) return nonResource; // /apis/{group}/{version} is discovery
    apiGroup = rest[0]!;
    rest = rest.slice(1);
  }
  const apiVersion = rest[0]!;
  rest = rest.slice(1);

  let verb: ResourceVerb;
  if (VERB_PREFIXES.has(rest[0]!)) {
    if (rest.length < 2) throw new RequestInfoError(`unable to determine kind and namespace from url ${req.url ?? ''}`);
    verb = rest[0] as ResourceVerb;
    rest = rest.slice(1);
  } else {
    verb = METHOD_VERBS[method] ?? '';
  }

  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    // /namespaces/{ns}/{resource}/... : the parts start at the resource
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
  }

  const parts = rest;
  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource = VERBS_WITHOUT_SUBRESOURCES.has(verb) ? '' : parts[2] ?? '';

  if (name === '' && verb === 'get') {
    verb = queryBool(query, 'watch') ? 'watch' : 'list';
    name = nameFromListQuery(query);
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  return { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts };
}

/**
 * A boolean query parameter as Kubernetes reads it: absent is false; otherwise
 * the first value is false only when it is "0" or "false" in any case, and true
 * for anything else, including "", "1", "t", "True", "TRUE" (python sends "True").
 */
export function queryBool(query: URLSearchParams, key: string): boolean {
  const first = query.getAll(key)[0];
  if (first === undefined) return false;
  return first !== '0' && first.toLowerCase() !== 'false';
}

function splitTarget(target: string): { path: string; query: URLSearchParams } {
  let rest = target;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const rawPath = q >= 0 ? rest.slice(0, q) : rest;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    throw new RequestInfoError(`invalid URL escape in path ${JSON.stringify(rawPath)}`);
  }
  return { path: path === '' ? '/' : path, query: new URLSearchParams(q >= 0 ? rest.slice(q + 1) : '') };
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

/**
 * The name a list or watch is narrowed to by `fieldSelector=metadata.name=x`.
 * As in Kubernetes, a query that does not decode as list options names nothing.
 * (Label selectors are not parsed here, so a bad one does not count.)
 */
function nameFromListQuery(query: URLSearchParams): string {
  for (const key of ['limit', 'timeoutSeconds']) {
    const v = query.getAll(key)[0];
    if (v !== undefined && !isInt64(v)) return '';
  }
  const selector = query.getAll('fieldSelector')[0];
  if (selector === undefined) return '';
  const name = exactFieldMatch(selector, 'metadata.name');
  return name !== undefined && isValidPathSegmentName(name) ? name : '';
}

function isInt64(s: string): boolean {
  if (!/^[+-]?\d+$/.test(s)) return false;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n;
}

function isValidPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/**
 * The value a field selector requires `field` to equal, if any; undefined also
 * when the selector does not parse. Terms are split on unescaped commas and
 * sorted (so the first of two `field=` terms in sort order wins, as in
 * Kubernetes); operators are `!=`, `==` and `=`, first occurrence wins; values
 * may escape `\`, `,` and `=` with a backslash.
 */
export function exactFieldMatch(selector: string, field: string): string | undefined {
  let found: string | undefined;
  for (const term of splitTerms(selector).sort()) {
    if (term === '') continue;
    const op = /!=|==|=/.exec(term);
    if (!op) return undefined;
    const value = unescapeFieldValue(term.slice(op.index + op[0].length));
    if (value === undefined) return undefined;
    if (found === undefined && op[0] !== '!=' && term.slice(0, op.index) === field) found = value;
  }
  return found;
}

function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    if (selector[i] === '\\') i++;
    else if (selector[i] === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

function unescapeFieldValue(raw: string): string | undefined {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === ',' || c === '=') return undefined;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = raw[++i];
    if (next !== '\\' && next !== ',' && next !== '=') return undefined;
    out += next;
  }
  return out;
}

// ---- svc.io / k8s.io group spellings ----

/** The API domain a group is spelled in; undefined for groups with neither (apps, batch, example.com). */
export type GroupSpelling = 'svc.io' | 'k8s.io';

function respell(group: string, from: GroupSpelling, to: GroupSpelling): string {
  if (group === from) return to;
  return group.endsWith(`.${from}`) ? group.slice(0, group.length - from.length) + to : group;
}

/** The stored (svc.io) spelling: `rbac.authorization.k8s.io` → `rbac.authorization.svc.io`; others unchanged. */
export function canonicalGroup(group: string): string {
  return respell(group, 'k8s.io', 'svc.io');
}

/** The Kubernetes (k8s.io) spelling: `rbac.authorization.svc.io` → `rbac.authorization.k8s.io`; others unchanged. */
export function kubernetesGroup(group: string): string {
  return respell(group, 'svc.io', 'k8s.io');
}

/** Which domain a group is spelled in, matched on whole DNS labels (`cluster.x-k8s.io` is neither). */
export function groupSpelling(group: string): GroupSpelling | undefined {
  if (canonicalGroup(group) !== group) return 'k8s.io';
  if (kubernetesGroup(group) !== group) return 'svc.io';
  return undefined;
}

/** A group in the given spelling; with no spelling (a neutral request group), the stored svc.io one. */
export function spellGroup(group: string, spelling: GroupSpelling | undefined): string {
  return spelling === 'k8s.io' ? kubernetesGroup(group) : canonicalGroup(group);
}

/** An apiVersion (`group/version` or a core `version`) with its group in the given spelling. */
export function spellApiVersion(apiVersion: string, spelling: GroupSpelling | undefined): string {
  const slash = apiVersion.lastIndexOf('/');
  if (slash < 0) return apiVersion;
  return `${spellGroup(apiVersion.slice(0, slash), spelling)}${apiVersion.slice(slash)}`;
}
