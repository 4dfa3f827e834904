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

// Keys and the mutation values repeat call after call: each is made once.
// Keys by prefix, round and index (bounded by the webhooks configured).
const keyCache = new Map<string, (readonly string[])[][]>();
function keysOf(prefix: string, round: number, index: number): readonly string[] {
  let byRound = keyCache.get(prefix);
  if (!byRound) keyCache.set(prefix, (byRound = []));
  const byIndex = (byRound[round] ??= []);
  return (byIndex[index] ??= DOMAINS.map((d) => `${prefix}.webhook.admission.${d}/round_${round}_index_${index}`));
}

function both(a: AdmissionAttributes, prefix: string, round: number, index: number, value: string): void {
  if (!a.annotate) return;
  for (const key of keysOf(prefix, round, index)) a.annotate(key, value);
}

/** The mutation annotation's value by configuration, webhook and outcome (bounded by the webhooks configured). */
const mutationValues = new Map<string, Map<string, [string, string]>>();
function mutationValue(configuration: string, webhook: string, mutated: boolean): string {
  let byWebhook = mutationValues.get(configuration);
  if (!byWebhook) mutationValues.set(configuration, (byWebhook = new Map()));
  let texts = byWebhook.get(webhook);
  if (!texts) {
    if (byWebhook.size >= 1024) byWebhook.clear();
    byWebhook.set(webhook, (texts = [JSON.stringify({ configuration, webhook, mutated: false }), JSON.stringify({ configuration, webhook, mutated: true })]));
  }
  return texts[mutated ? 1 : 0];
}

export function annotateMutation(a: AdmissionAttributes, round: number, index: number, configuration: string, webhook: string, mutated: boolean): void {
  if (a.annotate) both(a, 'mutation', round, index, mutationValue(configuration, webhook, mutated));
}

export function annotatePatch(a: AdmissionAttributes, round: number, index: number, configuration: string, webhook: string, patch: unknown): void {
  if (a.annotate) both(a, 'patch', round, index, JSON.stringify({ configuration, webhook, patch, patchType: 'JSONPatch' }));
}

export function annotateFailedOpen(a: AdmissionAttributes, kind: 'mutation' | 'validating', round: number, index: number, value: string): void {
  both(a, `failed-open.${kind}`, round, index, value);
}

export function annotateFromAnswer(a: AdmissionAttributes, webhook: string, annotations: Readonly<Record<string, string>>): void {
  for (const [k, v] of Object.entries(annotations)) a.annotate?.(`${webhook}/${k}`, v);
}
