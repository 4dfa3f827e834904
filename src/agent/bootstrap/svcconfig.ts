// The svcconfig files of TLS bootstrap (kube's writeKubeconfigFromBootstrapping
// and isClientConfigStillValid): the file written after bootstrap has the
// bootstrap file's cluster (server, CA data, tls-server-name,
// insecure-skip-tls-verify) as `default-cluster`, the user `default-auth`
// with client-certificate and client-key both the store's
// kubelet-client-current.pem, and `default-context` (namespace default). An
// existing --svcconfig is still valid when it reads and its client
// certificates have not expired; otherwise bootstrap runs again.
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import type { Connection } from '../../webhook/connfile.js';
import { loadSvcconfig } from '../../client/svcconfig.js';

export function bootstrappedSvcconfig(cluster: Connection, pemPath: string): string {
  const server = cluster.server.pathname === '/' ? cluster.server.origin : cluster.server.href;
  return stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'default-cluster', cluster: {
      server,
      ...(cluster.ca ? { 'certificate-authority-data': Buffer.from(cluster.ca).toString('base64') } : {}),
      ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
      ...(cluster.insecureSkipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
    } }],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', namespace: 'default', user: 'default-auth' } }],
    'current-context': 'default-context',
    preferences: {},
    users: [{ name: 'default-auth', user: { 'client-certificate': pemPath, 'client-key': pemPath } }],
  });
}

export function writeBootstrappedSvcconfig(path: string, cluster: Connection, pemPath: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, bootstrappedSvcconfig(cluster, pemPath), { mode: 0o600 });
  renameSync(tmp, path);
}

/** Why the svcconfig at `path` cannot be used as it is (undefined: it can); `now` for tests. */
export async function svcconfigProblem(path: string, now = Date.now()): Promise<string | undefined> {
  if (!existsSync(path)) return `${path} does not exist`;
  let certPem: string | undefined;
  try {
    const cfg = loadSvcconfig(path);
    // an exec plugin's certificate is no file's: kube finds no certificate data either
    certPem = cfg.exec ? undefined : (await cfg.credentials.get()).clientCert;
  } catch (err) {
    return `unable to read existing bootstrap client config from ${path}: ${(err as Error).message}`;
  }
  const certs = certPem?.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (certs.length === 0) return `unable to read TLS certificates from existing bootstrap client config read from ${path}`;
  for (const c of certs) {
    let notAfter: number;
    try {
      notAfter = Date.parse(new X509Certificate(c).validTo);
    } catch (err) {
      return `unable to load TLS certificates from existing bootstrap client config read from ${path}: ${(err as Error).message}`;
    }
    if (now > notAfter) return `part of the existing bootstrap client certificate in ${path} is expired: ${new Date(notAfter).toISOString()}`;
  }
  return undefined;
}
