// The node's client certificates in --cert-dir as kube's certificate file
// store keeps them: each issued pair in `kubelet-client-<YYYY-MM-DD-HH-MM-SS>.pem`
// (the certificates, then the key; mode 0600), `kubelet-client-current.pem`
// a symbolic link to the newest (replaced atomically), and the key of a
// request not yet issued in `kubelet-client.key.tmp`.
import { X509Certificate } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PAIR_PREFIX = 'kubelet-client';
export const CURRENT_FILE = `${PAIR_PREFIX}-current.pem`;
export const TMP_KEY_FILE = `${PAIR_PREFIX}.key.tmp`;

export class CertStoreError extends Error {
  override readonly name = 'CertStoreError';
}

export interface CertPair {
  /** The certificates (leaf first), PEM. */
  readonly certPem: string;
  readonly keyPem: string;
  readonly leaf: X509Certificate;
  readonly notBefore: number;
  readonly notAfter: number;
}

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g;
const KEY_BLOCK = /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----\n?/;

/** Go's time.Format("2006-01-02-15-04-05") in local time. */
function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}-${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/** The certificates and key of a combined PEM text; throws CertStoreError when either is missing. */
export function parsePair(text: string, where: string): CertPair {
  const certs = text.match(CERT_BLOCK) ?? [];
  const key = KEY_BLOCK.exec(text)?.[0];
  if (certs.length === 0 || !key) throw new CertStoreError(`could not convert data from ${JSON.stringify(where)} into cert/key pair`);
  const leaf = new X509Certificate(certs[0]!);
  return {
    certPem: certs.map((c) => (c.endsWith('\n') ? c : `${c}\n`)).join(''), keyPem: key.endsWith('\n') ? key : `${key}\n`,
    leaf, notBefore: Date.parse(leaf.validFrom), notAfter: Date.parse(leaf.validTo),
  };
}

export class CertStore {
  constructor(readonly dir: string, private readonly now: () => Date = () => new Date()) {}

  get currentPath(): string {
    return join(this.dir, CURRENT_FILE);
  }

  get tmpKeyPath(): string {
    return join(this.dir, TMP_KEY_FILE);
  }

  /** The current pair, or undefined when there is none (or it cannot be read). */
  current(): CertPair | undefined {
    if (!existsSync(this.currentPath)) return undefined;
    try {
      return parsePair(readFileSync(this.currentPath, 'utf8'), this.currentPath);
    } catch {
      return undefined;
    }
  }

  /** Writes the issued pair to a new timestamped file and points the current link at it. */
  update(certPem: string, keyPem: string): CertPair {
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    const pair = parsePair(`${certPem}\n${keyPem}`, 'the issued certificate');
    const file = join(this.dir, `${PAIR_PREFIX}-${stamp(this.now())}.pem`);
    writeFileSync(file, pair.certPem + pair.keyPem, { mode: 0o600 });
    this.link(file);
    return pair;
  }

  private link(target: string): void {
    const cur = this.currentPath;
    try {
      if (!lstatSync(cur).isSymbolicLink()) throw new CertStoreError(`expected ${JSON.stringify(cur)} to be a symlink`);
    } catch (err) {
      if (err instanceof CertStoreError) throw err;
    }
    const tmp = `${cur}.tmp-${process.pid}`;
    rmSync(tmp, { force: true });
    symlinkSync(target, tmp);
    renameSync(tmp, cur);
  }
}
