// The authenticating proxy (--requestheader-*): a front proxy that has
// authenticated the user passes the identity in headers. They are believed
// only from a client whose certificate verifies against the requestheader CA
// (--requestheader-client-ca-file, not the client CA: the TLS server accepts
// certificates of both and each authenticator checks its own roots) and, when
// --requestheader-allowed-names is set, names one of them as CommonName.
//
//   no client certificate                  → not ours (null): headers ignored
//   certificate not from the proxy CA      → error (another authenticator may still succeed)
//   proxy certificate, CN not allowed      → error
//   proxy certificate, no username header  → not ours (null)
//   proxy certificate, username header     → user from the headers; the headers are removed
//
// Username: the first listed header holding a value; groups: every value of
// every group header; extra: each header with an extra prefix, the rest of the
// name lower-cased and percent-decoded as the key, every value appended.
import type { X509Certificate } from 'node:crypto';
import { AuthenticationError, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { deleteHeaders, headerNamesWithPrefix, headerValue, headerValues, pathUnescape } from './headers.js';
import { certificateUser, verifyClientCertificateCached } from '../server/pki.js';

export interface RequestHeaderOptions {
  /** --requestheader-username-headers (required; ordered) */
  readonly usernameHeaders: readonly string[];
  /** --requestheader-group-headers */
  readonly groupHeaders?: readonly string[];
  /** --requestheader-extra-headers-prefix */
  readonly extraHeaderPrefixes?: readonly string[];
  /** --requestheader-client-ca-file, parsed */
  readonly clientCA: readonly X509Certificate[];
  /** --requestheader-allowed-names; empty: any CN the CA signed */
  readonly allowedNames?: readonly string[];
}

export class RequestHeaderAuthenticator implements Authenticator {
  readonly name = 'requestheader';
  private readonly usernameHeaders: string[];
  private readonly groupHeaders: string[];
  private readonly extraPrefixes: string[];
  private readonly refusals = new WeakMap<readonly X509Certificate[], AuthenticationError>();

  constructor(private readonly opts: RequestHeaderOptions) {
    this.usernameHeaders = trimmed(opts.usernameHeaders, 'username');
    this.groupHeaders = trimmed(opts.groupHeaders ?? [], 'group');
    this.extraPrefixes = trimmed(opts.extraHeaderPrefixes ?? [], 'extra');
    if (this.usernameHeaders.length === 0) throw new Error('--requestheader-username-headers must name at least one header');
    if (opts.clientCA.length === 0) throw new Error('--requestheader-client-ca-file holds no certificate');
  }

  authenticate(req: AuthRequest): AuthResult | null {
    const chain = req.peerChain;
    if (!chain || chain.length === 0) return null;
    const refusal = this.refusalOf(chain);
    if (refusal) throw refusal;
    let name = '';
    for (const h of this.usernameHeaders) if ((name = headerValue(req, h)) !== '') break;
    if (name === '') return null;
    const groups = this.groupHeaders.flatMap((h) => headerValues(req, h)).filter((v) => v !== '');
    const extra: Record<string, string[]> = {};
    const extraHeaders: string[] = [];
    for (const prefix of this.extraPrefixes) {
      for (const header of headerNamesWithPrefix(req, prefix)) {
        extraHeaders.push(header);
        const key = pathUnescape(header.slice(prefix.length));
        (extra[key] ??= []).push(...headerValues(req, header));
      }
    }
    // kube clears the headers it used, so nothing later mistakes them for the caller's own.
    deleteHeaders(req, [...this.usernameHeaders, ...this.groupHeaders].map((h) => h.toLowerCase()).concat(extraHeaders));
    return { user: { name, groups, ...(Object.keys(extra).length > 0 ? { extra } : {}) } };
  }
  /**
   * Why this connection's certificate is no proxy's, or undefined when it is. Every request made
   * with a user's own certificate passes here first, so a refusal is kept for the connection's life
   * (the chain is kept per socket) rather than verified and built again per request; an acceptance
   * is not kept here, so verifyClientCertificateCached re-checks validity periods.
   */
  private refusalOf(chain: readonly X509Certificate[]): AuthenticationError | undefined {
    if (this.refusals.has(chain)) return this.refusals.get(chain);
    const verified = verifyClientCertificateCached(chain, this.opts.clientCA);
    const allowed = this.opts.allowedNames ?? [];
    const refusal = !verified.ok
      ? new AuthenticationError(`verifying certificate ${describe(chain[0]!)} failed: x509: ${verified.reason}`)
      : allowed.length > 0 && !allowed.includes(verified.user.name)
        ? new AuthenticationError(`x509: subject with cn=${verified.user.name} is not in the allowed list`)
        : undefined;
    if (refusal) this.refusals.set(chain, refusal);
    return refusal;
  }
}

function trimmed(headers: readonly string[], what: string): string[] {
  return headers.map((h) => {
    const t = h.trim();
    if (t === '') throw new Error(`empty ${what} header name ${JSON.stringify(h)}`);
    return t;
  });
}

function describe(cert: X509Certificate): string {
  return `SN=${BigInt(`0x${cert.serialNumber}`)}, CN=${certificateUser(cert).name}`;
}
