// The admission plugins that exist, by name: what the chain (../chain.ts)
// builds each enabled plugin from. A plugin is added here when it is complete;
// until then its name is known (flags accept it) but enabling it fails the
// start. Each factory gets the plugin's configuration from the
// --admission-control-config-file (undefined when none) and the server's
// registry, authorizer and feature gates.
import type { AdmissionPlugin } from '../../registry/admission.js';
import type { Registry } from '../../registry/registry.js';
import type { Authorizer } from '../../authz/authorizer.js';
import type { FeatureGates } from '../../features/gates.js';
import { alwaysAdmit, alwaysDeny } from './always.js';
import { namespaceLifecycle } from './namespacelifecycle.js';
import { defaultTolerationSecondsPlugin, priorityPlugin } from './podpriority.js';
import { storageObjectInUseProtection } from './storageprotection.js';
import { parsePodSecurityConfiguration, podSecurityPlugin } from './podsecurity/index.js';
import { alwaysPullImages } from './alwayspullimages.js';
import { imagePolicyWebhookFromConfig } from './imagepolicy/index.js';
import { eventRateLimitFromConfig } from './eventratelimit/index.js';
import { defaultStorageClassPlugin } from './defaultstorageclass.js';
import { defaultIngressClassPlugin } from './defaultingressclass.js';
import { denyServiceExternalIPs } from './denyserviceexternalips.js';
import { extendedResourceToleration } from './extendedresourcetoleration.js';
import { limitPodHardAntiAffinityTopology } from './antiaffinity.js';
import { namespaceAutoProvision, namespaceExists } from './namespaceexists.js';
import { securityContextDeny } from './securitycontextdeny.js';
import { persistentVolumeClaimResize } from './pvcresize.js';
import { runtimeClassPlugin } from './runtimeclass.js';
import { taintNodesByCondition } from './taintnodesbycondition.js';
import { parsePodNodeSelectorConfig, podNodeSelector } from './podnodeselector.js';
import { parsePodTolerationRestrictionConfig, podTolerationRestriction } from './podtolerationrestriction.js';
import { persistentVolumeLabel } from './persistentvolumelabel.js';
import { nodeRestrictionPlugin } from './noderestriction.js';
import { ownerReferencesPermissionEnforcement } from './ownerreferences.js';
import { certificateApprovalPlugin } from './certificates/approval.js';
import { certificateSigningPlugin } from './certificates/signing.js';
import { certificateSubjectRestrictionPlugin } from './certificates/subjectrestriction.js';
import { clusterTrustBundleAttestPlugin } from './certificates/ctbattest.js';
import { parseResourceQuotaConfiguration, resourceQuotaPlugin } from './resourcequota/index.js';
import { quotaEvaluators } from '../../quota/registry.js';
import type { UsageEvaluator } from '../../quota/evaluator.js';
import { trackWrite } from '../../endpoints/fieldmanager.js';
import { schemaFor } from '../../api/schemas.js';
import { serviceAccountPlugin } from './serviceaccount.js';
import { limitRanger } from './limitranger.js';
import type { ApiObject } from '../../registry/object.js';
import { defaulterFor } from '../../api/defaults.js';
import { DEFAULT_GATES } from '../../features/gates.js';
import { isStatusError, newNotFound } from '../../api/meta/index.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook, type CallbackCaller } from '../webhooks/index.js';
import { validatingAdmissionPolicy } from './validatingpolicy/index.js';
import type { AdmissionCelEngine } from '../matchconditions/engine.js';
import { admissionCelEngine } from '../matchconditions/celengine.js';

export interface PluginContext {
  /** The plugin's own configuration (embedded or from its `path`), parsed; undefined without one. */
  readonly config: unknown;
  readonly registry: Registry;
  readonly authorizer: Authorizer;
  readonly gates: FeatureGates;
  /** The transport of admission webhook calls (src/webhook/callback.ts); absent: the webhook plugins' calls fail per failurePolicy. */
  readonly webhookCaller?: CallbackCaller;
  /** The expression engine of ValidatingAdmissionPolicy and webhook matchConditions (tests); else src/cel's. */
  readonly celEngine?: AdmissionCelEngine;
}

