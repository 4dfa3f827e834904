// Client-certificate authentication (--client-ca-file): the user is the
// certificate's CommonName and the groups its Organizations. The TLS server
// may trust more than the client CA (the requestheader CA of an authenticating
// proxy), so with `roots` the chain is verified here against the client CA
// alone; without them (tests) TLS's own verdict is taken.
import type { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import { AuthenticationError, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';
import { verifyClientCertificateCached } from '../server/pki.js';
import { observeClientCertificate } from '../metrics/authn.js';

export class X509Authenticator implements Authenticator {
  readonly name = 'x509';

  constructor(private readonly roots?: readonly X509Certificate[]) {}

  authenticate(req: AuthRequest): AuthResult | null {
    const cert = req.peerCertificate;
    if (!cert || Object.keys(cert).length === 0) return null;
    observeClientCertificate(cert);
    if (this.roots) {
      const r = verifyClientCertificateCached(req.peerChain ?? [], this.roots);
      if (!r.ok) throw new AuthenticationError(`verifying certificate ${describe(cert)} failed: x509: ${r.reason}`);
      return { user: { name: r.user.name, groups: [...r.user.groups] } };
    }
    if (!req.peerAuthorized) throw new AuthenticationError(`verifying certificate ${describe(cert)} failed: ${req.peerAuthorizationError ?? 'x509: certificate signed by unknown authority'}`);
    const cn = first(cert.subject?.CN);
    if (!cn) throw new AuthenticationError('x509: subject with CN is required');
    return { user: { name: cn, groups: all(cert.subject?.O) } };
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function all(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

function describe(cert: PeerCertificate): string {
  return `SN=${cert.serialNumber ?? '?'}, CN=${first(cert.subject?.CN) ?? ''}`;
}
