// Authorization: asks the authorizer; anything but allow is 403 with
// Kubernetes' wording — or 500 when an authorizer failed to decide (a webhook
// that could not be reached) and none allowed, as kube's filter answers.
import { newForbidden } from '../../api/meta/index.js';
import type { Attributes, Authorizer } from '../../authz/authorizer.js';
import { requestInfoOf, userOf, type Handler } from '../context.js';
import { writeText } from '../respond.js';

export function withAuthorization(next: Handler, authorizer: Authorizer): Handler {
  return async (ctx) => {
    const info = requestInfoOf(ctx);
    const user = userOf(ctx);
    const a: Attributes = { ...info, user };
    const d = await authorizer.authorize(a);
    if (d.decision !== 'allow') {
      if (d.error !== undefined) {
        // kube's responsewriters.InternalError: Go's http.Error, plain text with HTML's special characters escaped
        const text = `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '')}: ${d.error}`;
        console.error(`svc: authorization error for ${a.user.name}: ${d.error}`);
        return writeText(ctx, 500, `${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n`);
      }
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
