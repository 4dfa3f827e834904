// Builds the token authenticators that answer from outside the server — the
// OpenID Connect issuer and the token authentication webhook — from the API
// server's options, and closes them on shutdown.
import { readFileSync } from 'node:fs';
import type { Authenticator } from './authenticator.js';
import { OidcAuthenticator, type OidcOptions } from './oidc.js';
import { TokenWebhookAuthenticator, type TokenReviewVersion } from './tokenwebhook.js';

/** --oidc-* (the CA as a file). */
export type OidcConfig = Omit<OidcOptions, 'ca' | 'apiAudiences'> & { readonly caFile?: string };

/** --authentication-token-webhook-*. */
export interface TokenWebhookConfig {
  readonly configFile: string;
  readonly cacheTtlMs: number;
  readonly version: TokenReviewVersion;
  /** Tests shorten the deadline of one review (30 s). */
  readonly timeoutMs?: number;
}

export interface ExternalAuthenticators {
  readonly authenticators: readonly Authenticator[];
  readonly oidc?: OidcAuthenticator;
  readonly webhook?: TokenWebhookAuthenticator;
  close(): void;
}

export function externalTokenAuthenticators(opts: { oidc?: OidcConfig; tokenWebhook?: TokenWebhookConfig; apiAudiences?: readonly string[] }): ExternalAuthenticators {
  let oidc: OidcAuthenticator | undefined;
  let webhook: TokenWebhookAuthenticator | undefined;
  if (opts.oidc) {
    const { caFile, ...rest } = opts.oidc;
    let ca: string | undefined;
    if (caFile) {
      try {
        ca = readFileSync(caFile, 'utf8');
      } catch (err) {
        throw new Error(`cannot read --oidc-ca-file ${caFile}: ${(err as Error).message}`);
      }
    }
    oidc = new OidcAuthenticator({ ...rest, ...(ca ? { ca } : {}), ...(opts.apiAudiences ? { apiAudiences: opts.apiAudiences } : {}) });
  }
  if (opts.tokenWebhook) {
    const w = opts.tokenWebhook;
    try {
      webhook = TokenWebhookAuthenticator.fromFile(w.configFile, {
        version: w.version, cacheTtlMs: w.cacheTtlMs,
        ...(w.timeoutMs !== undefined ? { timeoutMs: w.timeoutMs } : {}),
        ...(opts.apiAudiences ? { apiAudiences: opts.apiAudiences } : {}),
      });
    } catch (err) {
      oidc?.close();
      throw new Error(`--authentication-token-webhook-config-file: ${(err as Error).message}`);
    }
  }
  return {
    authenticators: [...(oidc ? [oidc] : []), ...(webhook ? [webhook] : [])],
    oidc,
    webhook,
    close() {
      oidc?.close();
      webhook?.close();
    },
  };
}
