// The generic store: one implementation of create/get/list/update/delete for
// every resource, driven by its Strategy (Kubernetes' registry/generic/
// registry.Store). It is the only place where StorageErrors become API
// errors. Objects are stored as JSON without metadata.resourceVersion, which
// is the storage revision and is filled in on every read. The reads are
// StoreReads (storereads.ts); this file adds the writes.
import { randomUUID } from 'node:crypto';
import type { Store, KeyValue } from '../storage/interface.js';
import { isStorageError } from '../storage/errors.js';
import type { FieldError } from '../api/meta/index.js';
import { type ApiObject, clone, deepEqual, nowTimestamp } from './object.js';
import type { Strategy } from './strategy.js';
import type { WriteHooks } from './hooks.js';
import { storedBytes } from './storedjson.js';
import { stampRevision } from './sharedobjects.js';
import { validateMetadata, validateMetadataUpdate } from './metadata.js';
import * as errs from './errors.js';
import type { Admission, AdmissionAttributes, AdmissionOperation } from './admission.js';
import type { Cacher } from '../storage/cacher/cacher.js';
import type { UserInfo } from '../authn/user.js';
import type { DeleteOptions, UpdateContext, WriteContext, WriteLens } from './writecontext.js';
import { prepareUpdate } from './updateprep.js';
import { timedStorage, type LatencyTrackers } from '../metrics/latencytrackers.js';
import { checkDeleteOptions, checkPreconditions, planDeletion } from './deletion.js';
import type { ListFilter } from './lister.js';
import { StoreReads, type ResourceIdentity } from './storereads.js';

export { StoreReads, type ResourceIdentity } from './storereads.js';
export type { DeleteOptions, TrackFields, UpdateContext, WriteContext, WriteLens } from './writecontext.js';
export { FUTURE_REVISION_WAIT_MS, type ListEntriesResult, type ListEntry, type ListFilter, type ListOptions, type ListResult, type ScanChunk, type ScanOptions } from './lister.js';

export interface DeleteResult {
  readonly object: ApiObject;
  /** False while finalizers or a grace period keep the object. */
  readonly deleted: boolean;
}

const GENERATE_ATTEMPTS = 8;

const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

export class GenericStore extends StoreReads {
  private hooks: WriteHooks = {};

  constructor(identity: ResourceIdentity, strategy: Strategy, storage: Store, private readonly admission: Admission, cacher?: Cacher) {
    super(identity, strategy, storage, cacher);
  }

  /** Installs the resource's write hooks (see hooks.ts); set once at assembly. */
  useHooks(hooks: WriteHooks): void {
    this.hooks = hooks;
  }

  /**
   * POST: creates the object. As Kubernetes' storage refuses it, a body
   * naming a resourceVersion (a non-zero unsigned integer) is refused once
   * validation and admission have passed, dry runs included — with 400 where
   * Kubernetes answers 500 (see the README's deliberate differences).
   */
  async create(namespace: string, input: ApiObject, ctx: WriteContext): Promise<ApiObject> {
    return this.insert(namespace, input, ctx, namesResourceVersion(input.metadata?.resourceVersion));
  }

  /** Creates the object; a create through PUT or apply (`refuseResourceVersion` false) drops a resourceVersion it was given. */
  private async insert(namespace: string, input: ApiObject, ctx: WriteContext, refuseResourceVersion: boolean): Promise<ApiObject> {
    const tracked = ctx.track ? ctx.track(undefined, input) : input;
    const obj = ctx.ownsInput ? tracked : clone(tracked);
    const meta = obj.metadata;
    if (this.namespaced) {
      if (meta.namespace && namespace && meta.namespace !== namespace) throw errs.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      meta.namespace = namespace || meta.namespace || '';
    } else delete meta.namespace;
    meta.uid = randomUUID();
    meta.creationTimestamp = nowTimestamp();
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (this.strategy.tracksGeneration) meta.generation = 1;
    else delete meta.generation;
    obj.apiVersion = ctx.lens?.apiVersion ?? this.apiVersion;
    obj.kind = this.identity.kind;
    const generate = !meta.name && Boolean(meta.generateName);
    const undo = await this.hooks.beforeCreate?.(obj, ctx);
    try {
      return await this.createAttempts(obj, generate, ctx, refuseResourceVersion);
    } catch (err) {
      await undo?.();
      throw err;
    }
  }

