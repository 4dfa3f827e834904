// DaemonSets: Kubernetes keeps a template generation, counted up each time
// spec.template changes; apps/v1 carries it in the annotation
// `deprecated.daemonset.template.generation` (src/api/apps/v1/templategeneration.ts).
// The server owns the value:
//   create: the sent value if it is ≥ 1, else 1 (status starts from the zero
//           DaemonSetStatus, as every status of a create: strategies/index.ts)
//   update: the stored value, plus one when the template changed; status kept
//   /status: the stored value; the spec is kept (see store.ts)
// A value that is not a decimal int64 is a decoding error (400), as it is when
// kube-apiserver converts the object to its internal form.
import { baseStrategy, type Strategy } from '../strategy.js';
import * as errs from '../errors.js';
import { deepEqual, isObject, type ApiObject } from '../object.js';
import { subdomainName } from './names.js';
import { parseTemplateGeneration, TEMPLATE_GENERATION } from '../../api/apps/v1/templategeneration.js';

/** The template generation an object carries (0 without the annotation); throws 400 on a malformed one. */
export function templateGeneration(obj: ApiObject): bigint {
  const value = obj.metadata.annotations?.[TEMPLATE_GENERATION];
  if (value === undefined) return 0n;
  const parsed = parseTemplateGeneration(String(value));
  if (typeof parsed === 'string') throw errs.badRequest(`DaemonSet in version "v1" cannot be handled as a DaemonSet: ${parsed}`);
  return parsed;
}

function setTemplateGeneration(obj: ApiObject, gen: bigint): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION]: gen.toString() };
}

const templateOf = (obj: ApiObject): unknown => (isObject(obj.spec) ? obj.spec.template : undefined);

export const daemonsets: Strategy = baseStrategy({
  namespaced: true,
  validateName: subdomainName,
  hasStatus: true,
  tracksGeneration: true,
  prepareForCreate(obj) {
    const sent = templateGeneration(obj);
    setTemplateGeneration(obj, sent < 1n ? 1n : sent);
  },
  prepareForUpdate(obj, old, subresource) {
    templateGeneration(obj); // a malformed value fails decoding even though it is replaced
    const stored = templateGeneration(old);
    const changed = subresource !== 'status' && !deepEqual(templateOf(obj), templateOf(old));
    setTemplateGeneration(obj, changed ? stored + 1n : stored);
  },
});
