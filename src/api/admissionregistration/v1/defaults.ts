// Server-side defaulting for admissionregistration.svc.io/v1 as
// kube-apiserver v1.27 applies it to each webhook of a Validating- or
// MutatingWebhookConfiguration. sideEffects and admissionReviewVersions are
// required in v1 and get no default. In place.
import { at, each, orSet, type Gates, type Json } from '../../core/v1/defaults.js';

/** Seconds a webhook call may take when the webhook sets no timeout. */
export const DEFAULT_WEBHOOK_TIMEOUT = 10;

function defaultWebhook(hook: Json, mutating: boolean): void {
  orSet(hook, 'failurePolicy', 'Fail');
  orSet(hook, 'matchPolicy', 'Equivalent');
  orSet(hook, 'namespaceSelector', {});
  orSet(hook, 'objectSelector', {});
  orSet(hook, 'timeoutSeconds', DEFAULT_WEBHOOK_TIMEOUT);
  if (mutating) orSet(hook, 'reinvocationPolicy', 'Never');
  for (const rule of each(hook, 'rules')) orSet(rule, 'scope', '*');
  const service = at(at(hook, 'clientConfig') ?? {}, 'service');
  if (service) orSet(service, 'port', 443);
}

export function defaultValidatingWebhookConfiguration(config: Json): void {
  for (const hook of each(config, 'webhooks')) defaultWebhook(hook, false);
}

export function defaultMutatingWebhookConfiguration(config: Json): void {
  for (const hook of each(config, 'webhooks')) defaultWebhook(hook, true);
}

/** The admissionregistration.svc.io/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  ValidatingWebhookConfiguration: defaultValidatingWebhookConfiguration,
  MutatingWebhookConfiguration: defaultMutatingWebhookConfiguration,
};