  private async createAttempts(obj: ApiObject, generate: boolean, ctx: WriteContext, refuseResourceVersion: boolean): Promise<ApiObject> {
    const meta = obj.metadata;
    for (let attempt = 0; ; attempt++) {
      if (generate) meta.name = meta.generateName! + randomSuffix();
      // As kube-apiserver: mutating admission runs in the handler, before the store's PrepareForCreate
      // (so a pod's QoS class is computed from the resources LimitRanger defaulted).
      await this.admission.mutate(this.attributes('CREATE', obj, undefined, ctx));
      this.strategy.prepareForCreate(obj, ctx.user);
      this.check(obj, validateMetadata(obj, this.strategy).concat(this.strategy.validate(obj, ctx.requestInfo?.apiVersion, ctx.requestInfo?.apiGroup)));
      await this.admission.admit(this.attributes('CREATE', obj, undefined, ctx));
      if (refuseResourceVersion) throw errs.badRequest('resourceVersion should not be set on objects to be created');
      if (ctx.dryRun) {
        const existing = await this.read(this.key(meta.namespace ?? '', meta.name!), meta.name!, ctx.latency);
        if (existing) throw errs.alreadyExists(this.qualifiedResource, meta.name!);
        return obj;
      }
      try {
        const key = this.key(meta.namespace ?? '', meta.name!);
        const stored = ctx.lens ? await this.toStorage(ctx.lens, obj) : obj;
        const value = this.encode(stored);
        const kv = await this.shared.storing(stored, value, () => timedStorage(ctx.latency, () => this.storage.create(key, value)));
        stampRevision(stored, kv.modRevision);
        this.recent.remember(key, kv.modRevision, stored, value);
        return ctx.lens ? await ctx.lens.toRequest(stored) : stored;
      } catch (err) {
        if (generate && isStorageError(err, 'KeyExists') && attempt + 1 < GENERATE_ATTEMPTS) continue;
        throw errs.fromStorage(err, this.qualifiedResource, meta.name!);
      }
    }
  }

  /**
   * PUT: replaces the object (creating it where the kind allows). With a
   * resourceVersion in the body a stale write is a Conflict; without one the
   * update retries on conflicts. `subresource` 'status' changes only status.
   */
  async update(namespace: string, name: string, input: ApiObject, ctx: UpdateContext): Promise<{ object: ApiObject; created: boolean }> {
    if (input.metadata.name && input.metadata.name !== name) throw errs.badRequest(`the name of the object (${input.metadata.name}) does not match the name on the URL (${name})`);
    if (this.namespaced && input.metadata.namespace && namespace && input.metadata.namespace !== namespace) throw errs.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    const wantRV = input.metadata.resourceVersion;
    for (;;) {
      const key = this.key(namespace, name);
      const kv = await this.readLatest(key, name, ctx.latency);
      if (!kv) {
        if (!this.strategy.allowCreateOnUpdate || ctx.subresource) throw errs.notFound(this.qualifiedResource, name);
        // As Kubernetes: a resourceVersion in the body does not stop a create-on-update.
        const created = await this.insert(namespace, { ...input, metadata: { ...input.metadata, name } }, ctx, false);
        return { object: created, created: true };
      }
      const old = await this.currentIn(kv, ctx);
      if (wantRV && wantRV !== old.metadata.resourceVersion) throw errs.conflict(this.qualifiedResource, name, 'the object has been modified; please apply your changes to the latest version and try again');
      const obj = this.prepared(clone(input), old, ctx);
      try {
        const result = await this.commitUpdate(key, kv, obj, old, ctx);
        return { object: result, created: false };
      } catch (err) {
        if (isStorageError(err, 'Conflict') && !wantRV) continue;
        throw errs.fromStorage(err, this.qualifiedResource, name);
      }
    }
  }

  /** Read-modify-write with retries, for controllers and patches: `mutate` returns the desired object. */
  async guaranteedUpdate(namespace: string, name: string, mutate: (current: ApiObject) => ApiObject, ctx: UpdateContext): Promise<ApiObject> {
    const r = await this.upsert(namespace, name, (current) => {
      if (!current) throw errs.notFound(this.qualifiedResource, name);
      return mutate(clone(current));
    }, ctx);
    return r.object;
  }

