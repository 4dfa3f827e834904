// The errors of a webhook call (kube's webhook/errors and util's
// ErrCallingWebhook / ErrWebhookRejection):
//   CallingWebhookError   the call failed (network, time-out, non-200, bad
//                         answer, no usable review version): failurePolicy
//                         decides; under Fail it is a 500 InternalError
//                         "failed calling webhook \"x\": <reason>"
//   rejection             the webhook answered allowed: false → the Status
//                         of toStatusError (403 unless the answer says)
// Errors that are neither (a patch that does not apply, dry run refused)
// fail the request whatever the failurePolicy.
import { StatusError, newBadRequest, newInternalError, type Status } from '../../api/meta/index.js';

export class CallingWebhookError extends Error {
  override readonly name = 'CallingWebhookError';
  constructor(readonly webhook: string, readonly reason: string) {
    super(`failed calling webhook ${JSON.stringify(webhook)}: ${reason}`);
  }
}

/** What a failing-closed call answers: 500 with the call's error. */
export const failedClosed = (err: CallingWebhookError): StatusError => newInternalError(err);

/** kube's NewDryRunUnsupportedErr. */
export const dryRunUnsupported = (webhook: string): StatusError => newBadRequest(`admission webhook ${JSON.stringify(webhook)} does not support dry run`);

type AnswerStatus = Partial<Pick<Status, 'code' | 'message' | 'reason' | 'details' | 'status'>> & Record<string, unknown>;

/**
 * kube's ToStatusErr: the denial's status with its code raised to 400 at
 * least, status Failure, and the message prefixed with the webhook's name
 * (its reason when there is no message, "without explanation" otherwise).
 */
export function toStatusError(webhook: string, result: unknown): StatusError {
  const r: AnswerStatus = result !== null && typeof result === 'object' && !Array.isArray(result) ? { ...(result as AnswerStatus) } : {};
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = typeof r.message === 'string' && r.message !== '' ? `${deniedBy}: ${r.message}`
    : typeof r.reason === 'string' && r.reason !== '' ? `${deniedBy}: ${r.reason}`
      : `${deniedBy} without explanation`;
  const status: Status = {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message,
    ...(typeof r.reason === 'string' && r.reason !== '' ? { reason: r.reason } : {}),
    ...(r.details !== null && typeof r.details === 'object' ? { details: r.details as Status['details'] } : {}),
    code,
  } as Status;
  return new StatusError(status);
}
