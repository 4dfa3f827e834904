// Bootstrap tokens (--enable-bootstrap-token-auth): a bearer token
// `<id>.<secret>` ([a-z0-9]{6}.[a-z0-9]{16}) is checked against the Secret
// `bootstrap-token-<id>` in svc-system, of type bootstrap.svc.io/token (or the
// bootstrap.kubernetes.io/token spelling kubeadm-era tools write):
//
//   data.token-id                        must equal <id>
//   data.token-secret                    must equal <secret> (constant-time comparison)
//   data.expiration                      RFC 3339; past (or unparseable) → not accepted
//   data.usage-bootstrap-authentication  must be "true"
//   data.auth-extra-groups               comma-separated; each must match
//                                        system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]
//
// A match is user system:bootstrap:<id> with groups system:bootstrappers plus
// the extra groups (sorted, without repeats, as kube answers). Anything else —
// no such Secret, one being deleted, wrong type, wrong secret, expired, usage
// off, a bad group — is "not this authenticator's token" (null), so the union
// answers the usual "invalid bearer token" 401. Secrets are read from the
// watch cache (kube reads an informer's lister), not storage, per request.
import { timingSafeEqual } from 'node:crypto';
import { bearerToken, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { encodeTime } from '../protobuf/time.js';
import { isObject, type ApiObject } from '../registry/object.js';

export const BOOTSTRAP_NAMESPACE = 'svc-system';
export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_SECRET_TYPES: readonly string[] = ['bootstrap.svc.io/token', 'bootstrap.kubernetes.io/token'];
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_GROUP = 'system:bootstrappers';
const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** Reads a Secret of svc-system by name; undefined when there is none. */
export type SecretLookup = (name: string) => Promise<ApiObject | undefined>;

export class BootstrapTokenAuthenticator implements Authenticator {
  readonly name = 'bootstrap-token';
  constructor(private readonly lookup: SecretLookup, private readonly now: () => number = Date.now) {}

  async authenticate(req: AuthRequest): Promise<AuthResult | null> {
    const token = bearerToken(req.headers);
    const m = token === undefined ? null : TOKEN.exec(token);
    if (!m) return null;
    const [, id, secret] = m as unknown as [string, string, string];
    const s = await this.lookup(BOOTSTRAP_SECRET_PREFIX + id);
    if (!s || s.metadata.deletionTimestamp) return null;
    if (!BOOTSTRAP_SECRET_TYPES.includes(String(s.type)) || !isObject(s.data)) return null;
    if (!constantTimeEqual(secretData(s, 'token-secret'), secret)) return null;
    if (secretData(s, 'token-id') !== id) return null;
    if (bootstrapTokenExpiry(s, this.now()).expired) return null;
    if (secretData(s, 'usage-bootstrap-authentication') !== 'true') return null;
    const groups = bootstrapGroups(s);
    if (!groups) return null;
    return { user: { name: BOOTSTRAP_USER_PREFIX + id, groups } };
  }
}

/** A key of a Secret's data, decoded (base64 → UTF-8); '' when absent. */
export function secretData(s: ApiObject, key: string): string {
  const v = isObject(s.data) ? s.data[key] : undefined;
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** When the token expires (no expiration: never); an unparseable expiration counts as expired, as kube treats it. */
export function bootstrapTokenExpiry(s: ApiObject, now: number): { expired: boolean; ttlMs?: number } {
  const text = secretData(s, 'expiration');
  if (text === '') return { expired: false };
  const t = encodeTime(text);
  if (!t) return { expired: true };
  const ttlMs = t.seconds * 1000 + Math.floor(t.nanos / 1e6) - now;
  return ttlMs <= 0 ? { expired: true } : { expired: false, ttlMs };
}

/** system:bootstrappers and the valid extra groups, sorted and unique; undefined when one is invalid. */
export function bootstrapGroups(s: ApiObject): string[] | undefined {
  const groups = new Set([BOOTSTRAP_GROUP]);
  const extra = secretData(s, 'auth-extra-groups');
  if (extra !== '') {
    for (const g of extra.split(',')) {
      if (!GROUP.test(g)) return undefined;
      groups.add(g);
    }
  }
  return [...groups].sort();
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
