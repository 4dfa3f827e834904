// The custom-resource controller: kube's naming, establishing and finalizer
// controllers and the CRD handler's serving, for the CRDs in storage.
//   - names: the accepted names and NamesAccepted/Established (names.ts), written to the status;
//   - serving: an Established CRD's served versions are added to the registry (routes, store,
//     watch cache), discovery and OpenAPI; a changed CRD replaces them for the next request;
//   - deletion: a Terminating CRD (deletionTimestamp and the cleanup finalizer) has every custom
//     resource deleted, then its finalizer removed, so the store deletes it; then it is unserved.
// CRDs are watched in storage; a change re-examines every CRD of the same group (names freed or
// taken by one CRD decide another's).
import type { Store, WatchHandle } from '../../storage/interface.js';
import type { Registry, ServedResource } from '../../registry/registry.js';
import type { GenericStore } from '../../registry/store.js';
import type { ApiObject } from '../../registry/object.js';
import { isStatusError } from '../../api/meta/index.js';
import { WorkQueue } from '../../controllers/workqueue.js';
import { schemaFor } from '../../api/schemas.js';
import { trackWrite } from '../../endpoints/fieldmanager.js';
import { resetFields } from '../../endpoints/resetfields.js';
import { APISERVER_MANAGER as SERVER_MANAGER } from '../../authz/rbac/reconcile.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import { CLEANUP_FINALIZER, CLEANUP_FINALIZER_K8S, type CustomResourceDefinition, type CustomResourceDefinitionVersion } from '../types.js';
import { findCondition, isConditionTrue, setCondition } from '../conditions.js';
import { namingStatus, usedNames } from './names.js';
import { runtimeSchema, servedResources, storageVersionOf, type KindDeps } from './kind.js';
import type { Schema } from '../../schema/model.js';
import { customResourceStrategy, type VersionValidator } from './strategy.js';

export const CRD_GROUP = 'apiextensions.svc.io';
export const CRD_RESOURCE = 'customresourcedefinitions';

export interface CrdControllerDeps extends KindDeps {
  readonly registry: Registry;
  readonly storage: Store;
  /** The validator of one version of a CRD (schema, structure, rules). */
  validator(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion, structural: Schema): VersionValidator;
  /** Told every time the served custom resources change (discovery). */
  onServedChanged(resources: readonly ServedResource[], established: readonly CustomResourceDefinition[]): void;
  readonly retryMs?: number;
}

interface Serving {
  readonly resourceVersion: string;
  readonly group: string;
  readonly resource: string;
  readonly crd: CustomResourceDefinition;
  readonly resources: readonly ServedResource[];
}

export class CrdController {
  private watch: WatchHandle | undefined;
  private readonly queue: WorkQueue<string>;
  private readonly serving = new Map<string, Serving>();
  /** The group of every CRD seen, to re-examine a group's CRDs when one changes. */
  private readonly groups = new Map<string, string>();

  constructor(private readonly deps: CrdControllerDeps) {
    this.queue = new WorkQueue((name) => this.sync(name), {
      retryMs: deps.retryMs ?? 1000,
      onError: (name, err) => console.error(`customresourcedefinitions controller: ${name} failed; will retry`, err),
    });
  }

  private get crds(): GenericStore {
    return this.deps.registry.store(CRD_GROUP, CRD_RESOURCE);
  }

  /** Serves the Established CRDs in storage before returning, then follows changes. */
  async start(): Promise<void> {
    const { items, resourceVersion } = await this.crds.list('');
    for (const o of items) {
      const crd = o as unknown as CustomResourceDefinition;
      this.groups.set(crd.metadata.name, groupOfName(crd.metadata.name));
      if (isConditionTrue(crd, 'Established')) await this.serve(crd);
    }
    for (const o of items) this.queue.add(o.metadata.name!, o.metadata.name!);
    this.watch = await this.deps.storage.watch({ prefix: this.crds.key('', ''), fromRevision: Number(resourceVersion) }, {
      onEvents: (events) => {
        for (const e of events) {
          const key = e.type === 'delete' ? e.key : e.kv.key;
          const name = key.slice(key.lastIndexOf('/') + 1);
          // A CRD's name is `<plural>.<group>` (validation holds it to that): no decoding to know its group.
          const group = groupOfName(name);
          this.enqueue(name);
          for (const [other, g] of this.groups) if (g === group && other !== name) this.enqueue(other);
        }
      },
      onError: (err) => {
        if (this.queue.stopped) return;
        console.error('customresourcedefinitions controller: watch failed; restarting', err);
        setTimeout(() => void this.start().catch((e) => console.error('customresourcedefinitions controller: restart failed', e)), 1000).unref();
      },
    });
  }

  stop(): void {
    this.queue.stop();
    this.watch?.close();
    this.deps.conversionCaller?.close?.();
  }

  private enqueue(name: string): void {
    this.queue.add(name, name);
  }

