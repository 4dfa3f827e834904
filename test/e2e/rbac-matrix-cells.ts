// The cells of the RBAC matrix (rbac-matrix.test.ts): one per served resource
// × verb it serves and per subresource × verb, each with the HTTP request that
// exercises it, the object fixtures it needs, the status it answers when
// allowed and Kubernetes' 403 text when not.
//
// Object names are per served entry (index `ri` in servedResources()), so
// versions sharing one storage (autoscaling v1/v2, flowcontrol v1beta2/3,
// core/events.svc.io events) never touch each other's objects:
//   t<ri>   the target of get, update, patch and every subresource
//   d<ri>   deleted by the delete cell
//   dc<ri>  labelled matrix-dc=<ri>, deleted by the deletecollection cell
//   c<ri>   created by the create cell
//   ev<ri>, b<ri>  pods evicted / bound by pods/eviction and pods/binding
import { toK8sGroup } from '../../src/api/catalog/index.js';
import type { ServedResource, ServedSubresource } from '../../src/registry/registry.js';
import { MINIMAL_BODIES } from './fixtures.js';

export const NS = 'matrix';
export const OTHER_NS = 'matrix-other';
/** A ClusterRole without rules: every binding fixture points at it, so creating one never escalates. */
export const EMPTY_ROLE = 'matrix-empty';

export interface Req {
  readonly method: string;
  readonly path: string;
  /** A FreshBody when it is the object as it is just before the request (an update's). */
  readonly body?: unknown;
  readonly contentType?: string;
}

export interface Cell {
  readonly id: number;
  /** `core/v1 pods/exec create (POST)`: the test's label. */
  readonly label: string;
  /** The dedicated user allowed exactly this cell. */
  readonly user: string;
  readonly verb: string;
  /** svc.io spelling of the group. */
  readonly group: string;
  /** The group as the request path spells it (its API group in the 403 text). */
  readonly pathGroup: string;
  /** The group as the cell's ClusterRole rule spells it. */
  readonly ruleGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespaced: boolean;
  /** The object named by the request ('' for a collection). */
  readonly name: string;
  readonly req: Req;
  /** What the allowed request answers: 2xx, or the exact status of a request that cannot succeed here. */
  readonly expect: '2xx' | number;
  /** The served entry this cell belongs to (cells of one entry run in order). */
  readonly ri: number;
  /** Run order within its entry: reads, then writes to t, then creates, then deletes. */
  readonly phase: number;
}

/** The Status details of that 403: the object's name, the path's group, the resource (never the subresource). */
export function forbiddenDetails(c: Pick<Cell, 'pathGroup' | 'resource' | 'name'>): Record<string, string> {
  return { ...(c.name ? { name: c.name } : {}), ...(c.pathGroup ? { group: c.pathGroup } : {}), kind: c.resource };
}

/** The 403 message kube's authorization filter writes for `user` attempting `cell`. */
export function forbiddenText(user: string, c: Pick<Cell, 'verb' | 'pathGroup' | 'resource' | 'subresource' | 'name' | 'namespaced'>, ns = NS): string {
  const qualified = c.pathGroup ? `${c.resource}.${c.pathGroup}` : c.resource;
  const subject = c.name ? `${qualified} "${c.name}"` : qualified;
  const res = c.subresource ? `${c.resource}/${c.subresource}` : c.resource;
  // As kube's request info: a namespace's own path (…/namespaces/n[/status|/finalize]) is in namespace n.
  const namespace = c.namespaced ? ns : c.resource === 'namespaces' && c.pathGroup === '' ? c.name : '';
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  return `${subject} is forbidden: User "${user}" cannot ${c.verb} resource "${res}" in API group "${c.pathGroup}" ${scope}`;
}

const labelPatch = { metadata: { labels: { patched: 'yes' } } };
const MERGE = 'application/merge-patch+json';

const CRD_GROUP = 'matrix.example.com';

