// The filter chain — the only place the order of the request path is written:
//
//   recovery → request info → request metrics → timeout → authentication (failed: audited 401)
//     → audit → impersonation → max in-flight or priority and fairness → authorization
//     → router (health, version, discovery, resources)
//
// As kube-apiserver's DefaultBuildHandlerChain: the in-flight limit (and API
// Priority and Fairness, which classifies by user) runs after authentication
// and impersonation, so it sees who is asking. Audit sits where kube's
// WithAudit does: it sees the authenticated user, and impersonation then
// records the impersonated one on the event.
//
// Each filter is a small withX(next, deps) in filters/.
import type { UnionAuthenticator } from '../authn/authenticator.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { Handler } from './context.js';
import { withRecovery } from './filters/recovery.js';
import { withRequestInfo } from './filters/requestinfo.js';
import { withRequestMetrics, type RequestMetricsDeps } from './filters/metrics.js';
import { withMaxInFlight, type InFlightLimits } from './filters/inflight.js';
import { withPriorityAndFairness, type PriorityAndFairnessDeps } from './filters/apf.js';
import { withTimeout } from './filters/timeout.js';
import { withAuthentication } from './filters/authn.js';
import { withImpersonation } from './filters/impersonation.js';
import { withAuthorization } from './filters/authz.js';
import { withAudit, failedAuthenticationAudit, type AuditDeps } from './filters/audit.js';

export interface ChainDeps {
  readonly authenticator: UnionAuthenticator;
  readonly authorizer: Authorizer;
  readonly inFlight: InFlightLimits;
  /** API Priority and Fairness, in place of the in-flight limit (the APIPriorityAndFairness gate and --enable-priority-and-fairness). */
  readonly priorityAndFairness?: PriorityAndFairnessDeps;
  readonly requestTimeoutMs: number;
  /** What the request metrics need to keep their labels bounded. */
  readonly metrics: RequestMetricsDeps;
  /** The audit policy and backend; absent when auditing is off. */
  readonly audit?: AuditDeps;
}

export function buildHandlerChain(router: Handler, deps: ChainDeps): Handler {
  let h = router;
  h = withAuthorization(h, deps.authorizer);
  h = deps.priorityAndFairness ? withPriorityAndFairness(h, deps.priorityAndFairness) : withMaxInFlight(h, deps.inFlight);
  h = withImpersonation(h, deps.authorizer);
  if (deps.audit) h = withAudit(h, deps.audit);
  h = withAuthentication(h, deps.authenticator, deps.audit && failedAuthenticationAudit(deps.audit));
  h = withTimeout(h, deps.requestTimeoutMs);
  h = withRequestMetrics(h, deps.metrics);
  h = withRequestInfo(h);
  h = withRecovery(h);
  return h;
}
