// Resource names as Kubernetes classifies them (pkg/apis/core/helper):
// native ones (no domain, or in kubernetes.io — and in the bare svc.io domain,
// our `svc.io/x` spelling; `x.svc.io/…` is like kube's `x.k8s.io/…`, which is
// not native) and extended ones (any other domain, valid as a quota name once
// prefixed with "requests."). Shared by
// LimitRange and ResourceQuota validation, the quota evaluators and the
// ExtendedResourceToleration plugin.
import { isQualifiedName } from '../../meta/validation.js';

/** helper.IsNativeResource. */
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/') || name.split('/')[0] === 'svc.io';

/** helper.IsExtendedResourceName. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`);
}