  /**
   * guaranteedUpdate that creates the object when it is missing (`mutate`
   * gets undefined then): server-side apply. A create that loses a race to
   * another create is retried as an update. `mutate` must not modify
   * `current` (it is the object the update compares against, not a copy: a
   * 15 KiB object costs ~0.4 ms to copy) and returns a new object.
   */
  async upsert(namespace: string, name: string, mutate: (current: ApiObject | undefined) => ApiObject, ctx: UpdateContext): Promise<{ object: ApiObject; created: boolean }> {
    for (;;) {
      const key = this.key(namespace, name);
      const kv = await this.readLatest(key, name, ctx.latency);
      if (!kv) {
        const fresh = mutate(undefined);
        try {
          return { object: await this.insert(namespace, { ...fresh, metadata: { ...fresh.metadata, name } }, ctx, false), created: true };
        } catch (err) {
          if (errs.isAlreadyExists(err)) continue;
          throw err;
        }
      }
      const old = await this.currentIn(kv, ctx);
      const next = mutate(old);
      const obj = this.prepared(next, old, ctx);
      try {
        return { object: await this.commitUpdate(key, kv, obj, old, ctx), created: false };
      } catch (err) {
        if (isStorageError(err, 'Conflict')) continue;
        throw errs.fromStorage(err, this.qualifiedResource, name);
      }
    }
  }

  async delete(namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    checkDeleteOptions(opts);
    for (;;) {
      const key = this.key(namespace, name);
      const kv = await this.readLatest(key, name, opts.latency);
      if (!kv) throw errs.notFound(this.qualifiedResource, name);
      const old = this.current(kv);
      checkPreconditions(old, opts, this.identity.group, this.identity.kind);
      // As kube's delete: the mutating steps, then the validating ones, with the stored object as oldObject.
      const attributes = this.attributes('DELETE', undefined, opts.lens ? await opts.lens.toRequest(old) : old, opts);
      await this.admission.mutate(attributes);
      await this.admission.admit(attributes);
      const plan = planDeletion(old, this.strategy, opts, Date.now());
      if (plan.kind === 'unchanged') return { object: old, deleted: false };
      if (plan.kind === 'mark') {
        const r = await this.writeDeletion(key, kv, plan.object, plan.immediate, opts);
        if (r) return r;
        continue;
      }
      if (opts.dryRun) return { object: old, deleted: true };
      try {
        this.recent.forget(key);
        const gone = await timedStorage(opts.latency, () => this.storage.delete(key, { expectedModRevision: kv.modRevision }));
        await this.released(old);
        return { object: atRevision(old, gone.revision), deleted: true };
      } catch (err) {
        if (isStorageError(err, 'Conflict')) continue;
        throw errs.fromStorage(err, this.qualifiedResource, name);
      }
    }
  }

  /**
   * Records a deletion in progress (deletionTimestamp and the rest already set
   * on `obj`); `immediate` (a zero grace period, no finalizer) then deletes it
   * at once. Undefined on a conflict: the caller reads again.
   */
  private async writeDeletion(key: string, kv: KeyValue, obj: ApiObject, immediate: boolean, opts: DeleteOptions): Promise<DeleteResult | undefined> {
    if (opts.dryRun) return { object: obj, deleted: immediate };
    const meta = obj.metadata;
    try {
      const value = this.encode(obj);
      const next = await timedStorage(opts.latency, () => this.storage.update(key, value, { expectedModRevision: kv.modRevision }));
      meta.resourceVersion = String(next.modRevision);
      if (immediate) {
        // Graceful deletion with a zero grace period: recorded, then deleted at once. Someone
        // watching (a node finishing the pod) may delete it between the two writes (finishDeletion).
        // Answered with the object last written.
        const gone = await this.finishDeletion(key, next.modRevision, obj, opts.latency);
        if (gone !== undefined) meta.resourceVersion = String(gone);
        return { object: obj, deleted: true };
      }
      this.recent.remember(key, next.modRevision, obj, value);
      return { object: obj, deleted: false };
    } catch (err) {
      if (isStorageError(err, 'Conflict')) return undefined;
      throw errs.fromStorage(err, this.qualifiedResource, meta.name!);
    }
  }

  async deleteCollection(namespace: string, filter: ListFilter, opts: DeleteOptions): Promise<{ items: ApiObject[]; resourceVersion: string }> {
    // As kube's DeleteCollection: the answer is the list as it was read before deleting (so, with
    // or without dryRun, items show no deletionTimestamp), even if an item was deleted meanwhile.
    const { items, resourceVersion } = await this.list(namespace, { predicate: filter.predicate });
    for (const item of items) {
      try {
        await this.delete(item.metadata.namespace ?? '', item.metadata.name!, opts);
      } catch (err) {
        if (errs.isNotFound(err)) continue; // deleted meanwhile
        throw err;
      }
    }
    return { items, resourceVersion };
  }

  // ---------------------------------------------------------------------------

  /** After an object left storage: its afterDelete hook, whose failures are logged, not returned. */
  private async released(obj: ApiObject): Promise<void> {
    try {
      await this.hooks.afterDelete?.(obj);
    } catch (err) {
      console.error(`svc: releasing what ${this.identity.resource} ${obj.metadata.namespace ?? ''}/${obj.metadata.name} held failed:`, err);
    }
  }

