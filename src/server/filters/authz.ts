// Authorization: asks the authorizer; anything but allow is 403 with
// Kubernetes' wording — or 500 when an authorizer failed to decide (a webhook
// that could not be reached) and none allowed, as kube's filter answers. An audited request gets kube's annotations
// authorization.k8s.io/decision (allow, forbid) and authorization.k8s.io/reason
// ("internal error" when the authorizer failed), each also under
// authorization.svc.io/.
import { forbiddenError } from '../../authz/forbidden.js';
import type { Attributes, Authorizer } from '../../authz/authorizer.js';
import { requestInfoOf, userOf, type Handler, type RequestContext } from '../context.js';
import { writeText } from '../respond.js';
import { recordFilterLatency } from '../../metrics/apiserver.js';
import { addAuditAnnotation } from '../auditannotations.js';
import { isAudited } from '../../audit/record.js';

function annotate(ctx: RequestContext, decision: string | undefined, reason: string): void {
  if (!isAudited(ctx)) return;
  if (decision !== undefined) {
    addAuditAnnotation(ctx, 'authorization.k8s.io/decision', decision);
    addAuditAnnotation(ctx, 'authorization.svc.io/decision', decision);
  }
  addAuditAnnotation(ctx, 'authorization.k8s.io/reason', reason);
  addAuditAnnotation(ctx, 'authorization.svc.io/reason', reason);
}

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
        annotate(ctx, undefined, 'internal error');
        // kube's responsewriters.InternalError: Go's http.Error, plain text with HTML's special characters escaped
        const text = `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '')}: ${d.error}`;
        console.error(`svc: authorization error for ${a.user.name}: ${d.error}`);
        return writeText(ctx, 500, `${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n`);
      }
      annotate(ctx, 'forbid', d.reason);
      throw forbiddenError(a, d.reason);
    }
    annotate(ctx, 'allow', d.reason);
    await next(ctx);
  };
}
