// The signals of a request to a deprecated API version (kube's installer +
// endpoints/metrics MonitorRequest, and the CRD handler), one mechanism for
// built-in kinds and custom resources:
//
//   Warning header   299 - "<gv> <Kind> is deprecated in v1.X+[, unavailable in v1.Y+][; use …]"
//                    (a CRD version: its deprecationWarning), groups spelled as the request spelled them
//   audit            svc.io/deprecated=true, k8s.io/deprecated=true and, when a removal release
//                    is known, svc.io/removed-release and k8s.io/removed-release (e.g. "1.29")
//   gauge            apiserver_requested_deprecated_apis{group,version,resource,subresource,removed_release} = 1
//
// The text and labels of an endpoint are worked out once and kept with the
// served resource; a request to a version that is not deprecated pays two
// property checks.
import type { RequestContext } from '../server/context.js';
import { addWarning } from '../server/respond.js';
import { addAuditAnnotation } from '../server/auditannotations.js';
import { newGauge } from '../metrics/registry.js';
import { groupSpelling, spellGroup } from '../endpoints/requestinfo.js';
import type { ServedResource, ServedSubresource } from '../registry/registry.js';
import { lookupKind } from '../api/catalog/index.js';
import type { DeprecationInfo } from '../api/catalog/types.js';
import { warningMessage } from './lifecycle.js';

export const DEPRECATED_ANNOTATION_KEYS = ['svc.io/deprecated', 'k8s.io/deprecated'] as const;
export const REMOVED_RELEASE_ANNOTATION_KEYS = ['svc.io/removed-release', 'k8s.io/removed-release'] as const;

/** kube v1.27's gauge (endpoints/metrics deprecatedRequestGauge). */
const requestedDeprecatedAPIs = newGauge({
  name: 'apiserver_requested_deprecated_apis',
  help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
  labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
  stabilityLevel: 'STABLE',
});

/** What a request to one deprecated endpoint signals. */
export interface DeprecatedEndpoint {
  readonly warning: string;
  /** `1.29`, or '' when no removal is announced (always '' for custom resources, as kube). */
  readonly removedRelease: string;
  readonly labels: { readonly group: string; readonly version: string; readonly resource: string; readonly subresource: string; readonly removed_release: string };
  /** The labels as one string: which gauge series this endpoint sets. */
  readonly series: string;
}

/** Endpoints worked out so far, by served resource, then `<request group>/<subresource>`. */
const known = new WeakMap<ServedResource, Map<string, DeprecatedEndpoint | null>>();
/** Series the gauge already holds (it is only ever set to 1). */
const recorded = new Set<string>();

/** The deprecation a route's body kind carries: the parent's for its own kind, none for another group's kind (Scale, Eviction). */
function kindDeprecation(served: ServedResource, sub: ServedSubresource | undefined): DeprecationInfo | undefined {
  if (!sub || sub.kind === served.kind) return served.deprecated;
  if (sub.group !== undefined) return lookupKind(sub.group, sub.version ?? served.version, sub.kind)?.deprecated;
  return lookupKind(served.group, served.version, sub.kind)?.deprecated;
}

function endpointOf(served: ServedResource, sub: ServedSubresource | undefined, requestGroup: string, subresource: string): DeprecatedEndpoint | null {
  const signal = (warning: string, removedRelease: string): DeprecatedEndpoint => ({
    warning, removedRelease,
    labels: { group: requestGroup, version: served.version, resource: served.resource, subresource, removed_release: removedRelease },
    series: [requestGroup, served.version, served.resource, subresource, removedRelease].join('\n'),
  });
  const crdWarning = served.custom?.deprecationWarning;
  if (served.custom) return crdWarning === undefined ? null : signal(crdWarning, '');
  const d = kindDeprecation(served, sub);
  if (!d) return null;
  const spelling = groupSpelling(requestGroup);
  const kind = sub && sub.group === undefined ? sub.kind : served.kind;
  const warning = warningMessage({ group: requestGroup, version: served.version, kind }, {
    deprecated: d.since,
    ...(d.removedIn ? { removed: d.removedIn } : {}),
    ...(d.replacement ? { replacement: { ...d.replacement, group: spellGroup(d.replacement.group, spelling) } } : {}),
  });
  return signal(warning, d.removedIn ?? '');
}

/**
 * The deprecated endpoint a request reached, or undefined. `requestGroup` is the group as the
 * request spelled it; `sub` the matched subresource (undefined for the resource itself).
 */
export function deprecatedEndpoint(served: ServedResource, sub: ServedSubresource | undefined, requestGroup: string): DeprecatedEndpoint | undefined {
  if (served.deprecated === undefined && served.custom?.deprecationWarning === undefined) return undefined;
  let byRoute = known.get(served);
  if (!byRoute) known.set(served, (byRoute = new Map()));
  const subresource = sub?.name ?? '';
  const key = `${requestGroup}/${subresource}`;
  let e = byRoute.get(key);
  if (e === undefined) byRoute.set(key, (e = endpointOf(served, sub, requestGroup, subresource)));
  return e ?? undefined;
}

/** Sends the Warning, records the audit annotations and sets the gauge for one request. */
export function signalDeprecated(ctx: RequestContext, e: DeprecatedEndpoint): void {
  addWarning(ctx, e.warning);
  for (const k of DEPRECATED_ANNOTATION_KEYS) addAuditAnnotation(ctx, k, 'true');
  if (e.removedRelease !== '') for (const k of REMOVED_RELEASE_ANNOTATION_KEYS) addAuditAnnotation(ctx, k, e.removedRelease);
  if (!recorded.has(e.series)) {
    recorded.add(e.series);
    requestedDeprecatedAPIs.set(e.labels, 1);
  }
}
