// kube's EndpointSlice controller (pkg/controller/endpointslice): for every
// Service with a selector, EndpointSlices of its selected pods, written as
// service account endpointslice-controller with the managed-by label
// endpointslice-controller.k8s.io. Services, pods, nodes (for zones) and
// slices come from shared informers; one work queue of service keys. Slices
// are owned by their Service (controller reference), so the garbage collector
// removes them with it, as in kube.
import type { ControllerClient } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import type { SharedInformer } from '../shared.js';
import { keyOf, SyncLoop } from './loop.js';
import { aggregate, enqueueServicesAndPods, splitKey } from './membership.js';
import { selectorOf, selects } from './pods.js';
import { planSlices } from './reconciler.js';
import { CONTROLLER_NAME, withTriggerTime } from './slices.js';
import { SliceTracker } from './stale.js';
import { TriggerTimeTracker } from './triggertime.js';
import { LABEL_TOPOLOGY_ZONE, SERVICES, type EndpointSlice, type Pod, type Service } from './types.js';
import { managedSliceKey, managedSlices, sliceHandlers, writeSlices } from './writer.js';

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
  private readonly tracker = new SliceTracker();
  private readonly triggers = new TriggerTimeTracker();
  private readonly services: SharedInformer;
  private readonly pods: SharedInformer;
  private readonly nodes: SharedInformer;
  private readonly slices: SharedInformer;
  private readonly loop: SyncLoop;

  constructor(ctx: ControllerContext, private readonly opts: EndpointSliceControllerOptions = {}) {
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(SERVICE_ACCOUNT, 'endpoint-slice-controller');
    this.services = ctx.informers.informer('', 'services');
    this.pods = ctx.informers.informer('', 'pods');
    this.nodes = ctx.informers.informer('', 'nodes');
    this.slices = ctx.informers.informer('discovery.svc.io', 'endpointslices');
    this.loop = new SyncLoop({
      ctx, client: this.client, target: SERVICES, label: 'endpointslice controller',
      ...(opts.retryMs !== undefined ? { retryMs: opts.retryMs } : {}),
      sync: (key) => this.sync(key),
      wire: (enqueue) => this.wire(enqueue),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  private wire(enqueue: (key: string) => void): SharedInformer[] {
    enqueueServicesAndPods(this.services, this.pods, enqueue);
    this.nodes.addHandler({
      // a node that appears may unblock pods left out for its absence; a zone is written on its endpoints
      // (not before the first lists: every service is synced then anyway)
      onAdd: (n) => this.loop.synced && this.servicesOnNode(n.metadata.name!).forEach(enqueue),
      onUpdate: (o, n) => {
        if (this.loop.synced && o.metadata.labels?.[LABEL_TOPOLOGY_ZONE] !== n.metadata.labels?.[LABEL_TOPOLOGY_ZONE]) this.servicesOnNode(n.metadata.name!).forEach(enqueue);
      },
    });
    const handlers = sliceHandlers(this.tracker, (s) => managedSliceKey(CONTROLLER_NAME, s), enqueue);
    this.slices.addHandler({
      onAdd: (s) => handlers.onAdd(s as EndpointSlice),
      onUpdate: (o, s) => handlers.onUpdate(o as EndpointSlice, s as EndpointSlice),
      onDelete: (s) => handlers.onDelete(s as EndpointSlice),
    });
    return [this.services, this.pods, this.nodes, this.slices];
  }

  /** The services selecting some pod on this node. */
  private servicesOnNode(node: string): string[] {
    const keys: string[] = [];
    for (const svc of this.services.list() as Service[]) {
      const sel = selectorOf(svc);
      if (sel && (this.pods.list(svc.metadata.namespace!) as Pod[]).some((p) => p.spec?.nodeName === node && selects(sel, p.metadata.labels))) {
        keys.push(keyOf(svc));
      }
    }
    return keys;
  }

  private async sync(key: string): Promise<boolean> {
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
    const slices = managedSlices(this.slices, CONTROLLER_NAME, namespace, name);
    if (this.tracker.isStale(key, slices)) return false; // our last writes are not in the informer yet
    const triggerTime = this.triggers.compute(svc, pods);
    const plan = planSlices({
      service: svc, pods, existing: slices.filter((s) => !s.metadata.deletionTimestamp), controllerName: CONTROLLER_NAME,
      ...(this.opts.maxEndpointsPerSlice !== undefined ? { maxEndpointsPerSlice: this.opts.maxEndpointsPerSlice } : {}),
      nodes: (n) => {
        const node = n ? this.nodes.get('', n) : undefined;
        return node ? { zone: node.metadata.labels?.[LABEL_TOPOLOGY_ZONE] || undefined } : undefined;
      },
    });
    for (const s of [...plan.create, ...plan.update]) withTriggerTime(s, triggerTime);
    const errs = [...plan.errors];
    try {
      await writeSlices({
        client: this.client, tracker: this.tracker, key, namespace, what: `for Service ${namespace}/${name}`,
        // no new slices for a service being deleted: the garbage collector would race them
        mayCreate: !svc.metadata.deletionTimestamp,
      }, plan);
    } catch (err) {
      errs.push((err as Error).message);
    }
    if (errs.length === 0) return true;
    await this.recorder.event(svc, 'Warning', 'FailedToUpdateEndpointSlices',
      `Error updating Endpoint Slices for Service ${namespace}/${name}: ${aggregate(errs)}`);
    return false;
  }
}

/** kube-controller-manager's `endpointslice` controller. */
export function startEndpointSliceController(ctx: ControllerContext, opts?: EndpointSliceControllerOptions): Controller {
  return new EndpointSliceController(ctx, opts);
}
