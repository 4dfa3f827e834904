// A controller as an API client: every call is authorized as the controller's
// own user — its service account in svc-system, as kube-controller-manager
// runs each controller with --use-service-account-credentials — and then runs
// with that user, so admission and the write hooks (RBAC escalation checks)
// see who writes. A refusal is the 403 any client gets. The calls go to the
// registry in process rather than over HTTP; the decisions are the same chain
// the server's requests meet.
import type { UserInfo } from '../authn/user.js';
import type { Authorizer, Attributes } from '../authz/authorizer.js';
import { forbiddenError } from '../authz/forbidden.js';
import type { ResourceRequestInfo, ResourceVerb } from '../endpoints/requestinfo.js';
import type { Registry } from '../registry/registry.js';
import type { ApiObject } from '../registry/object.js';
import type { DeleteResult, TrackFields } from '../registry/store.js';
import { newMethodNotSupported, newNotFound } from '../api/meta/index.js';
import { decodeAsKind } from '../endpoints/writebody.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { kindSchema } from '../endpoints/kindschema.js';
import { resetFields } from '../endpoints/resetfields.js';
import { DEFAULT_GATES, type FeatureGates } from '../features/gates.js';
import { subresourceCreator, type SubresourceCreate } from '../registry/subresources.js';
import { managedFieldsConverter, versionerFor, type Versioner } from '../endpoints/versioning.js';
import { CONTROLLER_MANAGER, isReason } from './informer.js';

export const CONTROLLER_NAMESPACE = 'svc-system';

/** The user a controller's service account authenticates as. */
export function controllerUser(serviceAccount: string, namespace = CONTROLLER_NAMESPACE): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${serviceAccount}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}

/** The controller manager's own user (kube's system:kube-controller-manager): its root client, the shared informers. */
export const CONTROLLER_MANAGER_USER: UserInfo = { name: 'system:svc-controller-manager', groups: ['system:authenticated'] };

export interface Target {
  /** The svc.io spelling of the group; '' for core. */
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** A subresource ('status'): authorized as `<resource>/<subresource>`, written as the subresource (update only). */
  readonly subresource?: string;
}

export interface WriteOptions {
  /** The field manager recorded in managedFields (default: the controller manager's). */
  readonly manager?: string;
  /** Replaces the default managedFields bookkeeping. */
  readonly track?: TrackFields;
  /** The verb the write is authorized as: kube's controllers PATCH some objects (default update). */
  readonly verb?: 'update' | 'patch';
}

export interface DeleteOptions {
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly gracePeriodSeconds?: number;
}

export class ControllerClient {
  constructor(
    private readonly registry: Registry, private readonly authorizer: Authorizer, readonly user: UserInfo,
    private readonly gates: FeatureGates = DEFAULT_GATES, readonly manager = CONTROLLER_MANAGER,
  ) {}

