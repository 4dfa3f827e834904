// The `Webhook` strategy (kube's webhookConverter.Convert): the objects not
// yet in the target version go to the CRD's conversion webhook in one
// ConversionReview, and what comes back is checked as kube checks it.
//
//   objects ──► not in the target version? ──none──► returned as they are
//                    │ some
//                    ▼
//   POST ConversionReview (fresh uid) through the callback client, 30 s
//                    │
//   2xx? decoded? review type, response, uid, result Success?
//                    │                     (else: "conversion webhook for <gvk> failed: …")
//   as many converted objects as sent?     ("… returned N objects, expected M")
//                    │
//   each: an object with a kind, in the target group-version, same kind,
//   name, namespace, uid; metadata restored but labels and annotations
//                    │                     ("… returned invalid [converted] object …")
//                    ▼
//   the objects in the target version, in the order given
//
// A single object and a list word their errors differently, as kube's do
// (`object` vs `converted object at index i`, whose index counts from 1 after
// the object's own decoding, as kube prints it).
import { randomUUID } from 'node:crypto';
import { decodeAnswerBody } from '../../admission/webhooks/answerbody.js';
import { unexpectedStatusMessage } from '../../admission/webhooks/httpstatus.js';
import type { CallbackCaller, CallbackConfig } from '../../webhook/callback.js';
import { buildReview, convertedObjectsOf, ReviewAnswerError, type ConversionReviewVersion } from './review.js';
import { convertedObjectError, restoreObjectMeta } from './restore.js';
import { CrConversionError, gvString, parseGroupVersion, stringField, type GroupVersion } from './versions.js';

/** kube's conversion webhooks have no configurable time-out: the webhook client's 30 seconds. */
export const CONVERSION_WEBHOOK_TIMEOUT_MS = 30_000;

export interface WebhookCall {
  readonly caller: CallbackCaller;
  /** The CRD's clientConfig (frozen: the callback client prepares it once). */
  readonly config: CallbackConfig;
  /** The review version to send; undefined when the CRD names none this server speaks. */
  readonly version: ConversionReviewVersion | undefined;
  /** Pooling and concurrency key of the callback client. */
  readonly key: string;
  readonly timeoutMs: number;
  readonly newUid: () => string;
}

export const defaultUid = (): string => randomUUID();

/**
 * `objects` in the target version `to` (already checked against the CRD's
 * versions). `gvk` is the printed group-version-kind of what is converted (the
 * object's, or the list's); `list` selects kube's list wording.
 */
export async function convertByWebhook(call: WebhookCall, objects: readonly object[], to: GroupVersion, opts: { gvk: string; list: boolean }): Promise<object[]> {
  const toText = gvString(to);
  const { gvk, list } = opts;
  // kube's special case: an object with nothing but apiVersion and kind converts as None would.
  if (!list && objects.length === 1 && isEmptyObject(objects[0]!)) return [{ ...objects[0]!, apiVersion: toText }];
  const pending: number[] = [];
  objects.forEach((o, i) => {
    if (gvString(parseGroupVersion((o as { apiVersion?: unknown }).apiVersion)) !== toText) pending.push(i);
  });
  if (!call.version) throw new CrConversionError('no supported conversion review versions');
  if (pending.length === 0) return [...objects];

  const uid = call.newUid();
  const body = buildReview(call.version, uid, toText, pending.map((i) => objects[i]!));
  const failed = (why: string) => new CrConversionError(`conversion webhook for ${gvk} failed: ${why}`);
  let answer: unknown;
  try {
    const r = await call.caller.call({ config: call.config, body, timeoutMs: call.timeoutMs, key: call.key });
    // client-go: 200–206 are results; anything else is an error of the request.
    if (r.status < 200 || r.status > 206) throw failed(unexpectedStatusMessage(r.status, r.body));
    answer = decodeAnswerBody(r.body, r.status, r.contentType);
  } catch (err) {
    if (err instanceof CrConversionError) throw err;
    throw failed(err instanceof Error ? err.message : String(err));
  }
  let converted: unknown[];
  try {
    converted = convertedObjectsOf(call.version, uid, answer);
  } catch (err) {
    if (err instanceof ReviewAnswerError) throw failed(err.message);
    throw err;
  }
  if (converted.length !== pending.length) throw new CrConversionError(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${pending.length}`);

  const out = [...objects];
  pending.forEach((at, n) => {
    const original = objects[at]!;
    const invalid = list
      ? (index: number, why: string) => new CrConversionError(`conversion webhook for ${gvk} returned invalid converted object at index ${index}: ${why}`)
      : (_index: number, why: string) => new CrConversionError(`conversion webhook for ${gvk} returned invalid object at index 0: ${why}`);
    const item = unstructured(converted[n]);
    if (typeof item === 'string') {
      // kube: the list wording; a single object's decoding error is returned bare.
      throw list ? invalid(n, item) : new CrConversionError(item);
    }
    // kube counts a list's index from here on one higher.
    const index = list ? n + 1 : 0;
    const gv = gvString(parseGroupVersion(item.apiVersion));
    if (gv !== toText) throw invalid(index, `invalid groupVersion (expected ${toText}, received ${gv})`);
    const kind = stringField(original, 'kind');
    if (item.kind !== kind) throw invalid(index, `invalid kind (expected ${kind}, received ${String(item.kind)})`);
    const mismatch = convertedObjectError(original, item);
    if (mismatch) throw new CrConversionError(list ? `conversion webhook for ${gvk} returned invalid converted object at index ${index}: ${mismatch}` : `conversion webhook for ${gvk} returned invalid object: ${mismatch}`);
    try {
      out[at] = restoreObjectMeta(original, item);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new CrConversionError(list ? `conversion webhook for ${gvk} returned invalid metadata in object at index ${index}: ${why}` : `conversion webhook for ${gvk} returned invalid metadata: ${why}`);
    }
  });
  return out;
}

/** An element of convertedObjects as Unstructured reads it: an object with a kind, or the decoding error's text. */
function unstructured(v: unknown): Record<string, unknown> & { kind: string } | string {
  // RawExtension keeps no bytes for null: decoding nothing.
  if (v === null || v === undefined) return 'unexpected end of JSON input';
  if (typeof v !== 'object' || Array.isArray(v)) return `json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v} into Go value of type map[string]interface {}`;
  const o = v as Record<string, unknown>;
  if (typeof o.kind !== 'string' || o.kind === '') return `Object 'Kind' is missing in '${JSON.stringify(v)}'`;
  return o as Record<string, unknown> & { kind: string };
}

/** Only apiVersion and kind (kube's isEmptyUnstructuredObject). */
function isEmptyObject(o: object): boolean {
  const keys = Object.keys(o);
  return keys.length === 2 && keys.includes('apiVersion') && keys.includes('kind');
}
