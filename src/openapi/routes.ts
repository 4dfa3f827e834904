// The operations of one served group-version in one spelling of its group, in
// a form neither v2 nor v3: which paths exist, which methods each has, the
// Kubernetes action (x-kubernetes-action), the group-version-kind it acts on,
// its query parameters, body and response. v2.ts and v3.ts render them.
//
//   <prefix>/[namespaces/{namespace}/]<resource>          list · create · deletecollection
//   <prefix>/<resource>                                   list across namespaces (namespaced kinds)
//   <prefix>/[namespaces/{namespace}/]<resource>/{name}   get · replace · patch · delete
//   <prefix>/watch/[namespaces/{namespace}/]<resource>[/{name}]   watch (deprecated form, still served)
//   …/{name}/<subresource>[/{path}]                       status, scale, binding, exec, proxy…
//   <prefix>/                                             the group-version's discovery document
import { kubernetesGroup } from '../endpoints/requestinfo.js';
import type { ServedResource, ServedSubresource } from '../registry/registry.js';
import { DELETE_OPTIONS_ID, isConnect, PATCH_ID, RESOURCE_LIST_ID, STATUS_ID, WATCH_EVENT_ID, type Definitions, type GVK } from './definitions.js';
import { DELETE_COLLECTION_QUERY, DELETE_QUERY, LIST_QUERY, PATCH_QUERY, SUBRESOURCE_QUERY, WRITE_QUERY, type ParamName } from './params.js';

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
export type Action = 'get' | 'list' | 'watch' | 'watchlist' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection' | 'connect';

export interface Operation {
  readonly method: Method;
  /** x-kubernetes-action; none for discovery. */
  readonly action?: Action;
  readonly operationId: string;
  readonly description: string;
  readonly tag: string;
  /** In the spelling of the route; none for discovery. */
  readonly gvk?: GVK;
  readonly query: readonly ParamName[];
  /**
   * Component id of the body; `patch` bodies take the patch media types, other bodies any type,
   * unless `consumes` lists them (custom resources: no strategic merge patch).
   */
  readonly body?: { readonly id: string; readonly required: boolean; readonly patch?: boolean; readonly consumes?: readonly string[] };
  /** Component id of the answer, or 'string' (logs, connections). */
  readonly response: string;
  /** Success codes. */
  readonly codes: readonly string[];
  /** A watch stream (application/json;stream=watch). */
  readonly stream?: boolean;
}

export interface Route {
  readonly path: string;
  /** Path-level parameters (path parameters and `pretty`). */
  readonly params: readonly ParamName[];
  readonly ops: readonly Operation[];
}

const CONNECT_METHODS: Record<string, Method> = { get: 'get', create: 'post', update: 'put', patch: 'patch', delete: 'delete' };

/** The routes of a group-version's resources, with `group` spelled as `spelled` ('' for core). */
export function routesFor(defs: Definitions, resources: readonly ServedResource[], spelled: string): Route[] {
  const routes = new Map<string, { params: readonly ParamName[]; ops: Operation[] }>();
  const add = (path: string, params: readonly ParamName[], op: Operation) => {
    const r = routes.get(path) ?? { params, ops: [] };
    if (!r.ops.some((o) => o.method === op.method)) r.ops.push(op);
    routes.set(path, r);
  };
  for (const r of resources) resourceRoutes(defs, r, spelled, add);
  const first = resources[0];
  if (first !== undefined) {
    const names = new OpNames(spelled, first.version, false, '');
    add(`${prefix(spelled, first.version)}/`, [], {
      method: 'get', operationId: names.id('get', 'APIResources'), description: 'List the resources of the group-version (discovery).',
      tag: names.tag, query: [], response: RESOURCE_LIST_ID, codes: ['200'],
    });
  }
  return [...routes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, r]) => ({ path, params: r.params, ops: r.ops }));
}

type Add = (path: string, params: readonly ParamName[], op: Operation) => void;

