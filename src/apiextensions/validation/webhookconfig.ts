// k8s.io/apiserver pkg/util/webhook validation (ValidateWebhookURL,
// ValidateWebhookService) as a CRD's conversion webhook uses it, over a model
// of Go's net/url.Parse: what it refuses (with Go's error text) and how it
// splits scheme, user information, host, query and fragment.
import { type FieldError, type FieldPath, invalid, required } from '../../api/meta/field.js';
import { portNumErrors } from '../../api/meta/checks.js';
import { dns1123SubdomainErrors } from '../../api/meta/validation.js';
import { goQuote } from '../../cel/goquote.js';

interface GoURL {
  scheme: string;
  user?: string;
  host: string;
  rawQuery: string;
  fragment: string;
}

/** net/url.Parse: the parts kube looks at, or Go's error text. */
export function parseGoURL(raw: string): GoURL | { error: string } {
  const fail = (why: string) => ({ error: `parse ${goQuote(raw)}: ${why}` });
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return fail('net/url: invalid control character in URL');
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (rest.startsWith(':')) return fail('missing protocol scheme');
  let rawQuery = '';
  const qm = rest.indexOf('?');
  if (qm >= 0) {
    rawQuery = rest.slice(qm + 1);
    rest = rest.slice(0, qm);
  }
  if (!rest.startsWith('/') && scheme !== '') return { scheme, host: '', rawQuery, fragment }; // opaque
  if (scheme === '' && !rest.startsWith('/')) {
    const seg = rest.split('/')[0]!;
    if (seg.includes(':')) return fail('first path segment in URL cannot contain colon');
  }
  if (!rest.startsWith('//')) return { scheme, host: '', rawQuery, fragment };
  const authEnd = rest.indexOf('/', 2);
  const authority = authEnd < 0 ? rest.slice(2) : rest.slice(2, authEnd);
  const at = authority.lastIndexOf('@');
  const user = at >= 0 ? authority.slice(0, at) : undefined;
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return fail("missing ']' in host");
    const port = host.slice(close + 1);
    if (port && !/^:\d*$/.test(port)) return fail(`invalid port ${goQuote(port)} after host`);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !/^\d*$/.test(host.slice(colon + 1))) return fail(`invalid port ${goQuote(host.slice(colon))} after host`);
  }
  return { scheme, user, host, rawQuery, fragment };
}

const URL_FORM = '; desired format: https://host[/path]';

/** ValidateWebhookURL. */
export function validateWebhookURL(path: FieldPath, url: string, forceHttps: boolean): FieldError[] {
  const u = parseGoURL(url);
  if ('error' in u) return [required(path, `url must be a valid URL: ${u.error}${URL_FORM}`)];
  const errs: FieldError[] = [];
  if (forceHttps && u.scheme !== 'https') errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (!u.host) errs.push(invalid(path, u.host, `host must be specified${URL_FORM}`));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery) errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

export interface WebhookService {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

/** ValidateWebhookService (port defaulted to 443 by v1 defaults). */
export function validateWebhookService(path: FieldPath, svc: WebhookService): FieldError[] {
  const errs: FieldError[] = [];
  if (!svc.name) errs.push(required(path.child('name'), 'service name is required'));
  if (!svc.namespace) errs.push(required(path.child('namespace'), 'service namespace is required'));
  const port = svc.port ?? 443;
  const pe = portNumErrors(port);
  if (pe.length) errs.push(invalid(path.child('port'), port, `port is not valid: ${pe.join(', ')}`));
  const p = svc.path;
  if (p === undefined || p === null || p === '/' || p === '') return errs;
  const pp = path.child('path');
  if (p === '//') return [...errs, invalid(pp, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(invalid(pp, p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) errs.push(invalid(pp, p, `segment[${i}] may not be empty`));
    else for (const f of dns1123SubdomainErrors(step)) errs.push(invalid(pp, p, `segment[${i}]: ${f}`));
  });
  return errs;
}
