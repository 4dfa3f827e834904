// ConversionReview out and back (kube's webhook_converter.go with the
// webhook client's decoding of the answer).
//
// Out: `apiextensions.k8s.io/v1` or `v1beta1`, the first of the CRD's
// conversionReviewVersions this server speaks, in the k8s.io spelling stock
// webhooks expect, with kube's field order and the empty response kube sends
// beside the request.
//
// Back: the answer is decoded into the review type sent. Its kind and
// apiVersion pick the Go type: another version of the review cannot be
// converted, another kind is not registered (the svc.io spelling is taken as
// k8s.io's, as for every review we send); absent ones default to the type sent.
// Fields of the wrong JSON type fail as Go's decoder words it. A v1 answer must
// then name apiextensions.k8s.io/v1 ConversionReview, have a response and echo
// the uid; v1beta1 needs only a response. A result whose status is not Success
// fails with its message.
import { kubernetesGroup } from '../../endpoints/requestinfo.js';
import { isObject } from '../../registry/object.js';

export const SUPPORTED_CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ConversionReviewVersion = (typeof SUPPORTED_CONVERSION_REVIEW_VERSIONS)[number];

const GROUP = 'apiextensions.k8s.io';
const KIND = 'ConversionReview';
/** The name Go gives the webhook client's scheme (its call site). */
const SCHEME = 'k8s.io/apiserver/pkg/util/webhook/client.go:69';

/** Why an answer is refused: the text after kube's "conversion webhook for <gvk> failed: ". */
export class ReviewAnswerError extends Error {
  override readonly name = 'ReviewAnswerError';
}

/** The first supported version of the CRD's list, or undefined (kube: "no supported conversion review versions"). */
export function reviewVersionFor(accepted: readonly string[]): ConversionReviewVersion | undefined {
  for (const v of accepted) if ((SUPPORTED_CONVERSION_REVIEW_VERSIONS as readonly string[]).includes(v)) return v as ConversionReviewVersion;
  return undefined;
}

/** The review's JSON text. */
export function buildReview(version: ConversionReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly object[]): string {
  return JSON.stringify({
    kind: KIND,
    apiVersion: `${GROUP}/${version}`,
    request: { uid, desiredAPIVersion, objects },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  });
}

type Json = Record<string, unknown>;

/** encoding/json's name for a JSON value's type in an UnmarshalTypeError. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'number' ? 'number' : 'string';
}

function typeError(v: unknown, struct: string, field: string, goType: string): ReviewAnswerError {
  return new ReviewAnswerError(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${struct}.${field} of type ${goType}`);
}

/**
 * The converted objects of a decoded answer (an object, or null for a body
 * that decoded to nothing), or a ReviewAnswerError with kube's text.
 */
export function convertedObjectsOf(version: ConversionReviewVersion, uid: string, answer: unknown): unknown[] {
  const review: Json = isObject(answer) ? answer : {};
  const kind = typeof review.kind === 'string' ? review.kind : '';
  const written = writtenGroupVersion(review.apiVersion);
  // The Go type the answer decodes to: its own kind and version, defaulted from the type sent.
  const gv = written.group === '' && written.version === '' ? { group: GROUP, version } : written;
  const answerKind = kind === '' ? KIND : kind;
  if (gv.group !== GROUP || answerKind !== KIND || !(SUPPORTED_CONVERSION_REVIEW_VERSIONS as readonly string[]).includes(gv.version)) {
    const text = gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
    throw new ReviewAnswerError(`no kind ${JSON.stringify(answerKind)} is registered for version ${JSON.stringify(text)} in scheme ${JSON.stringify(SCHEME)}`);
  }
  if (gv.version !== version) throw new ReviewAnswerError(`converting (${gv.version}.ConversionReview) to (${version}.ConversionReview): unknown conversion`);
  const response = decodeResponse(version, review.response);
  if (version === 'v1') {
    const got = `${written.group}/${written.version}, Kind=${kind}`;
    const expected = `${GROUP}/v1, Kind=${KIND}`;
    if (got !== expected) throw new ReviewAnswerError(`expected webhook response of ${expected}, got ${got}`);
  }
  if (!response) throw new ReviewAnswerError('no response provided');
  if (version === 'v1' && response.uid !== uid) throw new ReviewAnswerError(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid)}`);
  if (response.status !== 'Success') {
    if (response.message !== '') throw new ReviewAnswerError(response.message);
    throw new ReviewAnswerError(`response.result.status was '${response.status}', not 'Success'`);
  }
  return response.convertedObjects;
}

/** The answer's apiVersion as written, the svc.io spelling of our group read as k8s.io's. */
function writtenGroupVersion(apiVersion: unknown): { group: string; version: string } {
  if (typeof apiVersion !== 'string' || apiVersion === '') return { group: '', version: '' };
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  const group = apiVersion.slice(0, slash);
  return { group: kubernetesGroup(group) === GROUP ? GROUP : group, version: apiVersion.slice(slash + 1) };
}

interface DecodedResponse {
  uid: string;
  status: string;
  message: string;
  convertedObjects: unknown[];
}

/** The response's fields as Go's decoder reads them into the review type (the first type mismatch fails). */
function decodeResponse(version: ConversionReviewVersion, r: unknown): DecodedResponse | undefined {
  if (r === null || r === undefined) return undefined;
  if (!isObject(r)) throw typeError(r, 'ConversionReview', 'response', `${version}.ConversionResponse`);
  const uid = r.uid ?? '';
  if (typeof uid !== 'string') throw typeError(uid, 'ConversionResponse', 'response.uid', 'types.UID');
  const objects = r.convertedObjects ?? [];
  if (!Array.isArray(objects)) throw typeError(objects, 'ConversionResponse', 'response.convertedObjects', '[]runtime.RawExtension');
  const result = r.result ?? {};
  if (!isObject(result)) throw typeError(result, 'ConversionResponse', 'response.result', 'v1.Status');
  const status = result.status ?? '';
  if (typeof status !== 'string') throw typeError(status, 'Status', 'response.result.status', 'string');
  const message = result.message ?? '';
  if (typeof message !== 'string') throw typeError(message, 'Status', 'response.result.message', 'string');
  return { uid, status, message, convertedObjects: objects };
}
