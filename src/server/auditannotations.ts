// Audit annotations of a request (kube's audit.AddAuditAnnotation): what
// admission plugins and webhooks record about a request (`<webhook>/<key>`,
// `mutation.webhook.admission.k8s.io/round_0_index_1`, PodSecurity's
// `pod-security.kubernetes.io/enforce-policy`…), kept with the request until
// the audit log writes its event. As kube: the first value of a key stays; a
// later, different one is dropped with a log line.
import type { RequestContext } from './context.js';

const NONE: ReadonlyMap<string, string> = new Map();

export function addAuditAnnotation(ctx: RequestContext, key: string, value: string): void {
  let m = ctx.auditAnnotations;
  if (!m) ctx.auditAnnotations = m = new Map();
  const had = m.get(key);
  if (had === undefined) m.set(key, value);
  else if (had !== value) console.error(`svc: audit annotation ${JSON.stringify(key)} already set to ${JSON.stringify(had)}; ${JSON.stringify(value)} dropped`);
}

/** The request's audit annotations, in the order they were added. */
export function auditAnnotationsOf(ctx: RequestContext): ReadonlyMap<string, string> {
  return ctx.auditAnnotations ?? NONE;
}
