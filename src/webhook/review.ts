// The envelope of a review a webhook answers (TokenReview, SubjectAccessReview, …):
// a JSON object of the kind sent, in the version sent, its group in either
// spelling (webhooks are written for Kubernetes; we send the k8s.io one).
import { canonicalGroup } from '../endpoints/requestinfo.js';
import { isObject } from '../registry/object.js';

/** The answer as an object, once its kind and apiVersion are the ones sent; `bad` (which throws) otherwise. */
export function checkReviewEnvelope(answer: unknown, sent: { kind: string; group: string; version: string }, bad: (why: string) => never): Record<string, unknown> {
  if (!isObject(answer)) return bad('not a JSON object');
  if (answer.kind !== sent.kind) bad(`kind ${JSON.stringify(answer.kind)}`);
  const av = answer.apiVersion;
  const accepted = [sent.group, canonicalGroup(sent.group)].map((g) => `${g}/${sent.version}`);
  if (typeof av !== 'string' || !accepted.includes(av)) bad(`apiVersion ${JSON.stringify(av)}, sent ${sent.group}/${sent.version}`);
  return answer;
}
