// The admission chain: every plugin name kube-apiserver v1.27 knows, in its
// fixed order (AllOrderedPlugins of pkg/kubeapiserver/options/plugins.go), the
// default-on set of v1.27, and the plan of a start: which plugins run
// (--enable-admission-plugins / --disable-admission-plugins, whose order does
// not matter), each with its configuration (--admission-control-config-file).
//
// Known but not yet implemented plugins (those missing from PLUGIN_FACTORIES)
// do not silently exist: enabling one fails the start with
// `admission plugin "X" is not available yet`. So that the server starts with
// no flags, the server's default is kube's default-on set restricted to the
// implemented plugins (today every plugin of v1.27 is, so it is kube's full
// default set), with no change here as PLUGIN_FACTORIES grows.
// Disabling an unimplemented default-on plugin is accepted (it is off anyway).
import type { AdmissionPlugin } from '../registry/admission.js';
import { AdmissionConfigError, pluginConfiguration, readAdmissionConfiguration, type AdmissionConfiguration } from './config.js';
import { PLUGIN_FACTORIES, type PluginContext, type PluginFactory } from './plugins/index.js';

/** Every plugin of kube-apiserver v1.27, in the order they run (mutating steps in this order, then validating steps in this order). */
export const ALL_ORDERED_PLUGINS: readonly string[] = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'SecurityContextDeny',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'PersistentVolumeLabel',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  // webhooks, policies, quota and deny go last
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
];

/** kube-apiserver v1.27's default-on plugins (the complement of DefaultOffAdmissionPlugins). */
export const DEFAULT_ON_PLUGINS: ReadonlySet<string> = new Set([
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'DefaultStorageClass', 'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota',
  'StorageObjectInUseProtection', 'Priority', 'TaintNodesByCondition', 'RuntimeClass', 'CertificateApproval',
  'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass',
  'PodSecurity', 'ValidatingAdmissionPolicy',
]);

const KNOWN = new Set(ALL_ORDERED_PLUGINS);

export interface AdmissionFlags {
  /** --enable-admission-plugins: on in addition to the default ones. */
  readonly enable?: readonly string[];
  /** --disable-admission-plugins: off although default-on. */
  readonly disable?: readonly string[];
  /** --admission-control-config-file. */
  readonly configFile?: string;
}

/** A start-up failure of the chain (bad flags, an unavailable plugin, a bad configuration file). */
export class AdmissionChainError extends Error {
  override readonly name = 'AdmissionChainError';
}

/** The implemented plugins of kube's default-on set, in order: what runs without flags. */
export function serverDefaultPlugins(factories: ReadonlyMap<string, PluginFactory> = PLUGIN_FACTORIES): string[] {
  return ALL_ORDERED_PLUGINS.filter((n) => DEFAULT_ON_PLUGINS.has(n) && factories.has(n));
}

/** The flag checks of kube's AdmissionOptions.Validate, with its messages. */
export function validateAdmissionFlags(f: AdmissionFlags): string[] {
  const errs: string[] = [];
  for (const name of f.enable ?? []) if (!KNOWN.has(name)) errs.push(`enable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  for (const name of f.disable ?? []) if (!KNOWN.has(name)) errs.push(`disable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  const disable = new Set(f.disable ?? []);
  const both = [...new Set(f.enable ?? [])].filter((n) => disable.has(n)).sort();
  if (both.length > 0) errs.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errs;
}

/** The plugins that run, in kube's order: the defaults and the enabled ones, less the disabled ones. */
export function enabledPluginNames(f: AdmissionFlags, defaults: readonly string[] = serverDefaultPlugins()): string[] {
  const enable = new Set(f.enable ?? []);
  const disable = new Set(f.disable ?? []);
  const on = (n: string) => enable.has(n) || (defaults.includes(n) && !disable.has(n));
  return ALL_ORDERED_PLUGINS.filter(on);
}

export interface AdmissionPlan {
  /** The plugins to build, in order. */
  readonly names: readonly string[];
  /** Each plugin's configuration (undefined: none given). */
  readonly configs: ReadonlyMap<string, unknown>;
}

/**
 * Checks the flags, chooses the plugins, refuses unavailable ones and reads
 * the configuration file: everything that can fail before the server is built.
 */
export function planAdmission(f: AdmissionFlags, factories: ReadonlyMap<string, PluginFactory> = PLUGIN_FACTORIES): AdmissionPlan {
  const errs = validateAdmissionFlags(f);
  if (errs.length > 0) throw new AdmissionChainError(errs.join('; '));
  const names = enabledPluginNames(f, serverDefaultPlugins(factories));
  const unavailable = names.filter((n) => !factories.has(n));
  if (unavailable.length > 0) throw new AdmissionChainError(unavailable.map((n) => `admission plugin ${JSON.stringify(n)} is not available yet`).join('; '));
  const configs = new Map<string, unknown>();
  try {
    const file: AdmissionConfiguration = f.configFile ? readAdmissionConfiguration(f.configFile, names) : { plugins: [] };
    for (const n of names) configs.set(n, pluginConfiguration(file, n));
  } catch (err) {
    if (err instanceof AdmissionConfigError) throw new AdmissionChainError(`failed to read plugin config: ${err.message}`);
    throw err;
  }
  return { names, configs };
}

/** The plugins of a plan, built in order (the Admission seam runs them). */
export function buildAdmissionPlugins(
  plan: AdmissionPlan, deps: Omit<PluginContext, 'config'>, factories: ReadonlyMap<string, PluginFactory> = PLUGIN_FACTORIES,
): AdmissionPlugin[] {
  return plan.names.map((n) => {
    const factory = factories.get(n);
    if (!factory) throw new AdmissionChainError(`admission plugin ${JSON.stringify(n)} is not available yet`);
    const plugin = factory({ ...deps, config: plan.configs.get(n) });
    if (plugin.name !== n) throw new Error(`admission plugin factory for ${n} built ${plugin.name}`);
    return plugin;
  });
}
