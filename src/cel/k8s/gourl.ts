// Go's net/url as Kubernetes' URL library uses it: ParseRequestURI (is it an
// absolute URL or absolute path?), Parse, and the accessors Hostname, Port,
// EscapedPath, Query (ParseQuery), String. Go strings are bytes: the path is
// kept as bytes so that escapes of invalid UTF-8 survive a round trip; other
// parts are decoded as UTF-8 when read.
//
// Errors are Go's texts, wrapped as url.Error: `parse "<input>": <reason>`.

import { goQuote } from '../goquote.js';

const enum Mode {
  Path,
  PathSegment,
  Host,
  Zone,
  UserPassword,
  QueryComponent,
  Fragment,
}

export interface GoUserinfo {
  username: string;
  password?: string;
}

export interface GoURL {
  scheme: string;
  opaque: string;
  user?: GoUserinfo;
  host: string;
  /** The unescaped path, as bytes. */
  path: Uint8Array;
  /** The path as written, when its default escaping would differ. */
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: Uint8Array;
  rawFragment: string;
}

class UrlError {
  constructor(readonly reason: string) {}
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const bytesOf = (s: string): Uint8Array => utf8.encode(s);
const textOf = (b: Uint8Array): string => fromUtf8.decode(b);

const isAlnum = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const unhex = (c: number): number => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);

function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if (mode === Mode.Host || mode === Mode.Zone) {
    switch (c) {
      case 0x21: case 0x24: case 0x26: case 0x27: case 0x28: case 0x29: case 0x2a: case 0x2b: case 0x2c:
      case 0x3b: case 0x3d: case 0x3a: case 0x5b: case 0x5d: case 0x3c: case 0x3e: case 0x22:
        return false;
    }
  }
  switch (c) {
    case 0x2d: case 0x5f: case 0x2e: case 0x7e: // - _ . ~
      return false;
    case 0x24: case 0x26: case 0x2b: case 0x2c: case 0x2f: case 0x3a: case 0x3b: case 0x3d: case 0x3f: case 0x40: // $&+,/:;=?@
      switch (mode) {
        case Mode.Path:
          return c === 0x3f;
        case Mode.PathSegment:
          return c === 0x2f || c === 0x3b || c === 0x2c || c === 0x3f;
        case Mode.UserPassword:
          return c === 0x40 || c === 0x2f || c === 0x3f || c === 0x3a;
        case Mode.QueryComponent:
          return true;
        case Mode.Fragment:
          return false;
      }
  }
  if (mode === Mode.Fragment && (c === 0x21 || c === 0x28 || c === 0x29 || c === 0x2a)) return false;
  return true;
}

/** Go's unescape over the UTF-8 bytes of s. */
function unescapeBytes(s: string, mode: Mode): Uint8Array {
  const b = bytesOf(s);
  let n = 0;
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c === 0x25) {
      n++;
      if (i + 2 >= b.length || !isHex(b[i + 1]!) || !isHex(b[i + 2]!)) {
        throw new UrlError(`invalid URL escape ${goQuote(textOf(b.subarray(i, Math.min(i + 3, b.length))))}`);
      }
      const v = (unhex(b[i + 1]!) << 4) | unhex(b[i + 2]!);
      const is25 = b[i + 1] === 0x32 && b[i + 2] === 0x35;
      if (mode === Mode.Host && unhex(b[i + 1]!) < 8 && !is25) throw new UrlError(`invalid URL escape ${goQuote(textOf(b.subarray(i, i + 3)))}`);
      if (mode === Mode.Zone && !is25 && v !== 0x20 && shouldEscape(v, Mode.Host)) {
        throw new UrlError(`invalid URL escape ${goQuote(textOf(b.subarray(i, i + 3)))}`);
      }
      i += 3;
    } else {
      if ((mode === Mode.Host || mode === Mode.Zone) && c < 0x80 && shouldEscape(c, mode)) {
        throw new UrlError(`invalid character ${goQuote(String.fromCharCode(c))} in host name`);
      }
      i++;
    }
  }
  if (n === 0 && !(mode === Mode.QueryComponent && b.includes(0x2b))) return b;
  const out: number[] = [];
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x25) {
      out.push((unhex(b[i + 1]!) << 4) | unhex(b[i + 2]!));
      i += 2;
    } else if (c === 0x2b && mode === Mode.QueryComponent) out.push(0x20);
    else out.push(c);
  }
  return Uint8Array.from(out);
}

const unescape = (s: string, mode: Mode): string => textOf(unescapeBytes(s, mode));

const HEX = '0123456789ABCDEF';

/** Go's escape over bytes. */
function escapeBytes(b: Uint8Array, mode: Mode): string {
  let out = '';
  for (const c of b) {
    if (shouldEscape(c, mode)) {
      if (c === 0x20 && mode === Mode.QueryComponent) out += '+';
      else out += '%' + HEX[c >> 4]! + HEX[c & 15]!;
    } else out += String.fromCharCode(c);
  }
  return out;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  for (let i = 1; i < port.length; i++) {
    const c = port.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${goQuote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), Mode.Host) + unescape(host.slice(zone, i), Mode.Zone) + unescape(host.slice(i), Mode.Host);
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, Mode.Host);
}

function validUserinfo(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isAlnum(c)) continue;
    if ('-._:~!$&\'()*+,;=%@'.includes(s[i]!)) continue;
    return false;
  }
  return true;
}

