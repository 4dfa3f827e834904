// The service-account token configuration of the API server, from its flags.
import {
  DEFAULT_SERVICE_ACCOUNT_ISSUER, ensureServiceAccountKey, publicKeysFromFile, publicKeysFromPem, ServiceAccountTokens, signingKeyFromFile, type PublicKeyInfo,
} from '../authn/serviceaccount/index.js';
import type { ApiServerOptions } from './options.js';

/**
 * The service-account token configuration from the flags: the signing key
 * (--service-account-signing-key-file, else the generated <data-dir>/pki/sa.key),
 * the verification keys (--service-account-key-file, else the signing key and
 * the TLS key), issuers and audiences.
 */
export async function serviceAccountTokens(opts: ApiServerOptions, tlsKey: string): Promise<ServiceAccountTokens> {
  const o = opts.serviceAccounts ?? {};
  const signingKey = o.signingKeyFile ? signingKeyFromFile(o.signingKeyFile) : (await ensureServiceAccountKey(opts.dataDir)).key;
  let publicKeys: PublicKeyInfo[];
  if (o.keyFiles && o.keyFiles.length > 0) {
    publicKeys = o.keyFiles.flatMap((f) => publicKeysFromFile(f));
    if (!publicKeys.some((k) => k.kid === signingKey.kid)) console.warn('W svc: the service account signing key is not among --service-account-key-file: the tokens it signs will not verify');
  } else {
    publicKeys = [signingKey];
    try {
      publicKeys.push(...publicKeysFromPem(tlsKey, 'the TLS private key'));
    } catch {
      // a TLS key that is neither RSA nor ECDSA verifies nothing
    }
  }
  const issuers = o.issuers && o.issuers.length > 0 ? o.issuers : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  return new ServiceAccountTokens({
    issuers, signingKey, publicKeys,
    apiAudiences: o.apiAudiences && o.apiAudiences.length > 0 ? o.apiAudiences : issuers,
    maxExpirationSeconds: o.maxExpirationSeconds ?? 0,
    extendExpiration: o.extendExpiration ?? true,
    lookup: o.lookup ?? true,
    ...(o.jwksURI ? { jwksURI: o.jwksURI } : {}),
  });
}
