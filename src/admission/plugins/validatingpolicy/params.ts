// A binding's parameter object (kube's paramKind/paramRef handling): the
// paramKind names a kind in a group/version this server serves (any kind,
// custom resources included once they are served); the object named by
// paramRef is read from the watch cache (kube's informer for that kind) and
// handed to the expressions in the paramKind's version. Errors as kube's:
//   failed to parse apiVersion of paramKind '<paramKind>' with error: <err>   (the policy)
//   failed to find resource referenced by paramKind: '<group/version, Kind=kind>'   (the policy)
//   <resource> "<name>" not found   (the binding; the request proceeds or not by failurePolicy)
import { isStatusError, newNotFound } from '../../../api/meta/index.js';
import { canonicalGroup } from '../../../endpoints/requestinfo.js';
import type { Registry, ServedResource } from '../../../registry/registry.js';
import { toWebhookVersion } from '../../webhooks/versioned.js';
import type { ParamKind } from './policy.js';

export class ParamKindError extends Error {
  override readonly name = 'ParamKindError';
}

/** kube's ParamKind.String(): the Go struct printed with %v. */
const paramKindString = (p: ParamKind) => `&ParamKind{APIVersion:${p.apiVersion},Kind:${p.kind},}`;

/** The served resource of a paramKind; throws ParamKindError with kube's text when there is none. */
export function resolveParamKind(resources: readonly ServedResource[], p: ParamKind): ServedResource {
  const parts = p.apiVersion.split('/');
  if (parts.length > 2) throw new ParamKindError(`failed to parse apiVersion of paramKind '${paramKindString(p)}' with error: unexpected GroupVersion string: ${p.apiVersion}`);
  const [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
  const g = canonicalGroup(group);
  const found = resources.find((r) => r.group === g && r.version === version && r.kind === p.kind && !r.virtual);
  if (!found) throw new ParamKindError(`failed to find resource referenced by paramKind: '${group}/${version}, Kind=${p.kind}'`);
  return found;
}

/** The parameter object in the paramKind's version; rejects with the NotFound StatusError of kube's lister when there is none. */
export async function readParam(registry: Registry, r: ServedResource, ref: { name: string; namespace: string }): Promise<Record<string, unknown>> {
  // a namespaced kind is looked up in paramRef.namespace (none: never found), a cluster-scoped one only without a namespace
  const notFound = () => newNotFound({ group: r.group, resource: r.resource }, ref.name);
  if (r.namespaced !== (ref.namespace !== '')) throw notFound();
  let o;
  try {
    o = await registry.store(r.group, r.resource).getShared(ref.namespace, ref.name, { kind: 'any' });
  } catch (err) {
    if (isStatusError(err) && err.status.code === 404) throw notFound();
    throw err;
  }
  return toWebhookVersion(o, { group: r.group, version: r.version, kind: r.kind }, false)!;
}