function resourceRoutes(defs: Definitions, r: ServedResource, g: string, add: Add): void {
  const v = r.version;
  const pre = prefix(g, v);
  const ns = r.namespaced ? '/namespaces/{namespace}' : '';
  const nsParams: ParamName[] = r.namespaced ? ['namespace', 'pretty'] : ['pretty'];
  const itemParams: ParamName[] = r.namespaced ? ['name', 'namespace', 'pretty'] : ['name', 'pretty'];
  const coll = `${pre}${ns}/${r.resource}`;
  const item = `${coll}/{name}`;
  const canonical: GVK = { group: r.group, version: v, kind: r.kind };
  const gvk: GVK = { group: g, version: v, kind: r.kind };
  const id = defs.kindId(canonical);
  const names = new OpNames(g, v, r.namespaced, r.kind);
  const verbs = new Set(r.verbs);
  const op = (o: Omit<Operation, 'tag' | 'gvk'> & { gvk?: GVK }): Operation => ({ tag: names.tag, gvk, ...o });

  if (verbs.has('list')) {
    const list = { action: 'list' as const, method: 'get' as const, query: LIST_QUERY, response: defs.listId(canonical), codes: ['200'], stream: true };
    add(coll, nsParams, op({ ...list, operationId: names.id('list'), description: `List or watch ${r.kind} objects${r.namespaced ? ' in a namespace' : ''}.` }));
    if (r.namespaced) {
      add(`${pre}/${r.resource}`, ['pretty'], op({ ...list, operationId: names.id('list', '', 'ForAllNamespaces'), description: `List or watch ${r.kind} objects in every namespace.` }));
    }
  }
  if (verbs.has('watch')) {
    const watch = { method: 'get' as const, query: LIST_QUERY, response: WATCH_EVENT_ID, codes: ['200'], stream: true };
    const wpre = `${pre}/watch${ns}/${r.resource}`;
    add(wpre, nsParams, op({ ...watch, action: 'watchlist', operationId: names.id('watch', '', 'List'), description: `Watch changes to ${r.kind} objects. Deprecated: use a list with watch=true.` }));
    add(`${wpre}/{name}`, itemParams, op({ ...watch, action: 'watch', operationId: names.id('watch'), description: `Watch changes to one ${r.kind}. Deprecated: use a list with watch=true and a metadata.name field selector.` }));
    if (r.namespaced) {
      add(`${pre}/watch/${r.resource}`, ['pretty'], op({ ...watch, action: 'watchlist', operationId: names.id('watch', '', 'ListForAllNamespaces'), description: `Watch changes to ${r.kind} objects in every namespace. Deprecated: use a list with watch=true.` }));
    }
  }
  if (verbs.has('create')) {
    add(coll, nsParams, op({ method: 'post', action: 'post', operationId: names.id('create'), description: `Create a ${r.kind}.`, query: WRITE_QUERY, body: { id, required: true }, response: id, codes: ['200', '201', '202'] }));
  }
  if (verbs.has('deletecollection')) {
    add(coll, nsParams, op({ method: 'delete', action: 'deletecollection', operationId: names.id('deleteCollection'), description: `Delete every selected ${r.kind}.`, query: DELETE_COLLECTION_QUERY, body: { id: DELETE_OPTIONS_ID, required: false }, response: STATUS_ID, codes: ['200'] }));
  }
  if (verbs.has('get')) add(item, itemParams, op({ method: 'get', action: 'get', operationId: names.id('read'), description: `Read a ${r.kind}.`, query: [], response: id, codes: ['200'] }));
  if (verbs.has('update')) add(item, itemParams, op({ method: 'put', action: 'put', operationId: names.id('replace'), description: `Replace a ${r.kind}.`, query: WRITE_QUERY, body: { id, required: true }, response: id, codes: ['200', '201'] }));
  if (verbs.has('patch')) add(item, itemParams, op({ method: 'patch', action: 'patch', operationId: names.id('patch'), description: `Partially update a ${r.kind}.`, query: PATCH_QUERY, body: { id: PATCH_ID, required: true, patch: true }, response: id, codes: ['200', '201'] }));
  if (verbs.has('delete')) add(item, itemParams, op({ method: 'delete', action: 'delete', operationId: names.id('delete'), description: `Delete a ${r.kind}.`, query: DELETE_QUERY, body: { id: DELETE_OPTIONS_ID, required: false }, response: STATUS_ID, codes: ['200', '202'] }));

  for (const s of r.subresources) subresourceRoutes(defs, r, s, { g, item, itemParams, names, add });
}

interface SubContext {
  readonly g: string;
  readonly item: string;
  readonly itemParams: readonly ParamName[];
  readonly names: OpNames;
  readonly add: Add;
}

