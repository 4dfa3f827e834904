// The claims of service-account tokens and their validators, as kube's
// pkg/serviceaccount/claims.go (bound tokens from TokenRequest) and legacy.go
// (tokens the token controller writes into Secrets) define them. Claim names
// are kube's: in-pod client libraries and tools read them.
//
//   bound:  iss sub aud exp iat nbf  "kubernetes.io": {namespace, serviceaccount{name,uid},
//           pod{name,uid} | secret{name,uid}, warnafter}
//   legacy: iss=kubernetes/serviceaccount sub  "kubernetes.io/serviceaccount/namespace",
//           ".../secret.name", ".../service-account.name", ".../service-account.uid"
//
// Bound tokens are always checked against the live objects (kube's bound
// validator has no lookup switch); legacy ones only with --service-account-lookup.
import { isStatusError } from '../../api/meta/index.js';
import type { ApiObject } from '../../registry/object.js';
import { AuthenticationError } from '../authenticator.js';
import { serviceAccountUsername, SERVICE_ACCOUNT_USERNAME_PREFIX, type Claims, type Validator } from './jwt.js';

/** kube's jwt.DefaultLeeway: clocks may disagree by a minute. */
export const LEEWAY_SECONDS = 60;
/** The expiration the ServiceAccount admission plugin asks for projected tokens (1h7s); extended when --service-account-extend-token-expiration. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** What such a token's lifetime is extended to: a year. */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

const LEGACY = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  saName: 'kubernetes.io/serviceaccount/service-account.name',
  saUID: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

/** The objects the validators look up; a missing object throws (a NotFound StatusError). */
export interface ServiceAccountTokenGetter {
  serviceAccount(namespace: string, name: string): Promise<ApiObject>;
  pod(namespace: string, name: string): Promise<ApiObject>;
  secret(namespace: string, name: string): Promise<ApiObject>;
  /** Sets a label on the Secret with this uid (legacy token tracking); failures are only logged. */
  labelSecret?(namespace: string, name: string, uid: string, key: string, value: string): Promise<void>;
}

/**
 * The label kube 1.27's LegacyServiceAccountTokenTracking (beta, on) puts on a Secret whose legacy
 * token was used, with the day (UTC) of use; ours is spelled with svc.io, as labels the server sets are.
 */
export const LEGACY_TOKEN_LAST_USED_LABEL = 'svc.io/legacy-token-last-used';

interface Ref {
  readonly name: string;
  readonly uid: string;
}

export interface BoundClaimsInput {
  readonly serviceAccount: ApiObject;
  readonly pod?: ApiObject;
  readonly secret?: ApiObject;
  readonly expirationSeconds: number;
  /** Seconds after which use is only warned about (0: none). */
  readonly warnAfterSeconds: number;
  readonly audiences: readonly string[];
  /** Seconds since the epoch. */
  readonly now: number;
}

