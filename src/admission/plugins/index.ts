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

export interface PluginContext {
  /** The plugin's own configuration (embedded or from its `path`), parsed; undefined without one. */
  readonly config: unknown;
  readonly registry: Registry;
  readonly authorizer: Authorizer;
  readonly gates: FeatureGates;
}

export type PluginFactory = (ctx: PluginContext) => AdmissionPlugin;

export const PLUGIN_FACTORIES: ReadonlyMap<string, PluginFactory> = new Map<string, PluginFactory>([
  ['AlwaysAdmit', () => alwaysAdmit()],
  ['NamespaceLifecycle', ({ registry }) => namespaceLifecycle(() => registry.store('', 'namespaces'))],
  ['Priority', ({ registry }) => priorityPlugin(() => registry.store('scheduling.svc.io', 'priorityclasses'))],
  ['DefaultTolerationSeconds', () => defaultTolerationSecondsPlugin()],
  ['StorageObjectInUseProtection', () => storageObjectInUseProtection()],
  ['AlwaysDeny', () => alwaysDeny()],
  ['PodSecurity', ({ registry, config }) => podSecurityPlugin({
    // a namespace's labels as the watch cache has them (kube reads a namespace lister)
    namespaces: () => ({ get: (ns, name) => registry.store('', 'namespaces').get(ns, name, { kind: 'any' }) }),
    pods: async (ns) => (await registry.store('', 'pods').list(ns)).items,
    ...(config !== undefined ? { config: parsePodSecurityConfiguration(config) } : {}),
  })],
]);
