// The published operations of one served version of a custom resource, in one
// spelling of its group — the routes kube-apiserver's CRD OpenAPI builder
// (v1.27) registers, in the form src/openapi/routes.ts gives the built-ins:
//
//   /apis/<g>/<v>/<plural>                                     list (across namespaces, namespaced kinds)
//   /apis/<g>/<v>/[namespaces/{namespace}/]<plural>            list · create · deletecollection
//   /apis/<g>/<v>/[namespaces/{namespace}/]<plural>/{name}     get · replace · delete · patch
//   …/{name}/status                                           get · replace · patch   (status subresource)
//   …/{name}/scale                                            get · replace · patch   (scale: autoscaling/v1 Scale)
//
// No watch paths (kube publishes none for custom resources: a list takes watch=true).
// Query parameters are the built-ins' for each verb (src/openapi/params.ts); PATCH
// bodies take JSON patch, merge patch and apply patch (custom resources have no
// strategic merge patch); every operation carries the resource's group-version-kind.
import { DELETE_OPTIONS_ID, PATCH_ID, STATUS_ID, type GVK } from '../../openapi/definitions.js';
import { DELETE_COLLECTION_QUERY, DELETE_QUERY, LIST_QUERY, PATCH_QUERY, WRITE_QUERY, type ParamName } from '../../openapi/params.js';
import type { Operation, Route } from '../../openapi/routes.js';
import { OperationNames, operationDescription } from './names.js';

export const SCALE_ID = 'io.k8s.api.autoscaling.v1.Scale';

/** The media types a custom resource's PATCH takes (kube's CRD builder order). */
export const CR_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'] as const;
const CR_BODY_TYPES = ['application/json', 'application/yaml'] as const;

export interface VersionRoutesInput {
  /** The group as spelled in these paths. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** Definition names of the kind and its List. */
  readonly kindId: string;
  readonly listId: string;
  readonly status: boolean;
  readonly scale: boolean;
}

export function versionRoutes(v: VersionRoutesInput): Route[] {
  const routes = new Map<string, { params: readonly ParamName[]; ops: Operation[] }>();
  const add = (path: string, params: readonly ParamName[], op: Operation) => {
    const r = routes.get(path) ?? { params, ops: [] };
    r.ops.push(op);
    routes.set(path, r);
  };
  const names = new OperationNames(v.group, v.version);
  const gvk: GVK = { group: v.group, version: v.version, kind: v.kind };
  const scoped = v.namespaced ? 'Namespaced' : '';
  const base = `/apis/${v.group}/${v.version}`;
  const coll = `${base}${v.namespaced ? '/namespaces/{namespace}' : ''}/${v.plural}`;
  const collParams: ParamName[] = v.namespaced ? ['namespace', 'pretty'] : ['pretty'];
  const itemParams: ParamName[] = v.namespaced ? ['name', 'namespace', 'pretty'] : ['name', 'pretty'];
  const op = (o: Omit<Operation, 'tag' | 'gvk'>): Operation => ({ tag: names.tag, gvk, ...o });

  const list = { method: 'get', action: 'list', query: LIST_QUERY, response: v.listId, codes: ['200'] } as const;
  if (v.namespaced) {
    add(`${base}/${v.plural}`, ['pretty'], op({ ...list, operationId: names.id('list', `${v.kind}ForAllNamespaces`), description: operationDescription(v.kind, 'list') }));
  }
  add(coll, collParams, op({ ...list, operationId: names.id('list', scoped + v.kind), description: operationDescription(v.kind, 'list') }));
  add(coll, collParams, op({
    method: 'post', action: 'post', operationId: names.id('create', scoped + v.kind), description: operationDescription(v.kind, 'create'),
    query: WRITE_QUERY, body: { id: v.kindId, required: true, consumes: CR_BODY_TYPES }, response: v.kindId, codes: ['200', '201', '202'],
  }));
  add(coll, collParams, op({
    method: 'delete', action: 'deletecollection', operationId: names.id('deletecollection', scoped + v.kind),
    description: operationDescription(v.kind, 'deletecollection'), query: DELETE_COLLECTION_QUERY,
    body: { id: DELETE_OPTIONS_ID, required: false, consumes: CR_BODY_TYPES }, response: STATUS_ID, codes: ['200'],
  }));

  const item = `${coll}/{name}`;
  const objectOps = (path: string, sub: string, id: string, verbs: { delete: boolean }) => {
    const Sub = sub === '' ? '' : sub[0]!.toUpperCase() + sub.slice(1);
    const rest = scoped + v.kind + Sub;
    add(path, itemParams, op({ method: 'get', action: 'get', operationId: names.id('read', rest), description: operationDescription(v.kind, 'read', sub), query: [], response: id, codes: ['200'] }));
    add(path, itemParams, op({
      method: 'put', action: 'put', operationId: names.id('replace', rest), description: operationDescription(v.kind, 'replace', sub),
      query: WRITE_QUERY, body: { id, required: true, consumes: CR_BODY_TYPES }, response: id, codes: ['200', '201'],
    }));
    if (verbs.delete) {
      add(path, itemParams, op({
        method: 'delete', action: 'delete', operationId: names.id('delete', rest), description: operationDescription(v.kind, 'delete', sub),
        query: DELETE_QUERY, body: { id: DELETE_OPTIONS_ID, required: false, consumes: CR_BODY_TYPES }, response: STATUS_ID, codes: ['200', '202'],
      }));
    }
    add(path, itemParams, op({
      method: 'patch', action: 'patch', operationId: names.id('patch', rest), description: operationDescription(v.kind, 'patch', sub),
      query: PATCH_QUERY, body: { id: PATCH_ID, required: true, consumes: CR_PATCH_TYPES }, response: id, codes: ['200', '201'],
    }));
  };
  objectOps(item, '', v.kindId, { delete: true });
  if (v.status) objectOps(`${item}/status`, 'status', v.kindId, { delete: false });
  if (v.scale) objectOps(`${item}/scale`, 'scale', SCALE_ID, { delete: false });

  return [...routes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, r]) => ({ path, params: r.params, ops: r.ops }));
}