function parseAuthority(authority: string): { user?: GoUserinfo; host: string } {
  const i = authority.lastIndexOf('@');
  const host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i < 0) return { host };
  const userinfo = authority.slice(0, i);
  if (!validUserinfo(userinfo)) throw new UrlError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { user: { username: unescape(userinfo, Mode.UserPassword) }, host };
  return {
    user: { username: unescape(userinfo.slice(0, colon), Mode.UserPassword), password: unescape(userinfo.slice(colon + 1), Mode.UserPassword) },
    host,
  };
}

function hasCtl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function emptyUrl(): GoURL {
  return { scheme: '', opaque: '', host: '', path: new Uint8Array(0), rawPath: '', omitHost: false, forceQuery: false, rawQuery: '', fragment: new Uint8Array(0), rawFragment: '' };
}

function parseInner(raw: string, viaRequest: boolean): GoURL {
  if (hasCtl(raw)) throw new UrlError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new UrlError('empty url');
  const u = emptyUrl();
  if (raw === '*') {
    u.path = bytesOf('*');
    return u;
  }
  let rest: string;
  [u.scheme, rest] = getScheme(raw);
  u.scheme = u.scheme.toLowerCase();
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      u.opaque = rest;
      return u;
    }
    if (viaRequest) throw new UrlError('invalid URI for request');
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? rest : rest.slice(0, slash);
    if (segment.includes(':')) throw new UrlError('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    const a = parseAuthority(authority);
    if (a.user) u.user = a.user;
    u.host = a.host;
  } else if (u.scheme !== '' && rest.startsWith('/')) {
    u.omitHost = true;
  }
  u.path = unescapeBytes(rest, Mode.Path);
  u.rawPath = escapeBytes(u.path, Mode.Path) === rest ? '' : rest;
  return u;
}

const wrap = (raw: string, e: unknown): string => {
  if (e instanceof UrlError) return `parse ${goQuote(raw)}: ${e.reason}`;
  throw e;
};

/** url.ParseRequestURI: an absolute URL or an absolute path (no fragment). */
export function parseRequestURI(raw: string): GoURL | string {
  try {
    return parseInner(raw, true);
  } catch (e) {
    return wrap(raw, e);
  }
}

/** url.Parse. */
export function parse(raw: string): GoURL | string {
  const hash = raw.indexOf('#');
  const base = hash < 0 ? raw : raw.slice(0, hash);
  let u: GoURL;
  try {
    u = parseInner(base, false);
  } catch (e) {
    return wrap(base, e);
  }
  if (hash < 0) return u;
  const frag = raw.slice(hash + 1);
  if (frag === '') return u;
  try {
    u.fragment = unescapeBytes(frag, Mode.Fragment);
    u.rawFragment = escapeBytes(u.fragment, Mode.Fragment) === frag ? '' : frag;
  } catch (e) {
    return wrap(raw, e);
  }
  return u;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ('!$&\'()*+,;=:@[]%'.includes(s[i]!)) continue;
    if (c >= 0x80 || shouldEscape(c, mode)) return false;
  }
  return true;
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** u.EscapedPath(). */
export function escapedPath(u: GoURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, Mode.Path)) {
    try {
      if (sameBytes(unescapeBytes(u.rawPath, Mode.Path), u.path)) return u.rawPath;
    } catch {
      // fall through to the default escaping
    }
  }
  if (u.path.length === 1 && u.path[0] === 0x2a) return '*';
  return escapeBytes(u.path, Mode.Path);
}

function escapedFragment(u: GoURL): string {
  if (u.rawFragment !== '' && validEncoded(u.rawFragment, Mode.Fragment)) {
    try {
      if (sameBytes(unescapeBytes(u.rawFragment, Mode.Fragment), u.fragment)) return u.rawFragment;
    } catch {
      // fall through
    }
  }
  return escapeBytes(u.fragment, Mode.Fragment);
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export const hostname = (u: GoURL): string => splitHostPort(u.host)[0];
export const port = (u: GoURL): string => splitHostPort(u.host)[1];

/** u.Query(): url.ParseQuery of the raw query, malformed pairs skipped; keys in first-seen order. */
export function query(u: GoURL): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    let k: string;
    let v: string;
    try {
      k = unescape(eq < 0 ? pair : pair.slice(0, eq), Mode.QueryComponent);
      v = unescape(eq < 0 ? '' : pair.slice(eq + 1), Mode.QueryComponent);
    } catch {
      continue;
    }
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  }
  return m;
}

/** u.String(). */
export function toString(u: GoURL): string {
  let out = '';
  if (u.scheme !== '') out += u.scheme + ':';
  if (u.opaque !== '') out += u.opaque;
  else {
    if (u.scheme !== '' || u.host !== '' || u.user) {
      if (!(u.omitHost && u.host === '' && !u.user)) {
        if (u.host !== '' || u.path.length > 0 || u.user) out += '//';
        if (u.user) {
          out += escapeBytes(bytesOf(u.user.username), Mode.UserPassword);
          if (u.user.password !== undefined) out += ':' + escapeBytes(bytesOf(u.user.password), Mode.UserPassword);
          out += '@';
        }
        if (u.host !== '') out += escapeBytes(bytesOf(u.host), Mode.Host);
      }
    }
    const p = escapedPath(u);
    if (p !== '' && p[0] !== '/' && u.host !== '') out += '/';
    if (out === '') {
      const slash = p.indexOf('/');
      if ((slash < 0 ? p : p.slice(0, slash)).includes(':')) out += './';
    }
    out += p;
  }
  if (u.forceQuery || u.rawQuery !== '') out += '?' + u.rawQuery;
  if (u.fragment.length > 0) out += '#' + escapedFragment(u);
  return out;
}
