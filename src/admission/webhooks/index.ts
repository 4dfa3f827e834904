// MutatingAdmissionWebhook and ValidatingAdmissionWebhook: admission
// callbacks registered through Mutating-/ValidatingWebhookConfiguration
// objects (kube's pkg/admission/plugin/webhook). One concept per file:
//
//   types.ts        a stored webhook, v1 defaults filled in
//   source.ts       the configurations, re-read per request, compiled per change, by name
//   rules.ts        one rule against a request
//   selectors.ts    namespaceSelector, objectSelector
//   equivalence.ts  matchPolicy Equivalent: the same resource in other groups/versions
//   match.ts        ShouldCallHook: which webhooks, as which resource and kind
//   versioned.ts    the object in the webhook's version, and back
//   review.ts       AdmissionReview v1/v1beta1 out, the answer checked
//   call.ts         one call through the CallbackCaller (caller.ts; network in src/webhook/)
//   errors.ts       call errors, denials, dry run
//   annotations.ts  audit annotations
//   conditions.ts   matchConditions (src/admission/matchconditions)
//   dispatch.ts     what both dispatchers share
//   mutating.ts     one after another, JSON patches, reinvocation
//   simplepatch.ts  the common add/replace patches applied directly (else src/patch)
//   validating.ts   in parallel
//   config.ts       the WebhookAdmissionConfiguration (kubeConfigFile)
import type { AdmissionPlugin } from '../../registry/admission.js';
import type { Registry } from '../../registry/registry.js';
import type { FeatureGates } from '../../features/gates.js';
import { isStatusError } from '../../api/meta/index.js';
import type { CallbackCaller } from './caller.js';
import { AdmissionCallbackClient, endpointsResolver, loadCredentialsFile } from '../../webhook/index.js';
import { parseWebhookAdmissionConfig, type WebhookAdmissionConfig } from './config.js';
import { EquivalentResources } from './equivalence.js';
import { mutatingWebhookPlugin } from './mutating.js';
import type { NamespaceLabels } from './selectors.js';
import { WebhookSource } from './source.js';
import { validatingWebhookPlugin } from './validating.js';
import { WebhookConditions } from './conditions.js';
import { alwaysDeny, type Authorizer } from '../../authz/authorizer.js';
import type { AdmissionCelEngine } from '../matchconditions/engine.js';

export { mutatingWebhookPlugin, MUTATING_PLUGIN } from './mutating.js';
export { validatingWebhookPlugin, VALIDATING_PLUGIN } from './validating.js';
export type { CallbackCaller, CallbackCall, CallbackConfig, CallbackResult } from './caller.js';
export { parseWebhookAdmissionConfig, WebhookConfigError, type WebhookAdmissionConfig } from './config.js';

export interface WebhookPluginContext {
  readonly config: unknown;
  readonly registry: Registry;
  readonly gates: FeatureGates;
  /** The caller to use (tests); else the server's HTTPS client for the configuration's credentials. */
  readonly webhookCaller?: CallbackCaller;
  /** What matchConditions' authorizer variables ask. */
  readonly authorizer?: Authorizer;
  /** The expression engine for matchConditions; absent: webhooks with matchConditions fail per failurePolicy (gate on). */
  readonly celEngine?: AdmissionCelEngine;
}

const ADMISSIONREGISTRATION = 'admissionregistration.svc.io';

/**
 * The HTTPS client of a registry's webhooks, one per credentials file: both
 * plugins share its pooled connections (a server often registers a mutating
 * and a validating webhook on the same callback server).
 */
const clients = new WeakMap<Registry, Map<string, AdmissionCallbackClient>>();
function callerFor(registry: Registry, config: WebhookAdmissionConfig): CallbackCaller {
  // the credentials file is read now (a bad one fails the start); the client is made at the first call
  const credentials = config.kubeConfigFile ? loadCredentialsFile(config.kubeConfigFile) : undefined;
  const file = config.kubeConfigFile ?? '';
  let client: AdmissionCallbackClient | undefined;
  const shared = (): AdmissionCallbackClient => {
    let byFile = clients.get(registry);
    if (!byFile) clients.set(registry, (byFile = new Map()));
    let c = byFile.get(file);
    if (!c) byFile.set(file, (c = new AdmissionCallbackClient({ resolveService: endpointsResolver(registry), ...(credentials ? { credentials } : {}) })));
    return c;
  };
  return { call: (c) => (client ??= shared()).call(c) };
}

/** A namespace's labels: the watch cache's copy, else storage (kube: the lister, then the client). */
export function namespaceLabelsOf(registry: Registry): NamespaceLabels {
  return async (name) => {
    const store = registry.store('', 'namespaces');
    let ns;
    try {
      ns = await store.getShared('', name, { kind: 'any' });
    } catch (err) {
      if (!isStatusError(err) || err.status.code !== 404) throw err;
      ns = await store.get('', name);
    }
    return ns.metadata.labels ?? {};
  };
}

function build(kind: 'mutating' | 'validating', ctx: WebhookPluginContext): AdmissionPlugin {
  const config = parseWebhookAdmissionConfig(ctx.config);
  const caller = ctx.webhookCaller ?? callerFor(ctx.registry, config);
  const resource = kind === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  const registry = ctx.registry;
  const list = async () => (registry.has(ADMISSIONREGISTRATION, resource) ? registry.store(ADMISSIONREGISTRATION, resource).listShared('', { kind: 'any' }) : []);
  const peek = () => (registry.has(ADMISSIONREGISTRATION, resource) ? registry.store(ADMISSIONREGISTRATION, resource).peekSharedList('') : []);
  let equivalents: EquivalentResources | undefined;
  const deps = {
    source: new WebhookSource(list, kind, peek),
    caller,
    gates: ctx.gates,
    ...(ctx.celEngine ? { conditions: new WebhookConditions(ctx.celEngine, ctx.authorizer ?? alwaysDeny) } : {}),
    namespaceLabels: namespaceLabelsOf(registry),
    get equivalents() {
      return (equivalents ??= new EquivalentResources(registry.resources()));
    },
  };
  return kind === 'mutating' ? mutatingWebhookPlugin(deps) : validatingWebhookPlugin(deps);
}

export const mutatingAdmissionWebhook = (ctx: WebhookPluginContext): AdmissionPlugin => build('mutating', ctx);
export const validatingAdmissionWebhook = (ctx: WebhookPluginContext): AdmissionPlugin => build('validating', ctx);
