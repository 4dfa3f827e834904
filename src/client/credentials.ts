// Where a client's credentials come from, asked before every request: fixed
// ones (a svcconfig's token, basic credentials or inline certificate), a
// certificate and key read from files and read again when the files change
// (the node agent's kubelet-client-current.pem, replaced at rotation), or an
// exec credential plugin (exec.ts). After a 401 the client calls `refresh`
// with the credentials it used; a provider that can get others (a plugin run
// again) answers them, the others answer undefined.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import type { Credentials } from '../webhook/connfile.js';

export type { Credentials } from '../webhook/connfile.js';

export interface CredentialProvider {
  /** The credentials to present now (cached by the provider as it sees fit). */
  get(): Promise<Credentials>;
  /** After a 401 with `used`: fresh credentials to try once more, or undefined when there are none. */
  refresh(used: Credentials): Promise<Credentials | undefined>;
}

/** The same credentials always. */
export function staticCredentials(creds: Credentials): CredentialProvider {
  return { get: async () => creds, refresh: async () => undefined };
}

export interface FileCredentialOptions {
  readonly certFile: string;
  readonly keyFile: string;
  /** Token or basic credentials presented beside the certificate. */
  readonly extra?: Credentials;
}

/**
 * A client certificate and key from files (they may be one file, as the
 * agent's kubelet-client-current.pem), read again when a file (or the target
 * of a link) changes; after a 401 they are read again in case they changed.
 */
export function fileCredentials(opts: FileCredentialOptions): CredentialProvider {
  let stamp = '';
  let current: Credentials = {};
  const stampOf = () => [opts.certFile, opts.keyFile].map((f) => {
    const real = realpathSync(f);
    const st = statSync(real);
    return `${real}:${st.ino}:${st.mtimeMs}:${st.size}`;
  }).join('|');
  const load = (force: boolean): Credentials => {
    const s = stampOf();
    if (force || s !== stamp) {
      current = { ...opts.extra, clientCert: readFileSync(opts.certFile, 'utf8'), clientKey: readFileSync(opts.keyFile, 'utf8') };
      stamp = s;
    }
    return current;
  };
  return {
    get: async () => load(false),
    refresh: async (used) => {
      const next = load(true);
      return next.clientCert !== used.clientCert || next.clientKey !== used.clientKey ? next : undefined;
    },
  };
}

/** Whether two credentials present the same certificate and key (a change needs a new TLS handshake). */
export function sameCertificate(a: Credentials, b: Credentials): boolean {
  return a.clientCert === b.clientCert && a.clientKey === b.clientKey;
}
