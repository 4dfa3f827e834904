// API-server mode's start (what `svc agent --svcconfig` does before its
// parts run): TLS bootstrap when --bootstrap-svcconfig is given and the
// svcconfig is missing or unusable, then the AgentApi over HTTPS as the node,
// and — with rotateCertificates, when the svcconfig's certificate is the
// store's kubelet-client-current.pem — its renewal before expiry.
import { X509Certificate } from 'node:crypto';
import { resolve } from 'node:path';
import { loadSvcconfig, type ClientConfig } from '../../client/svcconfig.js';
import type { AgentApi } from '../api.js';
import { CertStore, ClientCertificateRotation, loadClientCertificate } from '../bootstrap/index.js';
import { remoteAgentApi } from './remote.js';

export interface ConnectOptions {
  /** --svcconfig. */
  readonly svcconfigPath: string;
  /** --bootstrap-svcconfig. */
  readonly bootstrapSvcconfigPath?: string;
  /** --cert-dir. */
  readonly certDir: string;
  readonly nodeName: string;
  /** KubeletConfiguration rotateCertificates. */
  readonly rotateCertificates?: boolean;
  readonly log?: (msg: string) => void;
}

export interface Connected {
  readonly api: AgentApi;
  /** Running when the certificate is renewed by this process. */
  readonly rotation?: ClientCertificateRotation;
  close(): void;
}

export async function connectAgent(opts: ConnectOptions): Promise<Connected> {
  if (opts.bootstrapSvcconfigPath) {
    await loadClientCertificate({
      svcconfigPath: opts.svcconfigPath, bootstrapSvcconfigPath: opts.bootstrapSvcconfigPath, certDir: opts.certDir, nodeName: opts.nodeName,
      ...(opts.log ? { log: opts.log } : {}),
    });
  }
  const config = loadSvcconfig(opts.svcconfigPath);
  const api = remoteAgentApi(config, opts.nodeName);
  let rotation: ClientCertificateRotation | undefined;
  const store = new CertStore(resolve(opts.certDir));
  const ownsCertificate = opts.rotateCertificates === true && !config.exec && await sameLeaf(config, store);
  if (ownsCertificate) {
    rotation = new ClientCertificateRotation({ store, cluster: config.connection, nodeName: opts.nodeName, ...(opts.log ? { log: opts.log } : {}) });
    rotation.start();
  }
  return {
    api, ...(rotation ? { rotation } : {}),
    close() {
      rotation?.stop();
      api.close();
    },
  };
}

/** Whether the svcconfig presents the store's current certificate. */
async function sameLeaf(config: ClientConfig, store: CertStore): Promise<boolean> {
  const current = store.current();
  if (!current) return false;
  try {
    const block = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec((await config.credentials.get()).clientCert ?? '')?.[0];
    return block !== undefined && new X509Certificate(block).serialNumber === current.leaf.serialNumber;
  } catch {
    return false;
  }
}
