// RBAC's view of its policy in the server: Roles, ClusterRoles, RoleBindings
// and ClusterRoleBindings held in memory, listed then kept current from
// storage watches (kube's RBAC authorizer reads the same objects from shared
// informers). Bindings are indexed by the identities their subjects name, so a
// decision visits only the bindings that can match the user — not every
// binding of the cluster or namespace.
import type { UserInfo } from '../../authn/user.js';
import { Informer } from '../../controllers/informer.js';
import type { Registry } from '../../registry/registry.js';
import type { ApiObject } from '../../registry/object.js';
import type { Store } from '../../storage/interface.js';
import type { Binding, RbacReader, Role, Subject } from './authorizer.js';

import { RBAC_GROUP } from '../../api/rbac/v1/validation.js';
const SA_PREFIX = 'system:serviceaccount:';

/**
 * The index keys a subject is found under: a User and a ServiceAccount by the
 * user name they match (`system:serviceaccount:<ns>:<name>`), a Group by its
 * name. A ServiceAccount without a namespace takes the RoleBinding's; in a
 * ClusterRoleBinding it matches nobody and is not indexed. Unknown kinds match
 * nobody (kube's appliesToUser).
 */
export function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User': return `u:${s.name}`;
    case 'Group': return `g:${s.name}`;
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns === '' ? undefined : `u:${SA_PREFIX}${ns}:${s.name}`;
    }
    default: return undefined;
  }
}

/** Bindings of one scope (the cluster, or one namespace) by name and by subject key. */
class BindingIndex {
  private readonly byName = new Map<string, Binding>();
  private readonly bySubject = new Map<string, Set<Binding>>();

  constructor(private readonly namespace: string) {}

  get size(): number {
    return this.byName.size;
  }

  put(b: Binding): void {
    this.remove(b.metadata.name);
    this.byName.set(b.metadata.name, b);
    for (const key of this.keysOf(b)) {
      let set = this.bySubject.get(key);
      if (!set) this.bySubject.set(key, (set = new Set()));
      set.add(b);
    }
  }

  all(): Binding[] {
    return [...this.byName.values()];
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (!old) return;
    this.byName.delete(name);
    for (const key of this.keysOf(old)) {
      const set = this.bySubject.get(key);
      set?.delete(old);
      if (set?.size === 0) this.bySubject.delete(key);
    }
  }

  /** The bindings naming the user, its service account identity or one of its groups; each once. */
  for(user: UserInfo): Iterable<Binding> {
    const byUser = this.bySubject.get(`u:${user.name}`);
    let out: Set<Binding> | undefined;
    for (const g of user.groups) {
      const set = this.bySubject.get(`g:${g}`);
      if (!set) continue;
      out ??= new Set(byUser);
      for (const b of set) out.add(b);
    }
    return out ?? byUser ?? [];
  }

  private keysOf(b: Binding): Set<string> {
    const keys = new Set<string>();
    for (const s of b.subjects ?? []) {
      const k = subjectKey(s, this.namespace);
      if (k !== undefined) keys.add(k);
    }
    return keys;
  }
}

/** RBAC's policy in memory; `apply`/`remove` take watch events, `RbacReader` answers the authorizer. */
export class RbacCache implements RbacReader {
  private readonly clusterRoles = new Map<string, Role>();
  private readonly roles = new Map<string, Map<string, Role>>();
  private readonly clusterBindings = new BindingIndex('');
  private readonly namespaceBindings = new Map<string, BindingIndex>();
  /** Counts changes: decisions remembered by the authorizer hold until it moves. */
  generation = 0;

  clusterRoleBindingsFor(user: UserInfo): Iterable<Binding> {
    return this.clusterBindings.for(user);
  }

  roleBindingsFor(user: UserInfo, namespace: string): Iterable<Binding> {
    return this.namespaceBindings.get(namespace)?.for(user) ?? [];
  }

  getClusterRole(name: string): Role | undefined {
    return this.clusterRoles.get(name);
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.roles.get(namespace)?.get(name);
  }