const ref = (o: ApiObject): Ref => ({ name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' });

/** kube's Claims(): the public and private claims of a bound token (the generator adds `iss`). */
export function boundClaims(i: BoundClaimsInput): Claims {
  const sa = i.serviceAccount.metadata;
  const k8s: Record<string, unknown> = { namespace: sa.namespace, serviceaccount: ref(i.serviceAccount) };
  if (i.pod) k8s.pod = ref(i.pod);
  else if (i.secret) k8s.secret = ref(i.secret);
  if (i.warnAfterSeconds !== 0) k8s.warnafter = i.now + i.warnAfterSeconds;
  return {
    sub: serviceAccountUsername(sa.namespace ?? '', sa.name ?? ''),
    aud: [...i.audiences],
    iat: i.now,
    nbf: i.now,
    exp: i.now + i.expirationSeconds,
    'kubernetes.io': k8s,
  };
}

/** kube's LegacyClaims(): what the token controller signs into a service-account-token Secret. */
export function legacyClaims(serviceAccount: ApiObject, secret: ApiObject): Claims {
  const sa = serviceAccount.metadata;
  return {
    sub: serviceAccountUsername(sa.namespace ?? '', sa.name ?? ''),
    [LEGACY.namespace]: sa.namespace,
    [LEGACY.saName]: sa.name,
    [LEGACY.saUID]: sa.uid,
    [LEGACY.secretName]: secret.metadata.name,
  };
}

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const numeric = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const fail = (msg: string): never => {
  throw new AuthenticationError(msg);
};

/** A getter's error as the validators pass it on: a StatusError's message ("serviceaccounts \"x\" not found"). */
async function lookup(get: () => Promise<ApiObject>): Promise<ApiObject> {
  try {
    return await get();
  } catch (err) {
    if (isStatusError(err)) throw new AuthenticationError(err.status.message ?? 'lookup failed');
    throw err;
  }
}

const deletedBefore = (o: ApiObject, limitMs: number): boolean =>
  o.metadata.deletionTimestamp !== undefined && Date.parse(o.metadata.deletionTimestamp) < limitMs;

export interface ValidatorOptions {
  readonly getter: ServiceAccountTokenGetter;
  /** The clock, in milliseconds (tests move it). */
  readonly now?: () => number;
}

/** kube's bound-token validator: time claims with a minute's leeway, then the service account and the bound pod or secret. */
export function boundValidator(opts: ValidatorOptions): Validator {
  const clock = opts.now ?? Date.now;
  return async (_token, claims) => {
    const nowMs = clock();
    const now = nowMs / 1000;
    const exp = numeric(claims.exp);
    const nbf = numeric(claims.nbf);
    const iat = numeric(claims.iat);
    if ((claims.exp !== undefined && exp === undefined) || (claims.nbf !== undefined && nbf === undefined) || (claims.iat !== undefined && iat === undefined)) {
      fail('service account token claims could not be validated due to unexpected validation error');
    }
    if (exp !== undefined && now - LEEWAY_SECONDS > exp) fail('service account token has expired');
    if (nbf !== undefined && now + LEEWAY_SECONDS < nbf) fail('service account token is not valid yet');
    if (iat !== undefined && now + LEEWAY_SECONDS < iat) fail('service account token claims could not be validated due to unexpected validation error');

    const k8s = obj(claims['kubernetes.io']);
    const namespace = str(k8s.namespace);
    const saRef = obj(k8s.serviceaccount);
    const saName = str(saRef.name);
    const podRef = k8s.pod === undefined ? undefined : obj(k8s.pod);
    const secretRef = k8s.secret === undefined ? undefined : obj(k8s.secret);
    const invalidIfDeletedBefore = nowMs - LEEWAY_SECONDS * 1000;

    const sa = await lookup(() => opts.getter.serviceAccount(namespace, saName));
    if (deletedBefore(sa, invalidIfDeletedBefore)) fail(`service account ${namespace}/${saName} has been deleted`);
    if ((sa.metadata.uid ?? '') !== str(saRef.uid)) fail(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${str(saRef.uid)})`);

    if (secretRef) {
      let secret: ApiObject | undefined;
      try {
        secret = await opts.getter.secret(namespace, str(secretRef.name));
      } catch (err) {
        if (!isStatusError(err)) throw err;
      }
      if (!secret || deletedBefore(secret, invalidIfDeletedBefore)) fail('service account token has been invalidated');
      if (str(secretRef.uid) !== (secret!.metadata.uid ?? '')) fail(`secret UID (${secret!.metadata.uid ?? ''}) does not match service account secret ref claim (${str(secretRef.uid)})`);
    }
    let podName: string | undefined;
    let podUID: string | undefined;
    if (podRef) {
      let pod: ApiObject | undefined;
      try {
        pod = await opts.getter.pod(namespace, str(podRef.name));
      } catch (err) {
        if (!isStatusError(err)) throw err;
      }
      if (!pod || deletedBefore(pod, invalidIfDeletedBefore)) fail('service account token has been invalidated');
      if (str(podRef.uid) !== (pod!.metadata.uid ?? '')) fail(`pod UID (${pod!.metadata.uid ?? ''}) does not match service account pod ref claim (${str(podRef.uid)})`);
      podName = str(podRef.name);
      podUID = str(podRef.uid);
    }
    return { namespace, name: saName, uid: str(saRef.uid), ...(podName ? { podName, podUID } : {}) };
  };
}

/** The Secret types of service-account tokens: kube's spelling (what tools write) and ours. */
export const SERVICE_ACCOUNT_TOKEN_TYPES = ['kubernetes.io/service-account-token', 'svc.io/service-account-token'] as const;
export const isServiceAccountTokenType = (t: unknown): boolean => (SERVICE_ACCOUNT_TOKEN_TYPES as readonly unknown[]).includes(t);
/** The annotations naming a token Secret's service account, in the spelling of its type. */
export function tokenSecretAnnotations(type: unknown): { name: string; uid: string } {
  const domain = type === 'svc.io/service-account-token' ? 'svc.io' : 'kubernetes.io';
  return { name: `${domain}/service-account.name`, uid: `${domain}/service-account.uid` };
}

/** kube's legacy validator: claims present and consistent; with lookup, the Secret still holds this token and the account is the same. */
export function legacyValidator(opts: ValidatorOptions & { readonly lookup: boolean }): Validator {
  return async (token, claims) => {
    if (!str(claims.sub)) fail('sub claim is missing');
    const namespace = str(claims[LEGACY.namespace]);
    if (!namespace) fail('namespace claim is missing');
    const secretName = str(claims[LEGACY.secretName]);
    if (!secretName) fail('secretName claim is missing');
    const saName = str(claims[LEGACY.saName]);
    if (!saName) fail('serviceAccountName claim is missing');
    const saUID = str(claims[LEGACY.saUID]);
    if (!saUID) fail('serviceAccountUID claim is missing');
    const sub = str(claims.sub);
    const [subNamespace, subName, ...more] = sub.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX) ? sub.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':') : [];
    if (more.length > 0 || subNamespace !== namespace || subName !== saName) fail('sub claim is invalid');

    if (opts.lookup) {
      let secret: ApiObject | undefined;
      try {
        secret = await opts.getter.secret(namespace, secretName);
      } catch (err) {
        if (!isStatusError(err)) throw err;
      }
      if (!secret || secret.metadata.deletionTimestamp !== undefined) fail('Token has been invalidated');
      const stored = obj(secret!.data).token;
      if (typeof stored !== 'string' || Buffer.from(stored, 'base64').toString('utf8') !== token) fail("Token does not match server's copy");
      const sa = await lookup(() => opts.getter.serviceAccount(namespace, saName));
      if (sa.metadata.deletionTimestamp !== undefined) fail(`ServiceAccount ${namespace}/${saName} has been deleted`);
      if ((sa.metadata.uid ?? '') !== saUID) fail(`ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${saUID})`);
      // at most one write a day per Secret: today's (or, across midnight, tomorrow's) date stays
      const nowMs = (opts.now ?? Date.now)();
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const lastUsed = secret!.metadata.labels?.[LEGACY_TOKEN_LAST_USED_LABEL];
      if (opts.getter.labelSecret && lastUsed !== day(nowMs) && lastUsed !== day(nowMs + 86_400_000)) {
        void opts.getter.labelSecret(namespace, secretName, secret!.metadata.uid ?? '', LEGACY_TOKEN_LAST_USED_LABEL, day(nowMs))
          .catch((err: unknown) => console.error(`svc: failed to label legacy service account token ${namespace}/${secretName} with last-used date:`, err));
      }
    }
    return { namespace, name: saName, uid: saUID };
  };
}
