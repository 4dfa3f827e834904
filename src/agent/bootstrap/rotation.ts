// Renewal of the node's client certificate before it expires (client-go's
// certificate manager, as the kubelet runs it): the deadline is the current
// certificate's notBefore plus 70–90 % of its lifetime (jittered, so nodes do
// not all renew at once); then a new ECDSA key, a CSR (generateName csr-)
// sent AS the node with the current certificate — the approver's
// selfnodeclient path — watched until issued, and the new pair written to
// the store (the current link moves; clients reading the svcconfig's files
// pick it up at their next request). A failed renewal is tried again after
// 2, 4, 8, 16, 32 s, then every 32 s.
//
//   ┌──────────┐ deadline ┌─────────┐ issued ┌─────────┐
//   │ sleeping │ ───────► │ renewing│ ─────► │ written │ ──► sleeping (new deadline)
//   └──────────┘          └─────────┘        └─────────┘
//                           │ error ▲
//                           └───────┘ backoff
import { ApiHttp } from '../../client/http.js';
import { fileCredentials } from '../../client/credentials.js';
import type { Connection } from '../../webhook/connfile.js';
import type { CertPair, CertStore } from './store.js';
import { clientUsages, generateKeyPem, nodeRequestPem, parseKey } from './request.js';
import { KUBELET_CLIENT_SIGNER, requestCertificate, waitForCertificate } from './csr.js';

/** setTimeout's longest wait; longer waits are taken in pieces. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const BACKOFF_STEPS = [2000, 4000, 8000, 16000, 32000];

export interface RotationOptions {
  readonly store: CertStore;
  /** The cluster (server, CA) from the node's svcconfig. */
  readonly cluster: Connection;
  readonly nodeName: string;
  readonly now?: () => number;
  readonly random?: () => number;
  /** The waits between failed attempts (the last repeats). */
  readonly backoffMs?: readonly number[];
  readonly waitTimeoutMs?: number;
  readonly onRotated?: (pair: CertPair) => void;
  readonly log?: (msg: string) => void;
}

/** kube's rotation deadline: notBefore + lifetime × (0.7 + 0.2 × random). */
export function rotationDeadline(pair: Pick<CertPair, 'notBefore' | 'notAfter'>, random: () => number = Math.random): number {
  const total = pair.notAfter - pair.notBefore;
  return pair.notBefore + total * 0.7 + total * 0.2 * random();
}

export class ClientCertificateRotation {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly http: ApiHttp;

  constructor(private readonly opts: RotationOptions) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    const pem = opts.store.currentPath;
    this.http = new ApiHttp(opts.cluster, { credentials: fileCredentials({ certFile: pem, keyFile: pem }), userAgent: `svc-agent/${opts.nodeName} (certificate rotation)` });
  }

  /** The next deadline of the current certificate; undefined without one. */
  nextDeadline(): number | undefined {
    const cur = this.opts.store.current();
    return cur ? rotationDeadline(cur, this.random) : undefined;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.http.close();
  }

  private schedule(failures: number): void {
    if (this.stopped) return;
    const deadline = this.nextDeadline();
    if (deadline === undefined) {
      this.opts.log?.('no client certificate to rotate');
      return;
    }
    const backoff = this.opts.backoffMs ?? BACKOFF_STEPS;
    const wait = failures > 0 ? backoff[Math.min(failures, backoff.length) - 1]! : Math.max(0, deadline - this.now());
    this.timer = setTimeout(() => {
      if (failures === 0 && wait > MAX_TIMER_MS) return this.schedule(0); // a piece of a long wait
      this.rotate().then(() => this.schedule(0), (err: Error) => {
        this.opts.log?.(`certificate rotation failed: ${err.message}`);
        this.schedule(failures + 1);
      });
    }, Math.min(wait, MAX_TIMER_MS));
    this.timer.unref();
  }

  /** One renewal now: a new key, a CSR as the node, the issued pair written. */
  async rotate(): Promise<CertPair> {
    const keyPem = generateKeyPem();
    const key = parseKey(keyPem)!;
    const usages = clientUsages(key);
    const { name, uid } = await requestCertificate(this.http, {
      requestPem: await nodeRequestPem(key, this.opts.nodeName), key, usages, signerName: KUBELET_CLIENT_SIGNER, name: '',
    });
    this.opts.log?.(`waiting for the renewed client certificate ${name}`);
    const certPem = await waitForCertificate(this.http, name, uid, { timeoutMs: this.opts.waitTimeoutMs ?? 3_600_000 });
    const pair = this.opts.store.update(certPem, keyPem);
    this.opts.onRotated?.(pair);
    return pair;
  }
}
