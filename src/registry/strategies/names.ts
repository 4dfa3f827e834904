// Name validators per kind, as Kubernetes' ValidateObjectMeta receives them.
// A generateName prefix is checked with the trailing '-' it usually has allowed.
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, pathSegmentNameErrors } from '../../api/meta/index.js';
import type { NameValidator } from '../strategy.js';
import { clusterTrustBundleNameErrors } from '../../api/certificates/v1alpha1/validation.js';
import { isObject } from '../object.js';

function maskTrailingDash(name: string, prefix: boolean): string {
  return prefix && name.length > 1 && name.endsWith('-') ? name.slice(0, -1) + 'a' : name;
}

export const subdomainName: NameValidator = (name, prefix) => dns1123SubdomainErrors(maskTrailingDash(name, prefix));
export const labelName: NameValidator = (name, prefix) => dns1123LabelErrors(maskTrailingDash(name, prefix));
export const dns1035Name: NameValidator = (name, prefix) => dns1035LabelErrors(maskTrailingDash(name, prefix));
export const pathSegmentName: NameValidator = (name, prefix) => pathSegmentNameErrors(name, prefix);

/** ClusterTrustBundle: the name follows spec.signerName (ValidateClusterTrustBundleName). */
export const clusterTrustBundleName: NameValidator = (name, prefix, obj) => {
  const spec = isObject(obj?.spec) ? obj!.spec : {};
  return clusterTrustBundleNameErrors(typeof spec.signerName === 'string' ? spec.signerName : '', name, prefix);
};
