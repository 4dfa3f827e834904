// The agent's serving certificate, as the kubelet finds it: --tls-cert-file and
// --tls-private-key-file when both are given; otherwise <cert-dir>/kubelet.crt
// and kubelet.key, generated on first start when either is missing or
// unreadable — a self-signed pair (a CA `<host>-ca@<unix time>` and a serving
// certificate `<host>@<unix time>` for the host name, the file holding both;
// made by a child process, selfsigned.ts).
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PemKeyPair } from '../../server/pki.js';
import { selfSignedPair } from './selfsigned.js';

export interface ServingTlsOptions {
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  /** --cert-dir (kube: /var/lib/kubelet/pki). */
  readonly certDir: string;
  /** The node's host name (kube: the node name), the generated certificate's subject and SAN. */
  readonly hostname: string;
  readonly now?: Date;
}

export const SELF_SIGNED_FILES = { cert: 'kubelet.crt', key: 'kubelet.key' } as const;

export interface ServingTls extends PemKeyPair {
  /** The files used. */
  readonly certFile: string;
  readonly keyFile: string;
  readonly generated: boolean;
}

export async function servingTls(o: ServingTlsOptions): Promise<ServingTls> {
  if (o.tlsCertFile && o.tlsPrivateKeyFile) {
    return { cert: await readFile(o.tlsCertFile, 'utf8'), key: await readFile(o.tlsPrivateKeyFile, 'utf8'), certFile: o.tlsCertFile, keyFile: o.tlsPrivateKeyFile, generated: false };
  }
  const certFile = join(o.certDir, SELF_SIGNED_FILES.cert);
  const keyFile = join(o.certDir, SELF_SIGNED_FILES.key);
  try {
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8'), certFile, keyFile, generated: false };
  } catch {
    // missing or unreadable: make a new pair, as kube
  }
  const { cert, key } = await selfSignedPair(o.hostname, o.now ?? new Date());
  await mkdir(o.certDir, { recursive: true, mode: 0o755 });
  await writeAtomic(keyFile, key, 0o600);
  await writeAtomic(certFile, cert, 0o644);
  return { cert, key, certFile, keyFile, generated: true };
}

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
async function writeAtomic(file: string, data: string, mode: number): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, data, { mode });
  await chmod(tmp, mode);
  await rename(tmp, file);
}
