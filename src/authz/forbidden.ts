// Kubernetes' 403 for a request the authorizers did not allow
// (responsewriters.Forbidden): `<resource>[.group] ["name"] is forbidden: User
// "u" cannot <verb> resource "<res[/sub]>" in API group "<g>" (in the namespace
// "ns"|at the cluster scope)[: reason]`, or `forbidden: User "u" cannot <verb>
// path "/p"` for a non-resource request.
import { newForbidden, type StatusError } from '../api/meta/index.js';
import type { Attributes } from './authorizer.js';

/** The refusal's text, without the subject prefix. */
export function forbiddenMessage(a: Attributes, reason: string): string {
  const who = `User "${a.user.name}"`;
  const why = reason ? `: ${reason}` : '';
  if (!a.isResourceRequest) return `${who} cannot ${a.verb} path "${a.path}"${why}`;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${who} cannot ${a.verb} resource "${res}" in API group "${a.apiGroup}" ${scope}${why}`;
}

/** The 403 Status error for attributes the authorizers did not allow. */
export function forbiddenError(a: Attributes, reason: string): StatusError {
  const target = a.isResourceRequest ? { group: a.apiGroup, resource: a.resource } : { group: '', resource: '' };
  return newForbidden(target, a.isResourceRequest ? a.name : '', forbiddenMessage(a, reason));
}