  /** The CRD as stored now, decoded once per stored version and shared (never modified here). */
  private async get(name: string): Promise<CustomResourceDefinition | undefined> {
    try {
      return (await this.crds.getShared('', name)) as unknown as CustomResourceDefinition;
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) return undefined;
      throw err;
    }
  }

  private async sync(name: string): Promise<boolean> {
    const crd = await this.get(name);
    if (!crd) {
      this.groups.delete(name);
      this.unserve(name);
      return true;
    }
    this.groups.set(name, groupOfName(name));
    if (await this.updateNames(crd)) return true; // the status write brings the CRD back
    if (isConditionTrue(crd, 'Established')) await this.serve(crd);
    if (crd.metadata.deletionTimestamp) return this.finalize(crd);
    return true;
  }

  /** Writes the naming controller's status when it differs; true when written. */
  private async updateNames(crd: CustomResourceDefinition): Promise<boolean> {
    const group = canonicalGroup(crd.spec.group);
    const others = (await this.crds.listShared('')).map((o) => o as unknown as CustomResourceDefinition)
      .filter((o) => o.metadata.name !== crd.metadata.name && canonicalGroup(o.spec.group) === group);
    const builtin = this.deps.registry.resources().filter((r) => !r.custom && r.group === group);
    const next = namingStatus(crd, usedNames(others, builtin));
    const status = crd.status ?? {};
    if (JSON.stringify(next.acceptedNames) === JSON.stringify(status.acceptedNames) && JSON.stringify(next.conditions) === JSON.stringify(status.conditions ?? [])) return false;
    // Served before the status says Established, so a client that waits for the condition finds the resource.
    const after: CustomResourceDefinition = { ...crd, status: { ...status, acceptedNames: next.acceptedNames, conditions: next.conditions } };
    if (isConditionTrue(after, 'Established')) await this.serve(after);
    await this.writeStatus(crd.metadata.name, (s) => ({ ...s, conditions: next.conditions, acceptedNames: next.acceptedNames }));
    return true;
  }

  /** A status write of the server's own, its fields owned by the server's field manager (kube's is kube-apiserver). */
  private async writeStatus(name: string, change: (status: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    const tracking = { manager: SERVER_MANAGER, apiVersion: `${CRD_GROUP}/v1`, kind: 'CustomResourceDefinition', schema: schemaFor(CRD_GROUP, 'v1', 'CustomResourceDefinition'), subresource: 'status', ignored: resetFields(CRD_GROUP, CRD_RESOURCE, true, 'status') };
    await this.crds.guaranteedUpdate('', name, (cur) => ({ ...cur, status: change({ ...((cur.status as object) ?? {}) }) }), {
      dryRun: false, subresource: 'status', track: (live, next) => trackWrite(tracking, live, next),
    });
  }

  /** Serves the CRD's versions as the CRD now says (once per resourceVersion). */
  private async serve(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata.name;
    const current = this.serving.get(name);
    if (current && current.resourceVersion === crd.metadata.resourceVersion) return;
    const resources = servedResources(crd, this.deps);
    const group = canonicalGroup(crd.spec.group);
    const resource = (crd.status?.acceptedNames ?? crd.spec.names).plural;
    if (current && (current.group !== group || current.resource !== resource)) this.deps.registry.unserveCustom(current.group, current.resource);
    if (resources.length === 0) {
      this.deps.registry.unserveCustom(group, resource);
      this.serving.delete(name);
      return this.changed();
    }
    const storageVersion = storageVersionOf(crd);
    const validators = new Map(crd.spec.versions.map((v) => [v.name, this.deps.validator(crd, v, runtimeSchema(v.schema?.openAPIV3Schema))] as const));
    const storage = crd.spec.versions.find((v) => v.name === storageVersion);
    const strategy = customResourceStrategy({ namespaced: crd.spec.scope === 'Namespaced', hasStatus: Boolean(storage?.subresources?.status), validators, storageVersion });
    await this.deps.registry.serveCustom(resources, strategy);
    this.serving.set(name, { resourceVersion: crd.metadata.resourceVersion ?? '', group, resource, crd, resources });
    this.changed();
  }

  private unserve(name: string): void {
    const current = this.serving.get(name);
    if (!current) return;
    this.deps.registry.unserveCustom(current.group, current.resource);
    this.serving.delete(name);
    this.changed();
  }

  private changed(): void {
    const all = [...this.serving.values()];
    this.deps.onServedChanged(all.flatMap((s) => s.resources), all.map((s) => s.crd));
  }

  /**
   * A terminating CRD: its custom resources are deleted (in every namespace), and once none is
   * left the cleanup finalizer is removed; true when nothing is left to do.
   */
  private async finalize(crd: CustomResourceDefinition): Promise<boolean> {
    const finalizers = crd.metadata.finalizers ?? [];
    if (!finalizers.includes(CLEANUP_FINALIZER) && !finalizers.includes(CLEANUP_FINALIZER_K8S)) return true;
    const name = crd.metadata.name;
    if (findCondition(crd, 'Terminating')?.reason !== 'InstanceDeletionInProgress') {
      await this.writeStatus(name, (s) => ({
        ...s,
        conditions: setCondition((s.conditions as never) ?? [], { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }),
      }));
      return true; // the write brings the CRD back
    }
    const serving = this.serving.get(name);
    if (serving && this.deps.registry.has(serving.group, serving.resource)) {
      const store = this.deps.registry.store(serving.group, serving.resource);
      const left = await store.deleteCollection('', {}, { dryRun: false, propagationPolicy: 'Background' });
      if (left.items.length > 0 && (await store.list('')).items.length > 0) return false;
    }
    await this.crds.guaranteedUpdate('', name, (cur: ApiObject) => {
      const meta = { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER && f !== CLEANUP_FINALIZER_K8S) };
      return { ...cur, metadata: meta };
    }, { dryRun: false });
    return true;
  }
}

const groupOfName = (name: string): string => name.slice(name.indexOf('.') + 1);