  /** Counts, for tests and the benchmark. */
  get sizes(): { clusterRoles: number; roles: number; clusterRoleBindings: number; roleBindings: number } {
    let roles = 0;
    for (const m of this.roles.values()) roles += m.size;
    let roleBindings = 0;
    for (const i of this.namespaceBindings.values()) roleBindings += i.size;
    return { clusterRoles: this.clusterRoles.size, roles, clusterRoleBindings: this.clusterBindings.size, roleBindings };
  }

  put(resource: RbacResource, obj: ApiObject): void {
    this.generation++;
    const meta = obj.metadata as { name: string; namespace?: string };
    const ns = meta.namespace ?? '';
    switch (resource) {
      case 'clusterroles': this.clusterRoles.set(meta.name, obj as Role); break;
      case 'roles': {
        let m = this.roles.get(ns);
        if (!m) this.roles.set(ns, (m = new Map()));
        m.set(meta.name, obj as Role);
        break;
      }
      case 'clusterrolebindings': this.clusterBindings.put(obj as unknown as Binding); break;
      case 'rolebindings': {
        let i = this.namespaceBindings.get(ns);
        if (!i) this.namespaceBindings.set(ns, (i = new BindingIndex(ns)));
        i.put(obj as unknown as Binding);
        break;
      }
    }
  }

  /** A fresh list of one kind (a watch restarted; its objects then arrive through `put`): objects deleted meanwhile go. */
  pruneTo(resource: RbacResource, objs: readonly ApiObject[]): void {
    const keep = new Set(objs.map((o) => `${(o.metadata as { namespace?: string }).namespace ?? ''}/${(o.metadata as { name: string }).name}`));
    for (const old of this.all(resource)) {
      const m = old.metadata as { name: string; namespace?: string };
      if (!keep.has(`${m.namespace ?? ''}/${m.name}`)) this.remove(resource, old as ApiObject);
    }
  }

  private *all(resource: RbacResource): Iterable<{ metadata: unknown }> {
    switch (resource) {
      case 'clusterroles': for (const [name] of this.clusterRoles) yield { metadata: { name } }; break;
      case 'roles': for (const [namespace, m] of this.roles) for (const [name] of m) yield { metadata: { name, namespace } }; break;
      case 'clusterrolebindings': yield* this.clusterBindings.all(); break;
      case 'rolebindings': for (const i of this.namespaceBindings.values()) yield* i.all(); break;
    }
  }

  remove(resource: RbacResource, obj: ApiObject): void {
    this.generation++;
    const meta = obj.metadata as { name: string; namespace?: string };
    const ns = meta.namespace ?? '';
    switch (resource) {
      case 'clusterroles': this.clusterRoles.delete(meta.name); break;
      case 'roles': {
        const m = this.roles.get(ns);
        m?.delete(meta.name);
        if (m?.size === 0) this.roles.delete(ns);
        break;
      }
      case 'clusterrolebindings': this.clusterBindings.remove(meta.name); break;
      case 'rolebindings': {
        const i = this.namespaceBindings.get(ns);
        i?.remove(meta.name);
        if (i?.size === 0) this.namespaceBindings.delete(ns);
        break;
      }
    }
  }
}

export type RbacResource = 'clusterroles' | 'roles' | 'clusterrolebindings' | 'rolebindings';
const RESOURCES: readonly RbacResource[] = ['clusterroles', 'roles', 'clusterrolebindings', 'rolebindings'];

/** A cache listed from storage (resolved once every list is in) and kept current by watches until `stop`. */
export async function startRbacCache(registry: Registry, storage: Store): Promise<{ cache: RbacCache; stop(): void }> {
  const cache = new RbacCache();
  const informers = RESOURCES.map((resource) => new Informer(registry, storage, { group: RBAC_GROUP, resource }, {
    onList: (objs) => cache.pruneTo(resource, objs),
    onObject: (obj) => cache.put(resource, obj),
    onDelete: (obj) => cache.remove(resource, obj),
  }, 'svc rbac'));
  const stop = () => informers.forEach((i) => i.stop());
  try {
    await Promise.all(informers.map((i) => i.start()));
  } catch (err) {
    stop();
    throw err;
  }
  return { cache, stop };
}
