// Client-certificate authentication (--client-ca-file): TLS verifies the
// chain against the client CA; the user is the certificate's CommonName and
// the groups its Organizations.
import type { PeerCertificate } from 'node:tls';
import { AuthenticationError, type AuthRequest, type AuthResult, type Authenticator } from './authenticator.js';

export class X509Authenticator implements Authenticator {
  readonly name = 'x509';

  authenticate(req: AuthRequest): AuthResult | null {
    const cert = req.peerCertificate;
    if (!cert || Object.keys(cert).length === 0) return null;
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
