// Service-account issuer discovery (kube's pkg/serviceaccount/openidmetadata.go
// and pkg/routes/openidmetadata.go): GET /.well-known/openid-configuration and
// GET /openid/v1/jwks, so relying parties outside the cluster can verify the
// tokens. Both documents are built once; they are served with
// `Cache-Control: public, max-age=3600`, the configuration as
// application/json and the key set as application/jwk-set+json. Served only
// when the issuer is an https URL without query or fragment (kube logs the
// error and skips the routes otherwise).
import { exportJWK } from 'jose';
import type { PublicKeyInfo } from './keys.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

export interface IssuerDiscoveryDocuments {
  readonly configuration: string;
  readonly jwks: string;
}

/** The documents, or an error saying why the issuer cannot have them. */
export async function issuerDiscovery(opts: { issuer: string; jwksURI?: string; externalAddress: string; keys: readonly PublicKeyInfo[] }): Promise<IssuerDiscoveryDocuments> {
  let iss: URL;
  try {
    iss = new URL(opts.issuer);
  } catch {
    throw new Error(`issuer URL must use https scheme, got: ${opts.issuer}`);
  }
  if (iss.protocol !== 'https:') throw new Error(`issuer URL must use https scheme, got: ${opts.issuer}`);
  if (iss.search !== '') throw new Error(`issuer URL must not have a query, got: ${opts.issuer}`);
  if (iss.hash !== '') throw new Error(`issuer URL must not have a fragment, got: ${opts.issuer}`);
  let jwksURI = opts.jwksURI;
  if (!jwksURI) {
    if (!opts.externalAddress) throw new Error('attempted to build jwks_uri from external address , but could not construct a valid URL. Error: empty address');
    jwksURI = `https://${opts.externalAddress}${JWKS_PATH}`;
  } else if (!jwksURI.startsWith('https://')) {
    throw new Error(`jwks URI must use https scheme, got: ${jwksURI}`);
  }
  const keys = [];
  const seen = new Set<string>();
  for (const k of opts.keys) {
    if (seen.has(k.kid)) continue;
    seen.add(k.kid);
    const jwk = await exportJWK(k.key);
    // go-jose's field order: use, kty, kid, crv, alg, x, y, n, e
    keys.push({ use: 'sig', kty: jwk.kty, kid: k.kid, ...(jwk.crv ? { crv: jwk.crv } : {}), alg: k.alg, ...(jwk.x ? { x: jwk.x, y: jwk.y } : {}), ...(jwk.n ? { n: jwk.n, e: jwk.e } : {}) });
  }
  return {
    configuration: JSON.stringify({
      issuer: opts.issuer,
      jwks_uri: jwksURI,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [...new Set(opts.keys.map((k) => k.alg))].sort(),
    }),
    jwks: JSON.stringify({ keys }),
  };
}