export type PluginFactory = (ctx: PluginContext) => AdmissionPlugin;

/** A plugin's configuration as text for the parsers that read files (embedded objects are written back as JSON). */
const configText = (config: unknown): string | undefined =>
  config === undefined ? undefined : typeof config === 'string' ? config : JSON.stringify(config);

/** A store's list, or nothing when --runtime-config turned the resource off. */
const listerOf = (registry: Registry, group: string, resource: string) => () =>
  registry.has(group, resource) ? registry.store(group, resource) : { list: async () => ({ items: [] as ApiObject[] }) };
/** A store's get, or NotFound when --runtime-config turned the resource off. */
const getterOf = (registry: Registry, group: string, resource: string) => () =>
  registry.has(group, resource) ? registry.store(group, resource) : { get: (_ns: string, name: string): Promise<ApiObject> => Promise.reject(newNotFound({ group, resource }, name)) };

/** A get from the watch cache, asking storage when it is not there (yet): kube's lister, then its client. */
const cachedThenLive = (registry: Registry, group: string, resource: string) => async (ns: string, name: string): Promise<ApiObject> => {
  const store = registry.store(group, resource);
  try {
    return await store.getShared(ns, name, { kind: 'any' });
  } catch (err) {
    if (!isStatusError(err) || err.status.code !== 404) throw err;
    return store.get(ns, name);
  }
};

/** NamespaceAutoProvision's create: a Namespace as the server creates its own (defaults applied). */
async function createNamespace(registry: Registry, name: string): Promise<unknown> {
  const ns: ApiObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
  defaulterFor('', 'v1', 'Namespace', DEFAULT_GATES)?.(ns);
  return registry.store('', 'namespaces').create('', ns, { dryRun: false });
}


