// kube's EndpointSlice mirroring controller (pkg/controller/
// endpointslicemirroring): the Endpoints of a Service without a selector —
// written by hand or by another controller — mirrored into EndpointSlices
// managed by endpointslicemirroring-controller.k8s.io, as service account
// endpointslicemirroring-controller. Not mirrored (and mirrored slices
// deleted): Endpoints labelled endpointslice.kubernetes.io/skip-mirror=true,
// leader-election records, Endpoints without a Service or whose Service has a
// selector (the EndpointSlice controller serves those).
import type { ControllerClient } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import { isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { keyOf, SyncLoop } from '../endpointslice/loop.js';
import { aggregate, splitKey } from '../endpointslice/membership.js';
import { selectorOf } from '../endpointslice/pods.js';
import { SliceTracker } from '../endpointslice/stale.js';
import { ANNOTATION_LEADER, ENDPOINT_SLICES, ENDPOINTS, LABEL_SKIP_MIRROR, type EndpointSlice, type Endpoints, type Service } from '../endpointslice/types.js';
import { managedSliceKey, managedSlices, sliceHandlers, writeSlices } from '../endpointslice/writer.js';
import { CONTROLLER_NAME, MAX_ENDPOINTS_PER_SUBSET, planMirror } from './reconciler.js';

export const SERVICE_ACCOUNT = 'endpointslicemirroring-controller';

export interface EndpointSliceMirroringOptions {
  /** kube's --mirroring-max-endpoints-per-subset (default 1000). */
  readonly maxEndpointsPerSubset?: number;
  /** How long a failed or stale sync waits before it is tried again (default 500 ms). */
  readonly retryMs?: number;
}

/** Whether the Endpoints are mirrored at all (kube's shouldMirror). */
export function shouldMirror(ep: Endpoints | undefined): ep is Endpoints {
  return !!ep && ep.metadata.labels?.[LABEL_SKIP_MIRROR] !== 'true' && !(ep.metadata.annotations && ANNOTATION_LEADER in ep.metadata.annotations);
}

export class EndpointSliceMirroringController implements Controller {
  private readonly client: ControllerClient;
  private readonly recorder: EventRecorder;
  private readonly tracker = new SliceTracker();
  private readonly services: SharedInformer;
  private readonly endpoints: SharedInformer;
  private readonly slices: SharedInformer;
  private readonly loop: SyncLoop;
  private readonly maxPerSubset: number;

  constructor(ctx: ControllerContext, opts: EndpointSliceMirroringOptions = {}) {
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(SERVICE_ACCOUNT, 'endpoint-slice-mirroring-controller');
    this.services = ctx.informers.informer('', 'services');
    this.endpoints = ctx.informers.informer('', 'endpoints');
    this.slices = ctx.informers.informer('discovery.svc.io', 'endpointslices');
    this.maxPerSubset = opts.maxEndpointsPerSubset ?? MAX_ENDPOINTS_PER_SUBSET;
    this.loop = new SyncLoop({
      ctx, client: this.client, target: ENDPOINTS, label: 'endpointslice mirroring controller',
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
    const selectorless = (s: Service) => !selectorOf(s);
    this.services.addHandler({
      onAdd: (s) => selectorless(s as Service) && enqueue(keyOf(s)),
      // only a selector appearing or going changes what is mirrored
      onUpdate: (o, s) => selectorless(o as Service) !== selectorless(s as Service) && enqueue(keyOf(s)),
      onDelete: (s) => selectorless(s as Service) && enqueue(keyOf(s)),
    });
    this.endpoints.addHandler({
      onAdd: (e) => shouldMirror(e) && enqueue(keyOf(e)),
      onUpdate: (o, e) => (shouldMirror(o) || shouldMirror(e)) && enqueue(keyOf(e)),
      onDelete: (e) => shouldMirror(e) && enqueue(keyOf(e)),
    });
    const handlers = sliceHandlers(this.tracker, (s) => managedSliceKey(CONTROLLER_NAME, s), enqueue);
    this.slices.addHandler({
      onAdd: (s) => handlers.onAdd(s as EndpointSlice),
      onUpdate: (o, s) => handlers.onUpdate(o as EndpointSlice, s as EndpointSlice),
      onDelete: (s) => handlers.onDelete(s as EndpointSlice),
    });
    return [this.services, this.endpoints, this.slices];
  }

  private async sync(key: string): Promise<boolean> {
    const [namespace, name] = splitKey(key);
    const ep = this.endpoints.get(namespace, name) as Endpoints | undefined;
    const svc = this.services.get(namespace, name) as Service | undefined;
    if (!shouldMirror(ep) || !svc || selectorOf(svc)) {
      this.tracker.forget(key);
      await this.deleteMirrored(namespace, name);
      return true;
    }
    const slices = managedSlices(this.slices, CONTROLLER_NAME, namespace, name);
    if (this.tracker.isStale(key, slices)) return false; // our last writes are not in the informer yet
    const plan = planMirror(ep, slices, this.maxPerSubset);
    if (plan.invalid > 0) {
      await this.recorder.event(ep, 'Warning', 'InvalidIPAddress', `Skipped ${plan.invalid} invalid IP addresses when mirroring to EndpointSlices`);
    }
    if (plan.skipped > plan.invalid) {
      await this.recorder.event(ep, 'Warning', 'TooManyAddressesToMirror',
        `A max of ${this.maxPerSubset} addresses can be mirrored to EndpointSlices per Endpoints subset. ${plan.skipped} addresses were skipped`);
    }
    await writeSlices({
      client: this.client, tracker: this.tracker, key, namespace, what: `for Endpoints ${namespace}/${name}`,
      mayCreate: !ep.metadata.deletionTimestamp,
    }, plan);
    return true;
  }

  private async deleteMirrored(namespace: string, name: string): Promise<void> {
    const errs: string[] = [];
    for (const s of managedSlices(this.slices, CONTROLLER_NAME, namespace, name)) {
      try {
        await this.client.delete(ENDPOINT_SLICES, namespace, s.metadata.name!);
      } catch (err) {
        if (!isReason(err, 'NotFound')) errs.push((err as Error).message);
      }
    }
    if (errs.length > 0) throw new Error(`error(s) deleting ${errs.length} EndpointSlice(s) for Service ${namespace}/${name}: ${aggregate(errs)}`);
  }
}

/** kube-controller-manager's `endpointslicemirroring` controller. */
export function startEndpointSliceMirroringController(ctx: ControllerContext, opts?: EndpointSliceMirroringOptions): Controller {
  return new EndpointSliceMirroringController(ctx, opts);
}
