// The catalogue of every resource Kubernetes v1.27 serves, in svc.io
// spelling: groups, versions (stability, default enablement, priorities),
// resources (verbs, names, scope, subresources, storage version). The API
// server builds storage, routes and discovery from it. One data module per
// group; catalog.ts assembles and indexes them; enablement.ts applies
// --runtime-config.
export type {
  DeprecationInfo, GroupInfo, GroupVersionKind, ResourceInfo, Stability, SubresourceInfo, Verb, VersionInfo,
} from './types.js';
export { KNOWN_VERBS } from './types.js';
export { stabilityOf, toK8sGroup, toSvcGroup } from './define.js';
export {
  allGroups, allResources, coreGroup, enabledByDefaultResources, group, groupVersion, isEnabledByDefault, lookup,
  lookupKind, lookupSubresource, namedGroups, storageVersionHash,
} from './catalog.js';
export { resolveEnablement } from './enablement.js';
export type { Enablement, RuntimeConfig } from './enablement.js';
