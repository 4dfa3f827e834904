// The --oidc-* and --authentication-token-webhook-* flags (kube-apiserver
// v1.27's names, defaults and checks) and their translation into options.
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import { OIDC_SIGNING_ALGS, validateOidcOptions } from '../authn/oidc.js';
import { parseTokenReviewVersion } from '../authn/tokenwebhook.js';
import type { OidcConfig, TokenWebhookConfig } from '../authn/external.js';

export const AUTHN_FLAGS: FlagSpec[] = [
  { name: 'oidc-issuer-url', type: 'string', help: 'The URL of the OpenID issuer, only the https scheme. If set, it is used to verify the OIDC JSON Web Token (JWT).' },
  { name: 'oidc-client-id', type: 'string', help: 'The client ID for the OpenID Connect client; must be set if --oidc-issuer-url is set.' },
  { name: 'oidc-ca-file', type: 'string', help: "The certificate authority that signed the identity provider's web certificate. Defaults to the host's root CAs." },
  { name: 'oidc-username-claim', type: 'string', help: 'The OpenID claim to use as the user name. Claims other than email are prefixed with the issuer URL unless --oidc-username-prefix says otherwise.', default: 'sub' },
  { name: 'oidc-username-prefix', type: 'string', help: "Prefix for usernames from the username claim; '-' disables prefixing. Unset: the issuer URL and '#' for claims other than email." },
  { name: 'oidc-groups-claim', type: 'string', help: "The custom OpenID claim holding the user's groups: an array of strings (or one string)." },
  { name: 'oidc-groups-prefix', type: 'string', help: 'Prefix for group names from the groups claim.' },
  { name: 'oidc-signing-algs', type: 'strings', help: `Comma-separated JOSE signing algorithms accepted (${OIDC_SIGNING_ALGS.join(', ')}).`, default: ['RS256'] },
  { name: 'oidc-required-claim', type: 'map', help: 'key=value pairs that must be present, with that value, in the ID token. Repeatable.' },
  { name: 'authentication-token-webhook-config-file', type: 'string', help: 'Connection-credentials file (kubeconfig format) naming the token authentication webhook: the API server POSTs a TokenReview for each bearer token.' },
  { name: 'authentication-token-webhook-cache-ttl', type: 'duration', help: 'How long to cache the webhook\'s decisions.', default: 120_000 },
  { name: 'authentication-token-webhook-version', type: 'string', help: 'The authentication.k8s.io TokenReview version sent to the webhook: v1beta1 or v1.', default: 'v1beta1' },
];

export interface AuthnFlagOptions {
  readonly oidc?: OidcConfig;
  readonly tokenWebhook?: TokenWebhookConfig;
}

export function authnOptions(v: Map<string, FlagValue>): AuthnFlagOptions {
  const str = (k: string) => (v.get(k) as string | undefined) || undefined;
  const issuerURL = str('oidc-issuer-url');
  const clientID = str('oidc-client-id');
  let oidc: OidcConfig | undefined;
  if (issuerURL || clientID) {
    if (!issuerURL || !clientID) throw new FlagError('oidc-issuer-url and oidc-client-id should be specified together');
    const signingAlgs = (v.get('oidc-signing-algs') as string[] | undefined) ?? ['RS256'];
    const errs = validateOidcOptions({ issuerURL, clientID, signingAlgs, usernameClaim: v.get('oidc-username-claim') as string });
    if (errs.length > 0) throw new FlagError(errs.join('; '));
    oidc = {
      issuerURL, clientID, signingAlgs,
      usernameClaim: v.get('oidc-username-claim') as string,
      ...(v.has('oidc-username-prefix') ? { usernamePrefix: v.get('oidc-username-prefix') as string } : {}),
      ...(str('oidc-groups-claim') ? { groupsClaim: str('oidc-groups-claim') } : {}),
      ...(str('oidc-groups-prefix') ? { groupsPrefix: str('oidc-groups-prefix') } : {}),
      ...(str('oidc-ca-file') ? { caFile: str('oidc-ca-file') } : {}),
      requiredClaims: (v.get('oidc-required-claim') as Record<string, string> | undefined) ?? {},
    };
  }
  let tokenWebhook: TokenWebhookConfig | undefined;
  const configFile = str('authentication-token-webhook-config-file');
  if (configFile) {
    let version;
    try {
      version = parseTokenReviewVersion(v.get('authentication-token-webhook-version') as string);
    } catch (err) {
      throw new FlagError(`invalid value for --authentication-token-webhook-version: ${(err as Error).message}`);
    }
    tokenWebhook = { configFile, cacheTtlMs: v.get('authentication-token-webhook-cache-ttl') as number, version };
  }
  return { ...(oidc ? { oidc } : {}), ...(tokenWebhook ? { tokenWebhook } : {}) };
}