  /** The object an update of `old` to `input` (the caller's own copy) stores, its fields tracked first when the request tracks them. */
  private prepared(input: ApiObject, old: ApiObject, ctx: UpdateContext): ApiObject {
    return prepareUpdate(ctx.track ? ctx.track(old, input) : input, old, this.strategy, ctx.lens?.apiVersion ?? this.apiVersion, this.identity.kind, ctx.subresource);
  }

  private async commitUpdate(key: string, kv: KeyValue, obj: ApiObject, old: ApiObject, ctx: WriteContext): Promise<ApiObject> {
    const undo = await this.hooks.beforeUpdate?.(obj, old, ctx);
    try {
      return await this.commitPrepared(key, kv, obj, old, ctx);
    } catch (err) {
      await undo?.();
      throw err;
    }
  }

  private async commitPrepared(key: string, kv: KeyValue, obj: ApiObject, old: ApiObject, ctx: WriteContext): Promise<ApiObject> {
    await this.admission.mutate(this.attributes('UPDATE', obj, old, ctx));
    this.check(obj, validateMetadataUpdate(obj, old, this.strategy).concat(this.strategy.validateUpdate(obj, old, (ctx as UpdateContext).subresource, ctx.requestInfo?.apiVersion, ctx.requestInfo?.apiGroup)));
    await this.admission.admit(this.attributes('UPDATE', obj, old, ctx));
    const unchanged = deepEqual(stripRV(obj), stripRV(old));
    if (unchanged) return old; // as Kubernetes: a no-op update writes nothing and keeps the resourceVersion
    const finishing = Boolean(obj.metadata.deletionTimestamp) && this.strategy.pendingFinalizers(obj).length === 0 && (obj.metadata.finalizers ?? []).length === 0;
    if (ctx.dryRun) return obj;
    if (finishing) {
      // The last finalizer went away on a terminating object: it is deleted now (any other change
      // meanwhile is a Conflict: read again).
      await this.finishDeletion(key, kv.modRevision, obj, ctx.latency);
      obj.metadata.resourceVersion = old.metadata.resourceVersion;
      return obj;
    }
    const stored = ctx.lens ? await this.toStorage(ctx.lens, obj) : obj;
    const value = this.encode(stored);
    const next = await this.shared.storing(stored, value, () => timedStorage(ctx.latency, () => this.storage.update(key, value, { expectedModRevision: kv.modRevision })));
    stampRevision(stored, next.modRevision);
    this.recent.remember(key, next.modRevision, stored, value);
    return ctx.lens ? await ctx.lens.toRequest(stored) : stored;
  }

  /**
   * Deletes a terminating object nothing holds any more, stored at
   * `modRevision`; answers the revision of the delete. Another client finishing
   * it may have deleted it first (a node finishing its pod, a controller removing
   * a finalizer too): as kube's ignoreNotFound and deleteWithoutFinalizers
   * ("deletion is racy"), that is this write's success — undefined, nothing to
   * release.
   */
  private async finishDeletion(key: string, modRevision: number, obj: ApiObject, latency: LatencyTrackers | undefined): Promise<number | undefined> {
    this.recent.forget(key);
    const gone = await timedStorage(latency, () => this.storage.delete(key, { expectedModRevision: modRevision })).catch((err: unknown) => {
      if (isStorageError(err, 'KeyNotFound')) return undefined;
      throw err;
    });
    if (gone === undefined) return undefined;
    await this.released(obj);
    return gone.revision;
  }

  /** The stored object as a write sees it: in the request's version when a lens converts (see WriteLens). */
  private async currentIn(kv: KeyValue, ctx: WriteContext): Promise<ApiObject> {
    const old = this.current(kv);
    return ctx.lens ? await ctx.lens.toRequest(old) : old;
  }

  /** An object of the request's version in the storage version, in this store's apiVersion and kind. */
  private async toStorage(lens: WriteLens, obj: ApiObject): Promise<ApiObject> {
    const stored = await lens.toStorage(obj);
    return stored === obj ? clone(obj) : { ...stored, apiVersion: this.apiVersion, kind: this.identity.kind };
  }

  /**
   * Admission of a CONNECT (pods/exec, attach, portforward, proxy; services
   * and nodes/proxy), as kube's ConnectResource handler: the connect options
   * (PodExecOptions …) are the object, both phases run before anything connects.
   */
  async admitConnect(namespace: string, name: string, subresource: string, options: ApiObject, user: UserInfo | undefined): Promise<void> {
    const attributes = {
      operation: 'CONNECT' as const, object: options, oldObject: undefined, resource: this.identity, namespace, name,
      dryRun: false, user, namespaced: this.namespaced, subresource,
    };
    await this.admission.mutate(attributes);
    await this.admission.admit(attributes);
  }

