// Two rules outside the spec walk: CRDs in protected groups need an API
// approval annotation (validateAPIApproval, KEP 1111), and v1 CRDs may not set
// spec.preserveUnknownFields (validatePreserveUnknownFields).
//
// Protected groups are kube's (k8s.io, kubernetes.io and their subdomains)
// plus this server's spelling svc.io. The annotation is
// api-approved.kubernetes.io; api-approved.svc.io is read beside it, and an
// svc.io group is told the svc.io name.
import { type FieldError, fieldPath, invalid, required } from '../../api/meta/field.js';
import type { CustomResourceDefinition } from '../types.js';

export const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';
export const API_APPROVED_ANNOTATION_SVC = 'api-approved.svc.io';

const inDomain = (group: string, domain: string) => group === domain || group.endsWith(`.${domain}`);

export function isProtectedCommunityGroup(group: string): boolean {
  return inDomain(group, 'k8s.io') || inDomain(group, 'kubernetes.io') || inDomain(group, 'svc.io');
}

type ApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

/** Go's url.ParseRequestURI accepting the value with a scheme and a host. */
function isApprovalURL(s: string): boolean {
  if (/\s/.test(s) || s.includes('#')) return false; // ParseRequestURI takes no fragment; spaces break the host
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?]*)/.exec(s);
  if (!m) return false;
  const host = m[2]!.slice(m[2]!.lastIndexOf('@') + 1);
  return host.length > 0;
}

function approvalState(annotations: Record<string, string> | undefined, key: string): { state: ApprovalState; value: string; reason: string } {
  const value = annotations?.[API_APPROVED_ANNOTATION] || annotations?.[API_APPROVED_ANNOTATION_SVC] || '';
  if (value.length === 0) return { state: 'Missing', value, reason: `protected groups must have approval annotation ${JSON.stringify(key)}, see https://github.com/kubernetes/enhancements/pull/1111` };
  if (value.startsWith('unapproved')) return { state: 'Bypassed', value, reason: `not approved: ${JSON.stringify(value)}` };
  if (isApprovalURL(value)) return { state: 'Approved', value, reason: `approved in ${value}` };
  return {
    state: 'Invalid',
    value,
    reason: `protected groups must have approval annotation ${JSON.stringify(key)} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

export function validateAPIApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  const group = crd.spec?.group ?? '';
  if (!isProtectedCommunityGroup(group)) return [];
  const key = inDomain(group, 'svc.io') ? API_APPROVED_ANNOTATION_SVC : API_APPROVED_ANNOTATION;
  const now = approvalState(crd.metadata.annotations, key);
  if (old && approvalState(old.metadata.annotations, key).state === now.state) return [];
  const path = fieldPath('metadata').child('annotations').key(key);
  switch (now.state) {
    case 'Missing':
      return [required(path, now.reason)];
    case 'Invalid':
      return [invalid(path, now.value, now.reason)];
    default:
      return [];
  }
}

export function validatePreserveUnknownFields(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldError[] {
  if (old?.spec?.preserveUnknownFields === true) return [];
  if (crd.spec?.preserveUnknownFields === true) {
    return [invalid(fieldPath('spec').child('preserveUnknownFields'), true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  }
  return [];
}
