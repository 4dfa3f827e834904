// The API lifecycle of a served kind (kube's prerelease-lifecycle-gen and
// pkg/endpoints/deprecation): the releases that introduced, deprecate and
// remove a kind in one version, and the kind to use instead.
//
//   alpha and beta kinds  deprecated = introduced + 3 minors, removed =
//                         deprecated + 3 minors, unless given explicitly
//   GA kinds              only what is given (ComponentStatus: deprecated 1.19)
//
// A kind is deprecated when its deprecation release is at or before the
// release this server is; the Warning text is kube's WarningMessage.
import type { GroupVersionKind, Stability } from '../api/catalog/types.js';

/** A release as `major.minor` ("1.27"). */
export type Release = string;

/** The release this server is (kube's version/info; /version reports the same). */
export const CURRENT_RELEASE: Release = '1.27';

/** What a kind's type declares (kube's `+k8s:prerelease-lifecycle-gen:` tags, or a GA kind's hand-written methods). */
export interface LifecycleTags {
  readonly introduced?: Release;
  readonly deprecated?: Release;
  readonly removed?: Release;
  readonly replacement?: GroupVersionKind;
}

/** The lifecycle kube's generated methods report. */
export interface APILifecycle {
  readonly introduced?: Release;
  readonly deprecated?: Release;
  readonly removed?: Release;
  readonly replacement?: GroupVersionKind;
}

export function parseRelease(r: Release): { major: number; minor: number } {
  const m = /^(\d+)\.(\d+)$/.exec(r);
  if (!m) throw new Error(`not a release (major.minor): ${JSON.stringify(r)}`);
  return { major: Number(m[1]), minor: Number(m[2]) };
}

const plusThree = (r: Release): Release => {
  const { major, minor } = parseRelease(r);
  return `${major}.${minor + 3}`;
};

/** Whether release a is at or before release b. */
export function atOrBefore(a: Release, b: Release): boolean {
  const x = parseRelease(a);
  const y = parseRelease(b);
  return x.major < y.major || (x.major === y.major && x.minor <= y.minor);
}

/** The generator's policy: alpha and beta kinds get computed deprecation and removal releases. */
export function completeLifecycle(stability: Stability, tags: LifecycleTags): APILifecycle {
  if (stability === 'ga') return tags;
  if (!tags.introduced) throw new Error('an alpha or beta kind with a lifecycle needs its introduced release');
  const deprecated = tags.deprecated ?? plusThree(tags.introduced);
  const removed = tags.removed ?? plusThree(deprecated);
  return { introduced: tags.introduced, deprecated, removed, ...(tags.replacement ? { replacement: tags.replacement } : {}) };
}

/** kube's IsDeprecated: a deprecation release at or before `current`. */
export function isDeprecated(l: APILifecycle | undefined, current: Release): boolean {
  return l?.deprecated !== undefined && atOrBefore(l.deprecated, current);
}

/** `<group>/<version>`, or the version alone for the core group (kube's GroupVersion.String). */
export function groupVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * kube's WarningMessage, the groups as given (the caller spells them as the request did):
 * `<gv> <Kind> is deprecated in v1.X+[, unavailable in v1.Y+][; use <gv> <Kind>]`.
 */
export function warningMessage(gvk: GroupVersionKind, l: { readonly deprecated: Release; readonly removed?: Release; readonly replacement?: GroupVersionKind }): string {
  let msg = `${groupVersion(gvk.group, gvk.version)} ${gvk.kind} is deprecated in v${l.deprecated}+`;
  if (l.removed) msg += `, unavailable in v${l.removed}+`;
  if (l.replacement) msg += `; use ${groupVersion(l.replacement.group, l.replacement.version)} ${l.replacement.kind}`;
  return msg;
}
