// ValidatingAdmissionWebhook (kube's validating dispatcher): every webhook
// that applies is called at once; call failures under Ignore are dropped
// (with the failed-open annotation), under Fail they are 500s; a denial is the
// webhook's status. When several fail, kube returns whichever error reached
// its channel first (completion order); here the first by webhook order, so
// the answer does not depend on timing.
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { Webhook } from './types.js';
import type { StatusError } from '../../api/meta/index.js';
import { annotateFailedOpen, annotateFromAnswer } from './annotations.js';
import { callWebhook } from './call.js';
import { asStatus, callInput, invocations, matchConditionsError, VersionedObjects, type DispatchDeps } from './dispatch.js';
import { CallingWebhookError, failedClosed, toStatusError } from './errors.js';
import { observeWebhook, WEBHOOK_ALLOWED, type WebhookOutcome } from '../../metrics/admission.js';
import { trackValidatingWebhook } from '../../metrics/latencytrackers.js';

export const VALIDATING_PLUGIN = 'ValidatingAdmissionWebhook';

export function validatingWebhookPlugin(deps: DispatchDeps): AdmissionPlugin {
  return {
    name: VALIDATING_PLUGIN,
    // per webhook: see call.ts
    sideEffects: 'None',
    admit: (a) => deps.source.dispatch(a, validate),
  };

  async function validate(a: AdmissionAttributes, hooks: readonly Webhook[]): Promise<void> {
    const versioned = new VersionedObjects(a, false);
    const { req, list } = await invocations(a, hooks, deps, versioned);
    if (list.length === 0) return;
    const results = await Promise.all(list.map(async ({ inv }, idx): Promise<StatusError | undefined> => {
      const w = inv.webhook;
      const started = performance.now();
      const observe = (outcome: WebhookOutcome) => {
        trackValidatingWebhook(a.latency, performance.now() - started);
        observeWebhook(w.name, 'validating', a.operation, (performance.now() - started) / 1000, outcome);
      };
      try {
        const mc = matchConditionsError(w, deps);
        if (mc) throw mc;
        const { object, oldObject } = versioned.for(inv);
        const answer = await callWebhook(deps.caller, w, callInput(a, req, inv, object, oldObject));
        annotateFromAnswer(a, w.name, answer.auditAnnotations);
        for (const text of answer.warnings) a.warn?.(text);
        const denied = answer.allowed ? undefined : toStatusError(w.name, answer.result);
        observe(denied ? { kind: 'rejected', code: denied.status.code ?? 400 } : WEBHOOK_ALLOWED);
        return denied;
      } catch (err) {
        if (err instanceof CallingWebhookError) {
          observe({ kind: 'callFailed', failOpen: w.failurePolicy === 'Ignore', code: 0 });
          if (w.failurePolicy === 'Ignore') {
            annotateFailedOpen(a, 'validating', 0, idx, w.name);
            return undefined;
          }
          return failedClosed(err);
        }
        observe({ kind: 'internal' });
        return asStatus(err);
      }
    }));
    const first = results.find((e) => e !== undefined);
    if (first) throw first;
  }
}