function subresourceRoutes(defs: Definitions, r: ServedResource, s: ServedSubresource, c: SubContext): void {
  const path = `${c.item}/${s.name}`;
  const Sub = capitalize(s.name);
  // A subresource of another group (scale: autoscaling/v1 Scale, token: authentication/v1 TokenRequest)
  // is spelled like the route's group; beside a group without a domain (core, apps), as Kubernetes spells it.
  const svcSpelled = kubernetesGroup(c.g) !== c.g;
  const group = s.group === undefined ? c.g : svcSpelled ? s.group : kubernetesGroup(s.group);
  const gvk: GVK = { group, version: s.version ?? r.version, kind: s.kind };
  const base = { tag: c.names.tag, gvk };
  if (isConnect(s)) {
    const withPath = s.name === 'proxy' ? [path, `${path}/{path}`] : [path];
    for (const p of withPath) {
      const suffix = p === path ? '' : 'WithPath';
      // Proxies also pass HEAD and OPTIONS on.
      const methods = [...s.verbs.map((v) => CONNECT_METHODS[v]), ...(s.name === 'proxy' ? (['head', 'options'] as const) : [])];
      for (const method of methods) {
        if (method === undefined) continue;
        const pathParams = c.itemParams.filter((x) => x !== 'pretty');
        c.add(p, p === path ? pathParams : [...pathParams, 'path'], {
          ...base, method, action: 'connect', query: SUBRESOURCE_QUERY[s.name] ?? [], response: 'string', codes: ['200'],
          operationId: c.names.id(`connect${capitalize(method)}`, Sub + suffix),
          description: `Connect to the ${s.name} of a ${r.kind}.`,
        });
      }
    }
    return;
  }
  const id = defs.kindId({ group: s.group ?? r.group, version: s.version ?? r.version, kind: s.kind });
  const verbs = new Set(s.verbs);
  const what = `the ${s.name} of a ${r.kind}`;
  if (verbs.has('get')) {
    c.add(path, c.itemParams, { ...base, method: 'get', action: 'get', operationId: c.names.id('read', Sub), description: `Read ${what}.`, query: SUBRESOURCE_QUERY[s.name] ?? [], response: s.name === 'log' ? 'string' : id, codes: ['200'] });
  }
  if (verbs.has('create')) {
    c.add(path, c.itemParams, { ...base, method: 'post', action: 'post', operationId: c.names.id('create', Sub), description: `Create ${what}.`, query: WRITE_QUERY, body: { id, required: true }, response: id, codes: ['200', '201', '202'] });
  }
  if (verbs.has('update')) {
    c.add(path, c.itemParams, { ...base, method: 'put', action: 'put', operationId: c.names.id('replace', Sub), description: `Replace ${what}.`, query: WRITE_QUERY, body: { id, required: true }, response: id, codes: ['200', '201'] });
  }
  if (verbs.has('patch')) {
    c.add(path, c.itemParams, { ...base, method: 'patch', action: 'patch', operationId: c.names.id('patch', Sub), description: `Partially update ${what}.`, query: PATCH_QUERY, body: { id: PATCH_ID, required: true, patch: true }, response: id, codes: ['200', '201'] });
  }
}

/** Kubernetes-style operation ids (`listCoreV1NamespacedPod`) and tags (`core_v1`); the svc.io spelling adds `Svc`. */
class OpNames {
  readonly tag: string;
  private readonly middle: string;

  constructor(group: string, version: string, private readonly namespaced: boolean, private readonly kind: string) {
    const svc = group.endsWith('.svc.io') || group === 'svc.io';
    const base = group === '' ? 'core' : group.replace(/\.?(k8s|svc)\.io$/, '');
    const words = base.split('.').filter((w) => w !== '');
    const camel = words.map((w, i) => (i === 0 ? w : capitalize(w))).join('') + (svc ? 'Svc' : '');
    this.tag = `${camel}_${version}`;
    this.middle = capitalize(camel) + capitalize(version);
  }

  /** e.g. id('list') → listAppsV1NamespacedDeployment; id('read', 'Status'); id('list', '', 'ForAllNamespaces'). */
  id(verb: string, sub = '', suffix = ''): string {
    const scoped = this.namespaced && !suffix.endsWith('ForAllNamespaces') ? 'Namespaced' : '';
    return `${verb}${this.middle}${scoped}${this.kind}${sub}${suffix}`;
  }
}

const prefix = (group: string, version: string) => (group === '' ? `/api/${version}` : `/apis/${group}/${version}`);

const capitalize = (s: string) => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));
