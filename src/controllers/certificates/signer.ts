// The CSR signing controller (kube's pkg/controller/certificates/signer, v1.27):
// an Approved, not Failed, not yet issued request for one of the built-in
// signers — kube-apiserver-client, kube-apiserver-client-kubelet,
// kubelet-serving, legacy-unknown, in the svc.io or kubernetes.io spelling —
// is signed with the cluster CA: valid for --cluster-signing-duration (one
// year) or the request's spec.expirationSeconds if shorter (never under ten
// minutes, never past the CA), with the request's usages. A request the
// signer refuses (a kubelet request that is not one, a client certificate
// asking for other usages) gets the Failed condition (SignerValidationFailure
// and the reason). Acts as service account certificate-controller; the
// status write meets the CertificateSigning admission plugin, which checks
// that the controller may `sign` for the signer.
import type { ApiObject } from '../../registry/object.js';
import { isObject, nowTimestamp } from '../../registry/object.js';
import { signCertificateRequest, type PemKeyPair } from '../../server/pki.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient, Target } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { isReason } from '../informer.js';
import { CERTIFICATE_CONTROLLER } from './approver.js';
import { decodeRequest, hasCertificate, hasCondition, kubeletClientError, kubeletServingError, signerKind, specOf, type DecodedRequest, type SignerKind } from './request.js';

const GROUP = 'certificates.svc.io';
const STATUS: Target = { group: GROUP, version: 'v1', resource: 'certificatesigningrequests', subresource: 'status' };
const YEAR_SECONDS = 365 * 24 * 3600;
const MIN_SECONDS = 600;

export interface CsrSignerOptions {
  readonly ca: PemKeyPair;
  /** --cluster-signing-duration in seconds (default one year). */
  readonly durationSeconds?: number;
  readonly now?: () => number;
}

const CLIENT_USAGES = ['digital signature', 'key encipherment', 'client auth'];

/** Why the signer refuses the request, undefined when it signs it (kube's per-signer isRequestForSignerFn). */
export function refusal(kind: SignerKind, csr: ApiObject, req: DecodedRequest): string | undefined {
  switch (kind) {
    case 'kube-apiserver-client-kubelet': return kubeletClientError(csr, req);
    case 'kubelet-serving': return kubeletServingError(csr, req);
    case 'kube-apiserver-client': {
      const usages = Array.isArray(specOf(csr).usages) ? (specOf(csr).usages as string[]) : [];
      const bad = usages.filter((u) => !CLIENT_USAGES.includes(u));
      return bad.length > 0 ? `invalid usage for client certificate: ${bad[0]}` : undefined;
    }
    case 'legacy-unknown': return undefined;
  }
}

export class CsrSigner implements Controller {
  private readonly client: ControllerClient;
  private readonly csrs: SharedInformer;
  private readonly queue: WorkQueue<string>;
  private readonly now: () => number;

  constructor(ctx: ControllerContext, private readonly opts: CsrSignerOptions) {
    this.client = ctx.client(CERTIFICATE_CONTROLLER);
    this.csrs = ctx.informers.informer(GROUP, 'certificatesigningrequests');
    this.now = opts.now ?? Date.now;
    this.queue = new WorkQueue((name) => this.sync(name), { retryMs: 2000, onError: (k, err) => console.error(`csr signer: ${k} failed; will retry`, err) });
  }

  async start(): Promise<void> {
    const enqueue = (c: ApiObject) => this.queue.add(c.metadata.name!, c.metadata.name!);
    this.csrs.addHandler({ onAdd: enqueue, onUpdate: (_o, c) => enqueue(c) });
    await this.csrs.start();
  }

  stop(): void {
    this.queue.stop();
  }

  private async sync(name: string): Promise<boolean> {
    const csr = this.csrs.get('', name);
    if (!csr || !hasCondition(csr, 'Approved') || hasCondition(csr, 'Failed') || hasCondition(csr, 'Denied') || hasCertificate(csr)) return true;
    const kind = signerKind(String(specOf(csr).signerName ?? ''));
    if (!kind) return true; // another signer's
    let req: DecodedRequest;
    try {
      req = decodeRequest(csr);
    } catch (err) {
      return this.fail(name, `unable to parse csr "${name}": ${(err as Error).message}`);
    }
    const why = refusal(kind, csr, req);
    if (why) return this.fail(name, why);
    const now = this.now();
    const wanted = specOf(csr).expirationSeconds;
    const seconds = Math.min(this.opts.durationSeconds ?? YEAR_SECONDS, typeof wanted === 'number' ? Math.max(wanted, MIN_SECONDS) : Infinity);
    const usages = Array.isArray(specOf(csr).usages) ? (specOf(csr).usages as string[]) : [];
    const certificate = await signCertificateRequest(this.opts.ca, req.request, usages, new Date(now + seconds * 1000), new Date(now));
    await this.writeStatus(name, (status) => ({ ...status, certificate: Buffer.from(certificate).toString('base64') }));
    return true;
  }

  private async fail(name: string, message: string): Promise<boolean> {
    await this.writeStatus(name, (status) => ({
      ...status,
      conditions: [...(Array.isArray(status.conditions) ? status.conditions : []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message, lastUpdateTime: nowTimestamp(this.now()), lastTransitionTime: nowTimestamp(this.now()) }],
    }));
    return true;
  }

  private async writeStatus(name: string, change: (status: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    try {
      await this.client.update(STATUS, '', name, (cur) => {
        if (hasCertificate(cur) || hasCondition(cur, 'Failed')) return cur;
        return { ...cur, status: change(isObject(cur.status) ? cur.status : {}) };
      });
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
  }
}

export const startCsrSigner = (ctx: ControllerContext, opts: CsrSignerOptions): Controller => new CsrSigner(ctx, opts);
