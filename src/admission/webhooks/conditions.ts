// A webhook's matchConditions (with the AdmissionWebhookMatchConditions gate
// on), as kube's ShouldCallHook evaluates them after the rules and
// selectors: compiled once per stored webhook (src/admission/matchconditions,
// the authorizer declared, no params), evaluated against the object in the
// webhook's version. A false condition skips the webhook; an error under
// failurePolicy Fail refuses the request with kube's 403
// (`<resource> "<name>" is forbidden: <errors>`), under Ignore skips it.
import { newForbidden } from '../../api/meta/index.js';
import type { Authorizer } from '../../authz/authorizer.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { AdmissionCelEngine } from '../matchconditions/engine.js';
import { MatchConditionMatcher, matchConditionsOf } from '../matchconditions/matcher.js';
import { admissionRequestOf } from '../matchconditions/request.js';
import type { Invocation, RequestView } from './match.js';
import type { Webhook } from './types.js';

type Objects = { readonly object: unknown; readonly oldObject: unknown };

export class WebhookConditions {
  private readonly matchers = new WeakMap<Webhook, MatchConditionMatcher>();
  constructor(private readonly engine: AdmissionCelEngine, private readonly authorizer: Authorizer) {}

  /** Whether the webhook is called; throws the 403 of a failed evaluation under Fail. */
  async matches(inv: Invocation, a: AdmissionAttributes, req: RequestView, objects: Objects): Promise<boolean> {
    const w = inv.webhook;
    let m = this.matchers.get(w);
    if (!m) this.matchers.set(w, (m = new MatchConditionMatcher(this.engine, matchConditionsOf(w.matchConditions), w.failurePolicy, { hasParams: false, hasAuthorizer: true })));
    const vars = {
      object: objects.object ?? null, oldObject: objects.oldObject ?? null, params: null,
      request: admissionRequestOf(a, req),
      authorizer: {
        user: a.user ?? { name: '', groups: [] }, authorizer: this.authorizer,
        resource: { ...req.resource, subresource: req.subresource, namespace: a.namespace, name: a.name },
      },
    };
    let r = m.match(vars);
    while ('pending' in r) {
      await r.pending;
      r = m.match(vars);
    }
    if ('error' in r) throw newForbidden({ group: req.resource.group, resource: req.resource.resource }, a.name, r.error);
    return r.matches;
  }
}
