// kube's EndpointSlice controller (pkg/controller/endpointslice): for every
// Service with a selector, EndpointSlices of its selected pods, written as
// service account endpointslice-controller with field manager and
// managed-by label endpointslice-controller.k8s.io. Services, pods, nodes
// (for zones) and slices come from shared informers; one work queue of
// service keys. Slices are owned by their Service (controller reference), so
// the garbage collector removes them with it, as in kube.
import type { ControllerClient } from '../client.js';
import { StartWhenAuthorized } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { aggregate, servicesOnPodChange, servicesSelecting, splitKey } from './membership.js';
import { selectorOf, selects } from './pods.js';
import { planSlices, type Plan } from './reconciler.js';
import { CONTROLLER_NAME, withTriggerTime } from './slices.js';
import { SliceTracker } from './stale.js';
import { TriggerTimeTracker } from './triggertime.js';
import {
  ENDPOINT_SLICES, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, LABEL_TOPOLOGY_ZONE, SERVICES,
  type EndpointSlice, type Pod, type Service,
} from './types.js';

export const SERVICE_ACCOUNT = 'endpointslice-controller';

export interface EndpointSliceControllerOptions {
  /** kube's --max-endpoints-per-slice (default 100). */
  readonly maxEndpointsPerSlice?: number;
  /** How long a failed or stale sync waits before it is tried again (default 500 ms). */
  readonly retryMs?: number;
}

