// Service-account tokens: configuration (the --service-account-* flags and
// --api-audiences), the token generators (bound tokens for TokenRequest, legacy
// ones for the token controller), the two token authenticators kube runs
// (legacy issuer; the configured issuers) and the objects they look up.
//
//   keys.ts       PEM keys, key ids, the generated signing key
//   jwt.ts        signing, the JWT authenticator, the service-account user
//   claims.ts     bound and legacy claims and their validators
//   discovery.ts  /.well-known/openid-configuration and /openid/v1/jwks
import type { Registry } from '../../registry/registry.js';
import { schemaFor } from '../../api/schemas.js';
import { trackWrite } from '../../endpoints/fieldmanager.js';
import type { Authenticator } from '../authenticator.js';
import { boundValidator, LEGACY_ISSUER, legacyValidator, type ServiceAccountTokenGetter } from './claims.js';
import { JwtTokenAuthenticator, TokenGenerator } from './jwt.js';
import type { PublicKeyInfo, SigningKey } from './keys.js';

/** The default issuer: kube's https://kubernetes.default.svc.cluster.local with the in-cluster Service named `svc`. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://svc.default.svc.cluster.local';

export interface ServiceAccountTokenConfig {
  /** --service-account-issuer: the first issues, all are accepted. */
  readonly issuers: readonly string[];
  readonly signingKey: SigningKey;
  /** Verification keys (--service-account-key-file). */
  readonly publicKeys: readonly PublicKeyInfo[];
  /** --api-audiences (default: the issuers). */
  readonly apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0 for none. */
  readonly maxExpirationSeconds: number;
  /** --service-account-extend-token-expiration. */
  readonly extendExpiration: boolean;
  /** --service-account-lookup (legacy tokens; bound tokens are always looked up). */
  readonly lookup: boolean;
  /** --service-account-jwks-uri (default https://<external address>/openid/v1/jwks). */
  readonly jwksURI?: string;
}

export class ServiceAccountTokens {
  readonly issuer: TokenGenerator;
  readonly legacyIssuer: TokenGenerator;

  constructor(readonly config: ServiceAccountTokenConfig) {
    if (config.issuers.length === 0) throw new Error('--service-account-issuer: at least one issuer is required');
    this.issuer = new TokenGenerator(config.issuers[0]!, config.signingKey);
    this.legacyIssuer = new TokenGenerator(LEGACY_ISSUER, config.signingKey);
  }

  /** kube's two service-account token authenticators: legacy tokens, then bound tokens of the configured issuers. */
  authenticators(getter: ServiceAccountTokenGetter, now?: () => number): Authenticator[] {
    const common = { keys: this.config.publicKeys, implicitAudiences: this.config.apiAudiences };
    return [
      new JwtTokenAuthenticator({ ...common, name: 'service-account-legacy', issuers: [LEGACY_ISSUER], validator: legacyValidator({ getter, lookup: this.config.lookup, ...(now ? { now } : {}) }) }),
      new JwtTokenAuthenticator({ ...common, name: 'service-account', issuers: this.config.issuers, validator: boundValidator({ getter, ...(now ? { now } : {}) }) }),
    ];
  }
}

/** The validators' lookups (and the legacy-token label) through the registry, like any client's requests. */
export function registryTokenGetter(registry: Registry): ServiceAccountTokenGetter {
  return {
    serviceAccount: (ns, name) => registry.store('', 'serviceaccounts').get(ns, name),
    pod: (ns, name) => registry.store('', 'pods').get(ns, name),
    secret: (ns, name) => registry.store('', 'secrets').get(ns, name),
    labelSecret: async (ns, name, uid, key, value) => {
      await registry.store('', 'secrets').guaranteedUpdate(ns, name, (cur) => {
        if (cur.metadata.uid !== uid) throw new Error(`secret ${ns}/${name} was replaced`);
        return { ...cur, metadata: { ...cur.metadata, labels: { ...(cur.metadata.labels ?? {}), [key]: value } } };
      }, { dryRun: false, track: (live, next) => trackWrite({ manager: 'svc-apiserver', apiVersion: 'v1', kind: 'Secret', schema: schemaFor('', 'v1', 'Secret') }, live, next) });
    },
  };
}

export * from './claims.js';
export * from './jwt.js';
export * from './keys.js';
export * from './discovery.js';
