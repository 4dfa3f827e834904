// The admin kubeconfig ("svcconfig") the all-in-one server writes into its
// data directory on every start: a standard client config (apiVersion v1,
// kind Config) with the CA, server URL and admin client certificate inlined,
// so `kubectl --kubeconfig <dataDir>/admin.svcconfig get ns` works at once.
// It holds a private key, so it is written 0600.
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ADMIN_USER, writeAtomic, type PemKeyPair, type Pki } from './pki.js';

export const ADMIN_KUBECONFIG = 'admin.svcconfig';

export interface Kubeconfig {
  readonly apiVersion: 'v1';
  readonly kind: 'Config';
  readonly clusters: readonly {
    readonly name: string;
    readonly cluster: { readonly server: string; readonly 'certificate-authority-data': string };
  }[];
  readonly users: readonly {
    readonly name: string;
    readonly user: { readonly 'client-certificate-data': string; readonly 'client-key-data': string };
  }[];
  readonly contexts: readonly { readonly name: string; readonly context: { readonly cluster: string; readonly user: string } }[];
  readonly 'current-context': string;
  readonly preferences: Record<string, never>;
}

export interface KubeconfigOptions {
  /** https://host:port */
  readonly server: string;
  /** PEM of the CA that signed the serving certificate. */
  readonly caCert: string;
  /** PEM client certificate and key. */
  readonly client: PemKeyPair;
  /** Defaults: cluster "svc", user "admin", context "<user>@<cluster>". */
  readonly clusterName?: string;
  readonly userName?: string;
}

export function buildKubeconfig(opts: KubeconfigOptions): Kubeconfig {
  const cluster = opts.clusterName ?? 'svc';
  const user = opts.userName ?? ADMIN_USER.name;
  const context = `${user}@${cluster}`;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server: opts.server, 'certificate-authority-data': base64(opts.caCert) } }],
    users: [{
      name: user,
      user: { 'client-certificate-data': base64(opts.client.cert), 'client-key-data': base64(opts.client.key) },
    }],
    contexts: [{ name: context, context: { cluster, user } }],
    'current-context': context,
    preferences: {},
  };
}

export function renderKubeconfig(config: Kubeconfig): string {
  return stringify(config, { lineWidth: 0 });
}

/** `https://host:port`, with an IPv6 host in brackets. */
export function serverUrl(host: string, port: number): string {
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export interface AdminKubeconfigOptions {
  readonly dataDir: string;
  readonly port: number;
  /** Defaults to 127.0.0.1, which the serving certificate always covers. */
  readonly host?: string;
  readonly pki: Pick<Pki, 'ca' | 'admin'>;
}

/** Writes <dataDir>/admin.svcconfig and returns its path. */
export async function writeAdminKubeconfig(opts: AdminKubeconfigOptions): Promise<string> {
  const file = join(opts.dataDir, ADMIN_KUBECONFIG);
  const config = buildKubeconfig({
    server: serverUrl(opts.host ?? '127.0.0.1', opts.port), caCert: opts.pki.ca.cert, client: opts.pki.admin,
  });
  await writeAtomic(file, renderKubeconfig(config), 0o600);
  return file;
}

function base64(pem: string): string {
  return Buffer.from(pem, 'utf8').toString('base64');
}
