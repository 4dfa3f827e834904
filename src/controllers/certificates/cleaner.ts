// The CSR cleaner (kube's pkg/controller/certificates/cleaner, v1.27): every
// `periodMs` (kube's pollingInterval, one hour) the CertificateSigningRequests
// are looked at and deleted when
//   - issued (Approved, with a certificate) and approved more than an hour ago,
//     or their certificate has expired;
//   - Denied or Failed more than an hour ago (the condition's lastUpdateTime);
//   - still pending (no condition) 24 hours after their creation.
// Acts as service account certificate-controller, as kube's.
import { X509Certificate } from 'node:crypto';
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { Controller, ControllerContext } from '../context.js';
import type { ControllerClient, Target } from '../client.js';
import type { SharedInformer } from '../shared.js';
import { isReason } from '../informer.js';
import { CERTIFICATE_CONTROLLER } from './approver.js';

const GROUP = 'certificates.svc.io';
const CSRS: Target = { group: GROUP, version: 'v1', resource: 'certificatesigningrequests' };
const HOUR = 3_600_000;
const APPROVED_EXPIRATION = HOUR;
const DENIED_EXPIRATION = HOUR;
const PENDING_EXPIRATION = 24 * HOUR;

type Condition = { type?: string; lastUpdateTime?: string };

const conditionsOf = (csr: ApiObject): Condition[] =>
  isObject(csr.status) && Array.isArray(csr.status.conditions) ? (csr.status.conditions as Condition[]) : [];
const certificateOf = (csr: ApiObject): string | undefined =>
  isObject(csr.status) && typeof csr.status.certificate === 'string' && csr.status.certificate !== '' ? csr.status.certificate : undefined;
/** A set time at least `ms` before now (kube's isOlderThan; an unset time is never old). */
const olderThan = (t: string | undefined, ms: number, now: number) => t !== undefined && t !== '' && now - Date.parse(t) > ms;

/** Whether the cleaner deletes this request now, and why (kube's reasons, for the log). */
export function cleanupReason(csr: ApiObject, now: number): string | undefined {
  const conditions = conditionsOf(csr);
  const cert = certificateOf(csr);
  const approved = conditions.filter((c) => c.type === 'Approved');
  if (cert && approved.length > 0) {
    if (certificateExpired(cert, now)) return 'the associated certificate is expired';
    if (approved.some((c) => olderThan(c.lastUpdateTime, APPROVED_EXPIRATION, now))) return 'it is more than 1h0m0s old and approved';
  }
  if (conditions.some((c) => c.type === 'Denied' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION, now))) return 'it is more than 1h0m0s old and denied';
  if (conditions.some((c) => c.type === 'Failed' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION, now))) return 'it is more than 1h0m0s old and failed';
  if (conditions.length === 0 && olderThan(csr.metadata.creationTimestamp ?? undefined, PENDING_EXPIRATION, now)) return 'it is more than 24h0m0s old and unhandled';
  return undefined;
}

/** The issued certificate's NotAfter has passed (a certificate that does not parse is not judged). */
function certificateExpired(b64: string, now: number): boolean {
  try {
    return Date.parse(new X509Certificate(Buffer.from(b64, 'base64')).validTo) < now;
  } catch {
    return false;
  }
}

export interface CsrCleanerOptions {
  readonly periodMs?: number;
  readonly now?: () => number;
}

export class CsrCleaner implements Controller {
  private readonly client: ControllerClient;
  private readonly csrs: SharedInformer;
  private readonly periodMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(ctx: ControllerContext, opts: CsrCleanerOptions = {}) {
    this.client = ctx.client(CERTIFICATE_CONTROLLER);
    this.csrs = ctx.informers.informer(GROUP, 'certificatesigningrequests');
    this.periodMs = opts.periodMs ?? HOUR;
    this.now = opts.now ?? Date.now;
  }

  async start(): Promise<void> {
    await this.csrs.start();
    void this.clean();
    this.timer = setInterval(() => void this.clean(), this.periodMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One pass (also for tests); passes never overlap. */
  clean(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    const now = this.now();
    for (const csr of this.csrs.list()) {
      const reason = cleanupReason(csr, now);
      if (!reason) continue;
      try {
        await this.client.delete(CSRS, '', csr.metadata.name!, { preconditions: { uid: csr.metadata.uid } });
        console.error(`I csrcleaner: cleaning CSR "${csr.metadata.name}" as ${reason}`);
      } catch (err) {
        if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) console.error(`E csrcleaner: unable to delete CSR "${csr.metadata.name}"`, err);
      }
    }
  }
}

export const startCsrCleaner = (ctx: ControllerContext, opts?: CsrCleanerOptions): Controller | undefined =>
  ctx.registry.has(GROUP, 'certificatesigningrequests') ? new CsrCleaner(ctx, opts) : undefined;