/** An object's name: a CRD's must be `<plural>.<group>` (its body names that plural). */
function nameOf(r: ServedResource, base: string): string {
  return r.resource === 'customresourcedefinitions' ? `${base}.${CRD_GROUP}` : base;
}

/** A created object: its name and the fields its kind needs. */
function bodyOf(r: ServedResource, base: string, labels?: Record<string, string>): Record<string, unknown> {
  return { metadata: { name: nameOf(r, base), ...(labels ? { labels } : {}) }, ...minimalBody(r, base) };
}

/** Extra fields of a created object beyond its name (the shared fixtures, adjusted to this namespace and role). */
function minimalBody(r: ServedResource, base: string): Record<string, unknown> {
  const key = `${r.group}/${r.resource}`;
  switch (key) {
    case 'apiextensions.svc.io/customresourcedefinitions':
      return { spec: { group: CRD_GROUP, scope: 'Namespaced', names: { plural: base, kind: `M${base}` }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } };
    case '/events':
      return { involvedObject: { kind: 'Pod', name: 'p', namespace: NS }, reason: 'Test', type: 'Normal' };
    case 'events.svc.io/events':
      return { ...MINIMAL_BODIES[key], regarding: { kind: 'Pod', name: 'p', namespace: NS } };
    case 'rbac.authorization.svc.io/rolebindings':
    case 'rbac.authorization.svc.io/clusterrolebindings':
      return { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: EMPTY_ROLE } };
    default:
      return MINIMAL_BODIES[key] ?? {};
  }
}

/** The objects an entry's cells need, created by the admin before either pass: [collection path, body]. */
export function fixturesFor(r: ServedResource, ri: number): { path: string; body: Record<string, unknown> }[] {
  if (r.virtual) {
    // core/v1 bindings bind a pod of their own.
    if (r.resource === 'bindings') return [{ path: `/api/v1/namespaces/${NS}/pods`, body: { metadata: { name: `b${ri}` }, ...MINIMAL_BODIES['/pods'] } }];
    return [];
  }
  const coll = collectionPath(r, r.group);
  const names = [`t${ri}`];
  if (r.verbs.includes('delete')) names.push(`d${ri}`);
  if (r.resource === 'pods') names.push(`ev${ri}`, `b${ri}`);
  const out: { path: string; body: Record<string, unknown> }[] = names.map((name) => ({ path: coll, body: bodyOf(r, name) }));
  if (r.verbs.includes('deletecollection')) out.push({ path: coll, body: bodyOf(r, `dc${ri}`, { 'matrix-dc': String(ri) }) });
  return out;
}

export function collectionPath(r: Pick<ServedResource, 'group' | 'version' | 'resource' | 'namespaced'>, pathGroup: string): string {
  const gv = pathGroup === '' ? `/api/${r.version}` : `/apis/${pathGroup}/${r.version}`;
  return r.namespaced ? `${gv}/namespaces/${NS}/${r.resource}` : `${gv}/${r.resource}`;
}

/** Every cell of the served resources, numbered from 0. */
export function buildCells(resources: readonly ServedResource[]): Cell[] {
  const cells: Cell[] = [];
  resources.forEach((r, ri) => {
    for (const spec of cellSpecs(r, ri)) {
      const id = cells.length;
      // svc.io groups: the path and the rule each take one spelling, all four combinations in turn.
      const svc = r.group.includes('svc.io');
      const pathGroup = svc && id % 2 === 1 ? toK8sGroup(r.group) : r.group;
      const ruleGroup = svc && Math.floor(id / 2) % 2 === 1 ? toK8sGroup(r.group) : r.group;
      const coll = collectionPath(r, pathGroup);
      const item = spec.name ? `${coll}/${spec.name}${spec.subresource ? `/${spec.subresource}` : ''}` : coll;
      const path = spec.query ? `${item}?${spec.query}` : item;
      const label = `${r.group || 'core'}/${r.version} ${r.resource}${spec.subresource ? `/${spec.subresource}` : ''} ${spec.verb}${spec.method !== defaultMethod(spec.verb) ? ` (${spec.method})` : ''}`;
      cells.push({
        id, label, user: `m-${id}`, verb: spec.verb, group: r.group, pathGroup, ruleGroup, resource: r.resource,
        subresource: spec.subresource ?? '', namespaced: r.namespaced, name: spec.name, ri, phase: spec.phase,
        req: { method: spec.method, path, body: spec.body, contentType: spec.contentType }, expect: spec.expect ?? '2xx',
      });
    }
  });
  return cells;
}

