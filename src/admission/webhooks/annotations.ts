// The audit annotations of webhook calls, as kube writes them (both
// spellings here: `mutation.webhook.admission.k8s.io/…` and `….svc.io/…`):
//   mutation.webhook.admission.*/round_{r}_index_{i}   {"configuration","webhook","mutated"} per mutating call
//   patch.webhook.admission.*/round_{r}_index_{i}      {"configuration","webhook","patch","patchType"} per applied patch
//   failed-open.mutation.webhook.admission.*/…          "true" when a mutating call failed under Ignore
//   failed-open.validating.webhook.admission.*/round_0_index_{i}   the webhook's name, likewise
//   <webhook name>/<key>                                each of the answer's auditAnnotations
// `i` is the webhook's position among all mutating webhooks (kube's hook index);
// for validating webhooks its position among those called.
import type { AdmissionAttributes } from '../../registry/admission.js';

const DOMAINS = ['k8s.io', 'svc.io'];

function both(a: AdmissionAttributes, prefix: string, suffix: string, value: string): void {
  for (const d of DOMAINS) a.annotate?.(`${prefix}.webhook.admission.${d}/${suffix}`, value);
}

export function annotateMutation(a: AdmissionAttributes, round: number, index: number, configuration: string, webhook: string, mutated: boolean): void {
  both(a, 'mutation', `round_${round}_index_${index}`, JSON.stringify({ configuration, webhook, mutated }));
}

export function annotatePatch(a: AdmissionAttributes, round: number, index: number, configuration: string, webhook: string, patch: unknown): void {
  both(a, 'patch', `round_${round}_index_${index}`, JSON.stringify({ configuration, webhook, patch, patchType: 'JSONPatch' }));
}

export function annotateFailedOpen(a: AdmissionAttributes, kind: 'mutation' | 'validating', round: number, index: number, value: string): void {
  both(a, `failed-open.${kind}`, `round_${round}_index_${index}`, value);
}

export function annotateFromAnswer(a: AdmissionAttributes, webhook: string, annotations: Readonly<Record<string, string>>): void {
  for (const [k, v] of Object.entries(annotations)) a.annotate?.(`${webhook}/${k}`, v);
}
