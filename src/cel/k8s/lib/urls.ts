// Kubernetes' URL library (apiserver/pkg/cel/library/urls.go, cel/url.go):
//   isURL(<string>)         whether Go's url.ParseRequestURI accepts it (an
//                           absolute URL, or an absolute path)
//   url(<string>)           a kubernetes.URL, or `URL parse error during
//                           conversion from string: parse "…": <reason>`
//   <URL>.getScheme() getHost() getHostname() getPort() getEscapedPath()
//   <URL>.getQuery()        map(string, list(string))
// Accessors answer as Go's url.URL does (Host with the port, Hostname without
// IPv6 brackets, EscapedPath, Query with malformed pairs skipped).

import type { FunctionDecl, Library, OverloadImpl } from '../../decls.js';
import type { Type } from '../../types.js';
import { T, listOf, mapOf, opaque } from '../../types.js';
import { CelError, CelMap } from '../../values.js';
import { errNoSuchOverload } from '../../runtime/errors.js';
import { celMapInsert } from '../../runtime/maps.js';
import * as gourl from '../gourl.js';

export const URL_TYPE = opaque('kubernetes.URL');

/** A kubernetes.URL value. Equal when their Go String() forms are equal. */
export class URLValue {
  readonly celTypeName = 'kubernetes.URL';
  constructor(readonly url: gourl.GoURL) {}
  toString(): string {
    return gourl.toString(this.url);
  }
  equals(other: unknown): boolean {
    return other instanceof URLValue && this.toString() === other.toString();
  }
}

function stringToUrl(s: unknown): URLValue {
  if (typeof s !== 'string') throw errNoSuchOverload;
  const checked = gourl.parseRequestURI(s);
  if (typeof checked === 'string') throw new CelError(`URL parse error during conversion from string: ${checked}`);
  const u = gourl.parse(s);
  if (typeof u === 'string') throw new CelError(`URL parse error during conversion from string: ${u}`);
  return new URLValue(u);
}

const isURL = (s: unknown): boolean => {
  if (typeof s !== 'string') throw errNoSuchOverload;
  return typeof gourl.parseRequestURI(s) !== 'string';
};

const accessor = (get: (u: gourl.GoURL) => unknown) => (v: unknown): unknown => {
  if (!(v instanceof URLValue)) throw errNoSuchOverload;
  return get(v.url);
};

function getQuery(u: gourl.GoURL): CelMap {
  const m = new CelMap();
  for (const [k, v] of gourl.query(u)) celMapInsert(m, k, v);
  return m;
}

const member = (name: string, id: string, result: Type = T.string): FunctionDecl => ({
  name,
  overloads: [{ id, params: [URL_TYPE], result, receiver: true }],
});

const functions: FunctionDecl[] = [
  { name: 'url', overloads: [{ id: 'string_to_url', params: [T.string], result: URL_TYPE, receiver: false }] },
  member('getScheme', 'url_get_scheme'),
  member('getHost', 'url_get_host'),
  member('getHostname', 'url_get_hostname'),
  member('getPort', 'url_get_port'),
  member('getEscapedPath', 'url_get_escaped_path'),
  member('getQuery', 'url_get_query', mapOf(T.string, listOf(T.string))),
  { name: 'isURL', overloads: [{ id: 'is_url_string', params: [T.string], result: T.bool, receiver: false }] },
];

const impls: OverloadImpl[] = [
  { id: 'string_to_url', unary: stringToUrl },
  { id: 'url_get_scheme', unary: accessor((u) => u.scheme) },
  { id: 'url_get_host', unary: accessor((u) => u.host) },
  { id: 'url_get_hostname', unary: accessor(gourl.hostname) },
  { id: 'url_get_port', unary: accessor(gourl.port) },
  { id: 'url_get_escaped_path', unary: accessor(gourl.escapedPath) },
  { id: 'url_get_query', unary: accessor(getQuery) },
  { id: 'is_url_string', unary: isURL },
];

export const urlsLibrary: Library = { name: 'k8s.urls', functions, impls };
