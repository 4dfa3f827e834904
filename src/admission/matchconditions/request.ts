// The `request` variable (kube's CreateAdmissionRequest, then converted to
// unstructured as cel-go sees it): an admission.k8s.io/v1 AdmissionRequest of
// the request's attributes, with Go's omitempty — uid is "", subResource,
// name and namespace are left out when empty, userInfo lists only what the
// user has, options is the operation's options object. kind/resource and
// requestKind/requestResource are both the request's own (kube builds them
// from the same attributes).
import type { AdmissionAttributes } from '../../registry/admission.js';
import { kubernetesGroup } from '../../endpoints/requestinfo.js';

export interface RequestIdentity {
  readonly resource: { readonly group: string; readonly version: string; readonly resource: string };
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly subresource: string;
}

type Obj = Record<string, unknown>;

export function admissionRequestOf(a: AdmissionAttributes, id: RequestIdentity): Obj {
  const kind = { group: kubernetesGroup(id.kind.group), version: id.kind.version, kind: id.kind.kind };
  const resource = { group: kubernetesGroup(id.resource.group), version: id.resource.version, resource: id.resource.resource };
  const user = a.user;
  const userInfo: Obj = {};
  if (user) {
    if (user.name) userInfo.username = user.name;
    if (user.uid) userInfo.uid = user.uid;
    if (user.groups.length > 0) userInfo.groups = user.groups;
    if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
  }
  const req: Obj = { uid: '', kind, resource };
  if (id.subresource) req.subResource = id.subresource;
  req.requestKind = kind;
  req.requestResource = resource;
  if (id.subresource) req.requestSubResource = id.subresource;
  if (a.name) req.name = a.name;
  if (a.namespace) req.namespace = a.namespace;
  req.operation = a.operation;
  req.userInfo = userInfo;
  req.dryRun = a.dryRun;
  if (a.options) req.options = a.options;
  return req;
}
