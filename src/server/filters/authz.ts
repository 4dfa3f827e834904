// Authorization: asks the authorizer; anything but allow is 403 with
// Kubernetes' wording — or 500 when an authorizer failed to decide (a webhook
// that could not be reached) and none allowed, as kube's filter answers.
import { forbiddenError } from '../../authz/forbidden.js';
import type { Attributes, Authorizer } from '../../authz/authorizer.js';
import { requestInfoOf, userOf, type Handler } from '../context.js';
import { writeText } from '../respond.js';
import { recordFilterLatency } from '../../metrics/apiserver.js';

export function withAuthorization(next: Handler, authorizer: Authorizer): Handler {
  return async (ctx) => {
    const started = performance.now();
    const info = requestInfoOf(ctx);
    const user = userOf(ctx);
    const a: Attributes = { ...info, user };
    const d = await authorizer.authorize(a);
    if (d.decision === 'allow') recordFilterLatency('authorization', (performance.now() - started) / 1000);
    if (d.decision !== 'allow') {
      ctx.refusedBy = 'authorization';
      if (d.error !== undefined) {
        // kube's responsewriters.InternalError: Go's http.Error, plain text with HTML's special characters escaped
        const text = `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '')}: ${d.error}`;
        console.error(`svc: authorization error for ${a.user.name}: ${d.error}`);
        return writeText(ctx, 500, `${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n`);
      }
      throw forbiddenError(a, d.reason);
    }
    await next(ctx);
  };
}
