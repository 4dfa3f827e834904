// Authorization: asks the authorizer; anything but allow is 403 with
// Kubernetes' wording — or 500 when an authorizer failed to decide (a webhook
// that could not be reached) and none allowed, as kube's filter answers.
import { newForbidden, newInternalError } from '../../api/meta/index.js';
import type { Attributes, Authorizer } from '../../authz/authorizer.js';
import { requestInfoOf, userOf, type Handler } from '../context.js';

export function withAuthorization(next: Handler, authorizer: Authorizer): Handler {
  return async (ctx) => {
    const info = requestInfoOf(ctx);
    const user = userOf(ctx);
    const a: Attributes = { ...info, user };
    const d = await authorizer.authorize(a);
    if (d.decision !== 'allow') {
      if (d.error !== undefined) throw newInternalError(new Error(d.error));
      const target = a.isResourceRequest ? { group: a.apiGroup, resource: a.resource } : { group: '', resource: '' };
      throw newForbidden(target, a.isResourceRequest ? a.name : '', forbiddenMessage(a, d.reason));
    }
    await next(ctx);
  };
}

/** Kubernetes' wording of a refusal (responsewriters.Forbidden), without the subject prefix. */
export function forbiddenMessage(a: Attributes, reason: string): string {
  const who = `User "${a.user.name}"`;
  const why = reason ? `: ${reason}` : '';
  if (!a.isResourceRequest) return `${who} cannot ${a.verb} path "${a.path}"${why}`;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${who} cannot ${a.verb} resource "${res}" in API group "${a.apiGroup}" ${scope}${why}`;
}