function defaultMethod(verb: string): string {
  return ({ get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' } as Record<string, string>)[verb]!;
}

interface Spec {
  verb: string;
  method: string;
  name: string;
  subresource?: string;
  query?: string;
  body?: unknown;
  contentType?: string;
  expect?: '2xx' | number;
  phase: number;
}

/** A body the admin reads just before the request (so its resourceVersion is current), then `mutate`s. */
export interface FreshBody {
  /** '' to read the object itself, else the subresource to read (status, scale, approval, ephemeralcontainers). */
  readonly fresh: string;
  readonly mutate?: (o: Record<string, unknown>) => Record<string, unknown>;
}

function cellSpecs(r: ServedResource, ri: number): Spec[] {
  if (r.virtual) return virtualSpecs(r, ri);
  const t = nameOf(r, `t${ri}`);
  const out: Spec[] = [];
  const v = new Set(r.verbs);
  if (v.has('get')) out.push({ verb: 'get', method: 'GET', name: t, phase: 0 });
  if (v.has('list')) out.push({ verb: 'list', method: 'GET', name: '', phase: 0 });
  if (v.has('watch')) out.push({ verb: 'watch', method: 'GET', name: '', query: 'watch=1&timeoutSeconds=1', phase: 0 });
  if (v.has('update')) out.push({ verb: 'update', method: 'PUT', name: t, body: { fresh: '', mutate: relabel } satisfies FreshBody, phase: 1 });
  if (v.has('patch')) out.push({ verb: 'patch', method: 'PATCH', name: t, body: labelPatch, contentType: MERGE, phase: 1 });
  if (v.has('create')) out.push({ verb: 'create', method: 'POST', name: '', body: bodyOf(r, `c${ri}`), expect: 201, phase: 2 });
  if (v.has('delete')) out.push({ verb: 'delete', method: 'DELETE', name: nameOf(r, `d${ri}`), phase: 3 });
  if (v.has('deletecollection')) out.push({ verb: 'deletecollection', method: 'DELETE', name: '', query: `labelSelector=matrix-dc%3D${ri}`, phase: 3 });
  for (const s of r.subresources) out.push(...subresourceSpecs(r, s, ri));
  return out;
}

function relabel(o: Record<string, unknown>): Record<string, unknown> {
  const meta = o.metadata as Record<string, unknown>;
  return { ...o, metadata: { ...meta, labels: { ...(meta.labels as object | undefined), updated: 'yes' } } };
}

function subresourceSpecs(r: ServedResource, s: ServedSubresource, ri: number): Spec[] {
  const t = nameOf(r, `t${ri}`);
  const sub = s.name;
  const out: Spec[] = [];
  const has = (verb: string) => s.verbs.includes(verb as never);
  switch (sub) {
    case 'status':
    case 'scale':
    case 'approval':
    case 'ephemeralcontainers':
    case 'finalize': {
      if (has('get')) out.push({ verb: 'get', method: 'GET', name: t, subresource: sub, phase: 0 });
      if (has('update')) out.push({ verb: 'update', method: 'PUT', name: t, subresource: sub, body: { fresh: sub === 'finalize' ? '' : sub, mutate: sub === 'approval' ? approve : (o) => o } satisfies FreshBody, phase: 1 });
      if (has('patch')) out.push({ verb: 'patch', method: 'PATCH', name: t, subresource: sub, body: sub === 'scale' ? { spec: { replicas: 2 } } : {}, contentType: MERGE, phase: 1 });
      return out;
    }
    case 'token':
      return [{ verb: 'create', method: 'POST', name: t, subresource: sub, body: { spec: {} }, expect: 201, phase: 2 }];
    // the pod evicted / bound: a Status of 201
    case 'eviction':
      return [{ verb: 'create', method: 'POST', name: `ev${ri}`, subresource: sub, body: { metadata: { name: `ev${ri}` } }, expect: 201, phase: 2 }];
    case 'binding':
      return [{ verb: 'create', method: 'POST', name: `b${ri}`, subresource: sub, body: { metadata: { name: `b${ri}` }, target: { kind: 'Node', name: 'matrix-node' } }, expect: 201, phase: 2 }];
    case 'log':
      // An unscheduled pod: kube streams nothing (204), svc the same.
      return [{ verb: 'get', method: 'GET', name: t, subresource: sub, expect: 204, phase: 0 }];
    case 'exec':
    case 'attach':
    case 'portforward': {
      // No host assigned: 400 "pod t does not have a host assigned" by either method, as kube.
      const query = sub === 'portforward' ? 'ports=80' : sub === 'exec' ? 'command=true&stdout=true' : 'stdout=true';
      return s.verbs.map((verb) => ({ verb, method: verb === 'create' ? 'POST' : 'GET', name: t, subresource: sub, query, expect: 400, phase: 0 }));
    }
    case 'proxy': {
      // Each verb through its method, the object untouched: as kube, a pod without an IP is 400 and a Service
      // without an Endpoints object 404; a node, 503 (svc has no path to a kubelet yet).
      const expect = r.resource === 'pods' ? 400 : r.resource === 'services' ? 404 : 503;
      return s.verbs.map((verb) => ({ verb, method: defaultMethod(verb), name: t, subresource: sub, body: verb === 'get' || verb === 'delete' ? undefined : {}, expect, phase: 0 }));
    }
    default:
      throw new Error(`rbac matrix: no cell recipe for subresource ${r.resource}/${sub}`);
  }
}

/**
 * The status of an allowed request svc does not serve yet (componentstatuses:
 * 405 "… is not supported"); Kubernetes answers 2xx. Change these cells to
 * 2xx when they land.
 */
export const NOT_YET = 405;

function approve(o: Record<string, unknown>): Record<string, unknown> {
  const status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Matrix', message: 'approved by the rbac matrix' }] };
  return { ...o, status };
}

/** Create-only and read-only resources that store nothing: reviews, bindings, component statuses. */
function virtualSpecs(r: ServedResource, ri: number): Spec[] {
  const notYet = (specs: Spec[]) => specs.map((x) => ({ ...x, expect: NOT_YET }));
  const create = (body: unknown): Spec[] => [{ verb: 'create', method: 'POST', name: '', body, expect: 201, phase: 2 }];
  const attrs = { namespace: NS, verb: 'get', resource: 'pods' };
  switch (r.resource) {
    case 'bindings':
      return create({ metadata: { name: `b${ri}` }, target: { kind: 'Node', name: 'matrix-node' } });
    case 'componentstatuses':
      return notYet([{ verb: 'get', method: 'GET', name: 'etcd-0', phase: 0 }, { verb: 'list', method: 'GET', name: '', phase: 0 }]);
    case 'tokenreviews':
      return create({ spec: { token: 'not-a-token' } });
    case 'subjectaccessreviews':
      return create({ spec: { user: 'someone', resourceAttributes: attrs } });
    case 'localsubjectaccessreviews':
      return create({ metadata: { namespace: NS }, spec: { user: 'someone', resourceAttributes: attrs } });
    case 'selfsubjectaccessreviews':
      return create({ spec: { resourceAttributes: attrs } });
    case 'selfsubjectrulesreviews':
      return create({ spec: { namespace: NS } });
    default:
      throw new Error(`rbac matrix: no cell recipe for virtual resource ${r.resource}`);
  }
}