  /**
   * Admission of a create-only subresource's request (pods/binding), as kube's
   * create handler admits it: CREATE of the subresource's own object (the
   * Binding, `kind`), both phases, before the subresource writes anything.
   * `resource` names another resource writing this one's objects (the
   * legacy `bindings` collection).
   */
  async admitSubresourceCreate(namespace: string, name: string, subresource: string, kind: string, obj: ApiObject, ctx: WriteContext, resource = this.identity.resource): Promise<void> {
    const attributes = { ...this.attributes('CREATE', obj, undefined, ctx), resource: { ...this.identity, resource, kind }, namespace, name, subresource };
    await this.admission.mutate(attributes);
    await this.admission.admit(attributes);
  }

  /**
   * A write straight to storage, as kube's subresource storages write through
   * Storage.GuaranteedUpdate (pods/binding's BindingREST): `mutate` gets a
   * copy of the latest object and returns it changed (or throws to refuse);
   * no strategy, no validation, no admission — the caller admitted its own
   * request. Retried on conflicts (`mutate` runs again on the newer object).
   */
  async storageUpdate(namespace: string, name: string, mutate: (current: ApiObject) => ApiObject, opts: { readonly dryRun: boolean }): Promise<ApiObject> {
    for (;;) {
      const key = this.key(namespace, name);
      const kv = await this.readLatest(key, name);
      if (!kv) throw errs.notFound(this.qualifiedResource, name);
      const old = this.current(kv);
      const obj = mutate(clone(old));
      if (opts.dryRun) return obj;
      try {
        const value = this.encode(obj);
        const next = await this.shared.storing(obj, value, () => this.storage.update(key, value, { expectedModRevision: kv.modRevision }));
        stampRevision(obj, next.modRevision);
        this.recent.remember(key, next.modRevision, obj, value);
        return obj;
      } catch (err) {
        if (isStorageError(err, 'Conflict')) continue;
        throw errs.fromStorage(err, this.qualifiedResource, name);
      }
    }
  }

  private check(obj: ApiObject, errors: FieldError[]): void {
    if (errors.length > 0) throw errs.invalid({ group: this.identity.group, kind: this.identity.kind }, obj.metadata.name ?? '', errors);
  }

  /** The attributes admission sees; one shape for every write (absent options are undefined, not missing). */
  private attributes(operation: AdmissionOperation, obj: ApiObject | undefined, old: ApiObject | undefined, ctx: WriteContext): AdmissionAttributes {
    const meta = (obj ?? old)!.metadata;
    return {
      operation, object: obj, oldObject: old, resource: this.identity, namespace: meta.namespace ?? '', name: meta.name ?? '',
      dryRun: ctx.dryRun, user: ctx.user, namespaced: this.namespaced,
      subresource: (ctx as UpdateContext).subresource ?? ctx.requestInfo?.subresource ?? '',
      warn: ctx.warn, annotate: ctx.annotate, latency: ctx.latency, requestInfo: ctx.requestInfo, options: ctx.options, reinvocation: undefined,
    };
  }

  private encode(obj: ApiObject): Uint8Array {
    return storedBytes(obj);
  }

  /**
   * The object a write starts from: the one remembered for this version of
   * the key, else decoded (and remembered). Shared: a write copies it or
   * builds a new object, never modifies it (frozen under test).
   */
  private current(kv: KeyValue): ApiObject {
    const known = this.recent.get(kv);
    if (known) return known;
    const obj = this.decode(kv);
    this.recent.remember(kv.key, kv.modRevision, obj, kv.value);
    return obj;
  }
}

/**
 * A deleted object as kube's storage hands it back: the last stored version with the
 * resourceVersion of the delete itself (a copy: `obj` may be shared and frozen).
 */
function atRevision(obj: ApiObject, revision: number): ApiObject {
  return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(revision) } };
}

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)];
  return s;
}

/** The object without its resourceVersion (a no-op update compares the rest). */
function stripRV(obj: ApiObject): ApiObject {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}

/**
 * Whether a resourceVersion names a revision, as Kubernetes' storage reads
 * one on create: an unsigned 64-bit decimal other than 0. Anything else
 * (empty, "0", not a number) is ignored and dropped.
 */
export function namesResourceVersion(rv: unknown): boolean {
  if (typeof rv !== 'string' || !/^\d+$/.test(rv)) return false;
  const n = BigInt(rv);
  return n !== 0n && n < 2n ** 64n;
}
