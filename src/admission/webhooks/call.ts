// One webhook call (the part both of kube's dispatchers share in callHook):
// dry-run safety, the review version, the POST through the CallbackCaller with
// the webhook's time-out, then the answer decoded and verified. Every failure
// of the call itself is a CallingWebhookError (failurePolicy decides); a dry
// run to a webhook with side effects is refused outright.
import type { CallbackCaller } from './caller.js';
import { CallingWebhookError, dryRunUnsupported } from './errors.js';
import { randomUUID } from 'node:crypto';
import { InvalidReviewError, NO_KNOWN_REVIEW_VERSION, reviewText, reviewVersionFor, UnsupportedPatchTypeError, verifyAnswer, type ReviewAnswer, type ReviewInput } from './review.js';
import { unexpectedStatusMessage } from './httpstatus.js';
import { decodeAnswerBody } from './answerbody.js';
import type { Webhook } from './types.js';

export type CallInput = Omit<ReviewInput, 'version'>;

/** `<configuration>/<webhook>` per (frozen) webhook, made once: the client's limiter key (a new string per call would be hashed per call). */
const keys = new WeakMap<Webhook, string>();
function keyOf(w: Webhook): string {
  let key = keys.get(w);
  if (key === undefined) keys.set(w, (key = `${w.configuration}/${w.name}`));
  return key;
}

export async function callWebhook(caller: CallbackCaller, w: Webhook, input: CallInput): Promise<ReviewAnswer> {
  if (input.dryRun) {
    if (w.sideEffects === undefined) throw new CallingWebhookError(w.name, 'Webhook SideEffects is nil');
    if (w.sideEffects !== 'None' && w.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(w.name);
  }
  const version = reviewVersionFor(w.admissionReviewVersions);
  if (!version) throw new CallingWebhookError(w.name, `could not create admission objects: ${NO_KNOWN_REVIEW_VERSION}`);
  const uid = randomUUID();
  const body = reviewText(input, version, uid);
  let status: number;
  let answerBody: Buffer;
  let contentType: string | undefined;
  try {
    ({ status, body: answerBody, contentType } = await caller.call({ config: w.clientConfig, body, timeoutMs: w.timeoutSeconds * 1000, key: keyOf(w) }));
  } catch (err) {
    throw new CallingWebhookError(w.name, `failed to call webhook: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (status < 200 || status > 299) throw new CallingWebhookError(w.name, `failed to call webhook: ${unexpectedStatusMessage(status, answerBody)}`);
  let decoded: unknown;
  try {
    decoded = decodeAnswerBody(answerBody, status, contentType);
  } catch (err) {
    throw new CallingWebhookError(w.name, `failed to call webhook: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return verifyAnswer(version, uid, w.kind === 'mutating', decoded);
  } catch (err) {
    if (err instanceof UnsupportedPatchTypeError) throw new CallingWebhookError(w.name, err.message);
    if (err instanceof InvalidReviewError) throw new CallingWebhookError(w.name, `received invalid webhook response: ${err.message}`);
    throw err;
  }
}
