// TLS bootstrap as the kubelet does it (pkg/kubelet/certificate/bootstrap
// LoadClientCert): when the --svcconfig file is missing or its client
// certificate is unusable, the --bootstrap-svcconfig (a bootstrap token,
// usually) is used to ask for a kubelet client certificate:
//
//   key: the current pair's, else kubelet-client.key.tmp (made once, kept
//        until the certificate is issued, so a restart asks with the same key)
//   → wait for the server's /healthz (up to a minute; go on regardless)
//   → CSR node-csr-<digest> for CN=system:node:<name>, O=system:nodes,
//     signer svc.io/kube-apiserver-client-kubelet (the approver approves it
//     after a SubjectAccessReview of nodeclient; the signer issues it)
//   → watch until issued (an hour at most; denied or failed is an error)
//   → kubelet-client-<timestamp>.pem + the kubelet-client-current.pem link,
//     the .tmp key removed, --svcconfig written pointing at the link.
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { ApiHttp } from '../../client/http.js';
import { loadSvcconfig } from '../../client/svcconfig.js';
import { CertStore } from './store.js';
import { clientUsages, digestedName, generateKeyPem, nodeCommonName, nodeRequestPem, NODES_ORG, parseKey } from './request.js';
import { KUBELET_CLIENT_SIGNER, requestCertificate, waitForCertificate } from './csr.js';
import { svcconfigProblem, writeBootstrappedSvcconfig } from './svcconfig.js';

export class BootstrapError extends Error {
  override readonly name = 'BootstrapError';
}

export interface BootstrapOptions {
  /** --svcconfig: read when valid, written after bootstrap. */
  readonly svcconfigPath: string;
  /** --bootstrap-svcconfig. */
  readonly bootstrapSvcconfigPath: string;
  /** --cert-dir. */
  readonly certDir: string;
  readonly nodeName: string;
  /** How long to wait for the server's /healthz before asking anyway (kube: a minute). */
  readonly waitForServerMs?: number;
  /** How long to wait for the certificate (kube: an hour). */
  readonly timeoutMs?: number;
  readonly log?: (msg: string) => void;
}

export interface BootstrapResult {
  /** False when the svcconfig was valid and nothing was asked for. */
  readonly bootstrapped: boolean;
  /** The reason the svcconfig was not used as it was. */
  readonly reason?: string;
}

/** Makes sure --svcconfig holds a usable client certificate, bootstrapping one when it does not. */
export async function loadClientCertificate(opts: BootstrapOptions): Promise<BootstrapResult> {
  const log = opts.log ?? (() => {});
  const reason = await svcconfigProblem(opts.svcconfigPath);
  if (!reason) {
    log(`svcconfig ${opts.svcconfigPath} exists and is valid, skipping bootstrap`);
    return { bootstrapped: false };
  }
  log(`using bootstrap svcconfig to generate TLS client cert, key and svcconfig file (${reason})`);
  let bootstrap;
  try {
    bootstrap = loadSvcconfig(opts.bootstrapSvcconfigPath);
  } catch (err) {
    throw new BootstrapError(`unable to load bootstrap svcconfig: ${(err as Error).message}`);
  }
  const store = new CertStore(opts.certDir);
  mkdirSync(opts.certDir, { recursive: true, mode: 0o755 });
  // the current pair's key when it has one; else the cached request key, made once
  let keyPem = store.current()?.keyPem;
  if (!keyPem || !parseKey(keyPem)) {
    const cached = existsSync(store.tmpKeyPath) ? readFileSync(store.tmpKeyPath, 'utf8') : undefined;
    keyPem = cached && parseKey(cached) ? cached : generateKeyPem();
    if (keyPem !== cached) writeFileSync(store.tmpKeyPath, keyPem, { mode: 0o600 });
  }
  const key = parseKey(keyPem)!;
  const http = new ApiHttp(bootstrap.connection, { credentials: bootstrap.credentials, userAgent: `svc-agent/${opts.nodeName} (bootstrap)` });
  try {
    if (!(await waitForServer(http, opts.waitForServerMs ?? 60_000))) log('timed out waiting to connect to apiserver');
    const usages = clientUsages(key);
    const { name, uid } = await requestCertificate(http, {
      requestPem: await nodeRequestPem(key, opts.nodeName), key, usages, signerName: KUBELET_CLIENT_SIGNER,
      name: digestedName(key, nodeCommonName(opts.nodeName), [NODES_ORG], usages),
    });
    log(`waiting for client certificate ${name} to be issued`);
    const certPem = await waitForCertificate(http, name, uid, { timeoutMs: opts.timeoutMs ?? 3_600_000 });
    store.update(certPem, keyPem);
  } finally {
    http.close();
  }
  rmSync(store.tmpKeyPath, { force: true });
  writeBootstrappedSvcconfig(opts.svcconfigPath, bootstrap.connection, store.currentPath);
  return { bootstrapped: true, reason };
}

/** Polls /healthz every 2 s until it answers 200 or the time is up. */
async function waitForServer(http: ApiHttp, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if ((await http.call('GET', '/healthz')).status === 200) return true;
    } catch {
      // not up yet
    }
    if (Date.now() + 2000 > deadline) return false;
    await new Promise((r) => setTimeout(r, 2000));
  }
}