export const PLUGIN_FACTORIES: ReadonlyMap<string, PluginFactory> = new Map<string, PluginFactory>([
  ['AlwaysAdmit', () => alwaysAdmit()],
  ['NamespaceLifecycle', ({ registry }) => namespaceLifecycle(() => registry.store('', 'namespaces'))],
  ['Priority', ({ registry }) => priorityPlugin(() => registry.store('scheduling.svc.io', 'priorityclasses'))],
  ['DefaultTolerationSeconds', () => defaultTolerationSecondsPlugin()],
  ['StorageObjectInUseProtection', () => storageObjectInUseProtection()],
  ['AlwaysDeny', () => alwaysDeny()],
  ['AlwaysPullImages', () => alwaysPullImages()],
  ['ImagePolicyWebhook', ({ config }) => imagePolicyWebhookFromConfig(config)],
  ['EventRateLimit', ({ config }) => eventRateLimitFromConfig(config)],
  ['DefaultStorageClass', ({ registry }) => defaultStorageClassPlugin(listerOf(registry, 'storage.svc.io', 'storageclasses'))],
  ['DefaultIngressClass', ({ registry }) => defaultIngressClassPlugin(listerOf(registry, 'networking.svc.io', 'ingressclasses'))],
  ['DenyServiceExternalIPs', () => denyServiceExternalIPs()],
  ['ExtendedResourceToleration', () => extendedResourceToleration()],
  ['LimitPodHardAntiAffinityTopology', () => limitPodHardAntiAffinityTopology()],
  ['NamespaceExists', ({ registry }) => namespaceExists(() => registry.store('', 'namespaces'))],
  ['NamespaceAutoProvision', ({ registry }) => namespaceAutoProvision(() => registry.store('', 'namespaces'), (name) => createNamespace(registry, name))],
  ['SecurityContextDeny', () => securityContextDeny()],
  ['PersistentVolumeClaimResize', ({ registry }) => persistentVolumeClaimResize(getterOf(registry, 'storage.svc.io', 'storageclasses'))],
  ['RuntimeClass', ({ registry }) => runtimeClassPlugin(getterOf(registry, 'node.svc.io', 'runtimeclasses'))],
  ['TaintNodesByCondition', () => taintNodesByCondition()],
  ['PodNodeSelector', ({ registry, config }) => podNodeSelector(() => registry.store('', 'namespaces'), parsePodNodeSelectorConfig(configText(config)))],
  ['PodTolerationRestriction', ({ registry, config }) => podTolerationRestriction(() => registry.store('', 'namespaces'), parsePodTolerationRestrictionConfig(configText(config)))],
  ['PersistentVolumeLabel', () => persistentVolumeLabel()],
  ['NodeRestriction', ({ registry }) => nodeRestrictionPlugin({
    getPod: (ns, name) => registry.store('', 'pods').get(ns, name),
    getNode: (name) => registry.store('', 'nodes').get('', name),
  })],
  ['OwnerReferencesPermissionEnforcement', ({ authorizer }) => ownerReferencesPermissionEnforcement({ authorizer })],
  ['CertificateApproval', ({ authorizer }) => certificateApprovalPlugin(authorizer)],
  ['CertificateSigning', ({ authorizer }) => certificateSigningPlugin(authorizer)],
  ['ClusterTrustBundleAttest', ({ authorizer, gates }) => clusterTrustBundleAttestPlugin(authorizer, gates)],
  ['CertificateSubjectRestriction', () => certificateSubjectRestrictionPlugin()],
  ['ResourceQuota', ({ registry, config, gates }) => { let evaluators: readonly UsageEvaluator[] | undefined; return resourceQuotaPlugin({
    quotas: (ns) => registry.store('', 'resourcequotas').listShared(ns),
    peekQuotas: (ns) => registry.store('', 'resourcequotas').listSharedNow(ns),
    // a CAS on q's resourceVersion, recorded as the server's own write of status (kube: manager kube-apiserver)
    updateStatus: async (q) => (await registry.store('', 'resourcequotas').update(q.metadata.namespace!, q.metadata.name!, q, {
      dryRun: false, subresource: 'status',
      track: (live, next) => trackWrite({ manager: 'svc-apiserver', apiVersion: 'v1', kind: 'ResourceQuota', schema: schemaFor('', 'v1', 'ResourceQuota'), subresource: 'status' }, live, next),
    })).object,
    evaluators: () => (evaluators ??= quotaEvaluators(registry, { gates })),
    config: parseResourceQuotaConfiguration(config),
  }); }],
  ['ServiceAccount', ({ registry }) => serviceAccountPlugin({
    getServiceAccount: cachedThenLive(registry, '', 'serviceaccounts'),
    getServiceAccountNow: (ns, name) => registry.store('', 'serviceaccounts').getSharedNow(ns, name, { kind: 'any' }),
  })],
  ['LimitRanger', ({ registry }) => limitRanger({
    limitRanges: (ns) => registry.store('', 'limitranges').listShared(ns),
    limitRangesNow: (ns) => registry.store('', 'limitranges').listSharedNow(ns),
  })],
  ['PodSecurity', ({ registry, config }) => podSecurityPlugin({
    // a namespace's labels as the watch cache has them (kube reads a namespace lister)
    namespaces: () => ({ get: (ns, name) => registry.store('', 'namespaces').getShared(ns, name, { kind: 'any' }) }),
    namespaceNow: (name) => registry.store('', 'namespaces').getSharedNow('', name, { kind: 'any' }),
    pods: async (ns) => (await registry.store('', 'pods').list(ns)).items,
    ...(config !== undefined ? { config: parsePodSecurityConfiguration(config) } : {}),
  })],
  ['MutatingAdmissionWebhook', (ctx) => mutatingAdmissionWebhook({ ...ctx, celEngine: ctx.celEngine ?? admissionCelEngine() })],
  ['ValidatingAdmissionWebhook', (ctx) => validatingAdmissionWebhook({ ...ctx, celEngine: ctx.celEngine ?? admissionCelEngine() })],
  ['ValidatingAdmissionPolicy', (ctx) => validatingAdmissionPolicy({ ...ctx, celEngine: ctx.celEngine ?? admissionCelEngine() })],
]);