export class EndpointSliceController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly queue: WorkQueue<string>;
  private readonly tracker = new SliceTracker();
  private readonly triggers = new TriggerTimeTracker();
  private readonly services: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly slices: SharedInformer;
  private readonly starter: StartWhenAuthorized;
  private synced!: () => void;
  private readonly ready = new Promise<void>((r) => (this.synced = r));

  constructor(private readonly ctx: ControllerContext, private readonly opts: EndpointSliceControllerOptions = {}) {
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(SERVICE_ACCOUNT, 'endpoint-slice-controller');
    this.services = ctx.informers.informer('', 'services');
    this.pods = ctx.informers.informer('', 'pods');
    this.nodes = ctx.informers.informer('', 'nodes');
    this.slices = ctx.informers.informer('discovery.svc.io', 'endpointslices');
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 500,
      onError: (key, err) => console.error(`endpointslice controller: syncing service ${key}: ${(err as Error).message}`),
    });
    this.starter = new StartWhenAuthorized(this.client, SERVICES, 'endpointslice controller', () => this.run());
  }

  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
  }

  private async run(): Promise<void> {
    const enqueue = (key: string) => this.queue.add(key, key);
    const keyOf = (o: { metadata: { namespace?: string; name?: string } }) => `${o.metadata.namespace}/${o.metadata.name}`;
    this.services.addHandler({ onAdd: (s) => enqueue(keyOf(s)), onUpdate: (_, s) => enqueue(keyOf(s)), onDelete: (s) => enqueue(keyOf(s)) });
    this.pods.addHandler({
      onAdd: (p) => servicesSelecting(this.services, p as Pod).forEach(enqueue),
      onUpdate: (o, p) => servicesOnPodChange(this.services, o as Pod, p as Pod).forEach(enqueue),
      onDelete: (p) => servicesSelecting(this.services, p as Pod).forEach(enqueue),
    });
    this.nodes.addHandler({
      // a node's zone is written on its endpoints; kube syncs them on the pods' next change, we at once
      onUpdate: (o, n) => {
        if (o.metadata.labels?.[LABEL_TOPOLOGY_ZONE] !== n.metadata.labels?.[LABEL_TOPOLOGY_ZONE]) this.servicesOnNode(n.metadata.name!).forEach(enqueue);
      },
      onAdd: (n) => this.servicesOnNode(n.metadata.name!).forEach(enqueue),
    });
    this.slices.addHandler({
      onAdd: (s) => this.onSlice(s as EndpointSlice),
      onUpdate: (o, s) => {
        // a slice moved to another service, or stopped or started being ours: both sides are synced
        const before = this.serviceKeyOf(o as EndpointSlice);
        const now = this.serviceKeyOf(s as EndpointSlice);
        if (before !== now) {
          if (before) enqueue(before);
          if (now) enqueue(now);
          return;
        }
        this.onSlice(s as EndpointSlice);
      },
      onDelete: (s) => {
        const key = this.serviceKeyOf(s as EndpointSlice);
        if (!key) return;
        this.tracker.deleted(key, s as EndpointSlice);
        enqueue(key);
      },
    });
    await this.ctx.informers.start();
    await Promise.all([this.services, this.pods, this.nodes, this.slices].map((i) => i.waitForSync()));
    this.synced();
  }

  /** The services of the pods on a node (a node that appears may unblock pods skipped for its absence). */
  private servicesOnNode(node: string): string[] {
    const keys = new Set<string>();
    for (const svc of this.services.list() as Service[]) {
      const sel = selectorOf(svc);
      if (!sel) continue;
      for (const pod of this.pods.list(svc.metadata.namespace!) as Pod[]) {
        if (pod.spec?.nodeName === node && selects(sel, pod.metadata.labels)) {
          keys.add(`${svc.metadata.namespace}/${svc.metadata.name}`);
          break;
        }
      }
    }
    return [...keys];
  }

  private serviceKeyOf(slice: EndpointSlice): string | undefined {
    const labels = slice.metadata.labels ?? {};
    if (labels[LABEL_MANAGED_BY] !== CONTROLLER_NAME || !labels[LABEL_SERVICE_NAME]) return undefined;
    return `${slice.metadata.namespace}/${labels[LABEL_SERVICE_NAME]}`;
  }

  private onSlice(slice: EndpointSlice): void {
    const key = this.serviceKeyOf(slice);
    if (key && !this.tracker.expected(key, slice)) this.queue.add(key, key);
  }

  private async sync(key: string): Promise<boolean> {
    await this.ready;
    const [namespace, name] = splitKey(key);
    const svc = this.services.get(namespace, name) as Service | undefined;
    if (!svc) {
      this.triggers.delete(namespace, name);
      this.tracker.forget(key);
      return true;
    }
    if (svc.spec?.type === 'ExternalName') return true;
    const selector = selectorOf(svc);
    if (!selector) return true;
    const pods = (this.pods.list(namespace) as Pod[]).filter((p) => selects(selector, p.metadata.labels));
    const slices = (this.slices.list(namespace) as EndpointSlice[]).filter((s) =>
      s.metadata.labels?.[LABEL_SERVICE_NAME] === name && s.metadata.labels?.[LABEL_MANAGED_BY] === CONTROLLER_NAME);
    if (this.tracker.isStale(key, slices)) return false; // our last writes are not in the informer yet
    const existing = slices.filter((s) => !s.metadata.deletionTimestamp);
    const triggerTime = this.triggers.compute(svc, pods);
    const plan = planSlices({
      service: svc, pods, existing, controllerName: CONTROLLER_NAME,
      ...(this.opts.maxEndpointsPerSlice !== undefined ? { maxEndpointsPerSlice: this.opts.maxEndpointsPerSlice } : {}),
      nodes: (n) => {
        const node = n ? this.nodes.get('', n) : undefined;
        return node ? { zone: node.metadata.labels?.[LABEL_TOPOLOGY_ZONE] || undefined } : undefined;
      },
    });
    const errs = [...plan.errors];
    try {
      await this.finalize(key, svc, plan, triggerTime);
    } catch (err) {
      errs.push((err as Error).message);
    }
    if (errs.length === 0) return true;
    await this.recorder.event(svc, 'Warning', 'FailedToUpdateEndpointSlices',
      `Error updating Endpoint Slices for Service ${namespace}/${name}: ${aggregate(errs)}`);
    return false;
  }

  private async finalize(key: string, svc: Service, plan: Plan, triggerTime: string | undefined): Promise<void> {
    const ns = svc.metadata.namespace!;
    const what = `for Service ${ns}/${svc.metadata.name}`;
    // no new slices for a service being deleted: the garbage collector would race them
    if (!svc.metadata.deletionTimestamp) {
      for (const slice of plan.create) {
        withTriggerTime(slice, triggerTime);
        try {
          this.tracker.written(key, await this.client.create(ENDPOINT_SLICES, ns, slice) as EndpointSlice);
        } catch (err) {
          if (isNamespaceTerminating(err)) return;
          throw new Error(`failed to create EndpointSlice ${what}: ${(err as Error).message}`);
        }
      }
    }
    for (const slice of plan.update) {
      withTriggerTime(slice, triggerTime);
      try {
        const written = await this.client.update(ENDPOINT_SLICES, ns, slice.metadata.name!, (cur) => ({
          ...cur,
          metadata: { ...cur.metadata, labels: slice.metadata.labels ?? {}, annotations: slice.metadata.annotations ?? {}, ownerReferences: slice.metadata.ownerReferences ?? [] },
          endpoints: slice.endpoints, ports: slice.ports ?? [],
        }));
        this.tracker.written(key, written as EndpointSlice);
      } catch (err) {
        throw new Error(`failed to update ${slice.metadata.name} EndpointSlice ${what}: ${(err as Error).message}`);
      }
    }
    for (const slice of plan.delete) {
      try {
        await this.client.delete(ENDPOINT_SLICES, ns, slice.metadata.name!);
        this.tracker.expectDeletion(key, slice);
      } catch (err) {
        if (isReason(err, 'NotFound')) continue;
        throw new Error(`failed to delete ${slice.metadata.name} EndpointSlice ${what}: ${(err as Error).message}`);
      }
    }
  }
}

/** kube-controller-manager's `endpointslice` controller. */
export function startEndpointSliceController(ctx: ControllerContext, opts?: EndpointSliceControllerOptions): Controller {
  return new EndpointSliceController(ctx, opts);
}