  /** The request as the API would see it, authorized (throws the 403 a client would get). */
  private async authorize(t: Target, verb: ResourceVerb, namespace: string, name: string): Promise<ResourceRequestInfo> {
    const apiPrefix = t.group === '' ? 'api' : 'apis';
    const base = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`;
    const subresource = name ? (t.subresource ?? '') : '';
    const parts = name ? [t.resource, name, ...(subresource ? [subresource] : [])] : [t.resource];
    const info: ResourceRequestInfo = {
      isResourceRequest: true, verb, apiPrefix, apiGroup: t.group, apiVersion: t.version, namespace, resource: t.resource, subresource, name, parts,
      path: `${base}${namespace ? `/namespaces/${namespace}` : ''}/${parts.join('/')}`,
    };
    const a: Attributes = { ...info, user: this.user };
    const d = await this.authorizer.authorize(a);
    if (d.decision !== 'allow') throw forbiddenError(a, d.reason);
    return info;
  }

  /** What an informer needs: list and watch of the resource (throws the 403 otherwise). */
  async authorizeWatch(t: Target, namespace: string): Promise<void> {
    await this.authorize(t, 'list', namespace, '');
    await this.authorize(t, 'watch', namespace, '');
  }

  async get(t: Target, namespace: string, name: string): Promise<ApiObject> {
    await this.authorize(t, 'get', namespace, name);
    return this.versions(t).toRequest(await this.registry.store(t.group, t.resource).get(namespace, name));
  }

  /**
   * Every object of the resource in the namespace ('' for all), as the watch
   * cache holds them: shared and frozen (copy before changing); converted
   * copies when the target is not the storage version.
   */
  async list(t: Target, namespace: string): Promise<readonly ApiObject[]> {
    await this.authorize(t, 'list', namespace, '');
    const items = await this.registry.store(t.group, t.resource).listShared(namespace);
    const versions = this.versions(t);
    return versions.converts ? items.map((o) => versions.toRequest(o)) : items;
  }

  /**
   * A create as a client's POST: the object is decoded as the wire decodes a
   * body (defaults, Go's zero values; a custom resource pruned and defaulted),
   * then written with managedFields, admission and validation.
   */
  async create(t: Target, namespace: string, obj: ApiObject, opts: WriteOptions = {}): Promise<ApiObject> {
    if (t.subresource) throw new Error(`create of ${t.resource}/${t.subresource}: use createSubresource`);
    const requestInfo = await this.authorize(t, 'create', namespace, '');
    const served = this.served(t);
    const versions = this.versions(t);
    const body = this.decoded(t, obj);
    return versions.toRequest(await this.registry.store(t.group, t.resource).create(namespace, body, {
      dryRun: false, user: this.user, requestInfo, track: opts.track ?? this.tracking(t, served.kind, opts.manager),
    }));
  }

  /** An update computed from the latest object (retried on conflict), as a client's GET-modify-PUT. */
  async update(t: Target, namespace: string, name: string, mutate: (current: ApiObject) => ApiObject, opts: WriteOptions = {}): Promise<ApiObject> {
    const requestInfo = await this.authorize(t, opts.verb ?? 'update', namespace, name);
    const served = this.served(t);
    const versions = this.versions(t);
    return versions.toRequest(await this.registry.store(t.group, t.resource).guaranteedUpdate(namespace, name, (cur) => this.decoded(t, mutate(versions.toRequest(cur))), {
      dryRun: false, user: this.user, requestInfo, ...(t.subresource ? { subresource: t.subresource } : {}),
      track: opts.track ?? this.tracking(t, served.kind, opts.manager),
    }));
  }

  /**
   * A client's PUT of a whole object: with `metadata.resourceVersion` set, a
   * write based on a stale read is the 409 Conflict a client gets (client-go's
   * Update; leader election's compare-and-swap of its Lease).
   */
  async replace(t: Target, namespace: string, name: string, obj: ApiObject, opts: WriteOptions = {}): Promise<ApiObject> {
    const requestInfo = await this.authorize(t, 'update', namespace, name);
    const served = this.served(t);
    const versions = this.versions(t);
    const { object } = await this.registry.store(t.group, t.resource).update(namespace, name, this.decoded(t, obj), {
      dryRun: false, user: this.user, requestInfo, ...(t.subresource ? { subresource: t.subresource } : {}),
      track: opts.track ?? this.tracking(t, served.kind, opts.manager),
    });
    return versions.toRequest(object);
  }

  async delete(t: Target, namespace: string, name: string, opts: DeleteOptions = {}): Promise<DeleteResult> {
    const requestInfo = await this.authorize(t, 'delete', namespace, name);
    return this.registry.store(t.group, t.resource).delete(namespace, name, { dryRun: false, user: this.user, requestInfo, ...opts });
  }

  /** A DELETE of the namespace's collection (every object, no selector); answers the objects as they were listed. */
  async deleteCollection(t: Target, namespace: string, opts: DeleteOptions = {}): Promise<readonly ApiObject[]> {
    const requestInfo = await this.authorize(t, 'deletecollection', namespace, '');
    const { items } = await this.registry.store(t.group, t.resource).deleteCollection(namespace, {}, { dryRun: false, user: this.user, requestInfo, ...opts });
    return items;
  }

  /** A POST to a create-only subresource (pods/binding, pods/eviction), through the same handler as the HTTP path; `creator` for one the registry does not hold (serviceaccounts/token). */
  async createSubresource(t: Target & { readonly subresource: string }, namespace: string, name: string, body: ApiObject, creator?: SubresourceCreate): Promise<ApiObject> {
    const requestInfo = await this.authorize(t, 'create', namespace, name);
    const create = creator ?? subresourceCreator(t.group, t.resource, t.subresource);
    if (!create) throw newMethodNotSupported({ group: t.group, resource: `${t.resource}/${t.subresource}` }, 'create');
    return create(this.registry, namespace, name, body, { dryRun: false, user: this.user, requestInfo });
  }

  private served(t: Target) {
    const served = this.registry.lookup(t.group, t.version, t.resource);
    if (!served) throw newNotFound({ group: t.group, resource: t.resource }, '');
    return served;
  }

  /**
   * The target version's view of the stored objects (the identity when it is
   * the storage version; events.svc.io/v1 Events are core Events stored).
   */
  private versions(t: Target): Versioner {
    return versionerFor(this.served(t), this.gates);
  }

  /** A copy of the object as the wire would decode it for this version. */
  private decoded(t: Target, obj: ApiObject): ApiObject {
    const served = this.served(t);
    const value = structuredClone(obj) as unknown as Record<string, unknown>;
    value.apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
    value.kind = served.kind;
    decodeAsKind(served, value, [], 'Ignore', this.gates);
    return value as unknown as ApiObject;
  }

  /** managedFields as a client's Update (manager, this version, the subresource's reset fields). */
  private tracking(t: Target, kind: string, manager = this.manager): TrackFields {
    const served = this.served(t);
    const apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
    const ignored = resetFields(served.group, served.resource, this.registry.store(t.group, t.resource).strategy.hasStatus, t.subresource);
    const versions = this.versions(t);
    const opts = {
      manager, apiVersion, kind, schema: kindSchema(served), ...(t.subresource ? { subresource: t.subresource } : {}),
      ...(ignored ? { ignored } : {}), ...(served.custom ? { unstructured: true } : {}),
    };
    if (!versions.converts) return (live, next) => trackWrite(opts, live, next);
    // as the HTTP path: the write is in the request's version, its fields tracked there, then stored converted
    const converting = { ...opts, converter: managedFieldsConverter(served) };
    return (live, next) => versions.toStorage(trackWrite(converting, live && versions.toRequest(live), next));
  }
}

/**
 * A controller's start once it may list and watch its resource: `run` is
 * called then; while the controller is refused (at a fresh start its binding
 * may reach the authorizer's cache a moment after the bootstrap policy is
 * written) it asks again after a second, doubling up to 30 s.
 */
export class StartWhenAuthorized {
  private timer: NodeJS.Timeout | undefined;
  private delayMs = 1000;
  private stopped = false;

  constructor(private readonly client: ControllerClient, private readonly target: Target, private readonly label: string, private readonly run: () => Promise<void>) {}

  async start(): Promise<void> {
    try {
      await this.client.authorizeWatch(this.target, '');
    } catch (err) {
      if (!isReason(err, 'Forbidden') || this.stopped) throw err;
      if (this.delayMs === 1000) console.error(`${this.label}: ${(err as Error).message}; asking again (every second, then less often)`);
      this.timer = setTimeout(() => void this.start().catch((e) => console.error(`${this.label}: start failed`, e)), this.delayMs);
      this.delayMs = Math.min(this.delayMs * 2, 30_000);
      this.timer.unref();
      return;
    }
    if (!this.stopped) await this.run();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
