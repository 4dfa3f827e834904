// kube's EndpointSlice mirroring controller (pkg/controller/
// endpointslicemirroring): the Endpoints of a Service without a selector —
// written by hand or by another controller — mirrored into EndpointSlices
// managed by endpointslicemirroring-controller.k8s.io, as service account
// endpointslicemirroring-controller. Not mirrored (and mirrored slices
// deleted): Endpoints labelled endpointslice.kubernetes.io/skip-mirror=true,
// leader-election records, Endpoints without a Service or whose Service has a
// selector (the EndpointSlice controller serves those).
import type { ControllerClient } from '../client.js';
import { StartWhenAuthorized } from '../client.js';
import type { Controller, ControllerContext } from '../context.js';
import type { EventRecorder } from '../events.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { SharedInformer } from '../shared.js';
import { WorkQueue } from '../workqueue.js';
import { aggregate, splitKey } from '../endpointslice/membership.js';
import { selectorOf } from '../endpointslice/pods.js';
import { SliceTracker } from '../endpointslice/stale.js';
import {
  ANNOTATION_LEADER, ENDPOINT_SLICES, ENDPOINTS, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, LABEL_SKIP_MIRROR,
  type EndpointSlice, type Endpoints, type Service,
} from '../endpointslice/types.js';
import { CONTROLLER_NAME, MAX_ENDPOINTS_PER_SUBSET, planMirror, type MirrorPlan } from './reconciler.js';

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
  private readonly queue: WorkQueue<string>;
  private readonly tracker = new SliceTracker();
  private readonly services: SharedInformer;
  private readonly endpoints: SharedInformer;
  private readonly slices: SharedInformer;
  private readonly starter: StartWhenAuthorized;
  private synced!: () => void;
  private readonly ready = new Promise<void>((r) => (this.synced = r));

  constructor(private readonly ctx: ControllerContext, private readonly opts: EndpointSliceMirroringOptions = {}) {
    this.client = ctx.client(SERVICE_ACCOUNT);
    this.recorder = ctx.recorder(SERVICE_ACCOUNT, 'endpoint-slice-mirroring-controller');
    this.services = ctx.informers.informer('', 'services');
    this.endpoints = ctx.informers.informer('', 'endpoints');
    this.slices = ctx.informers.informer('discovery.svc.io', 'endpointslices');
    this.queue = new WorkQueue((key) => this.sync(key), {
      retryMs: opts.retryMs ?? 500,
      onError: (key, err) => console.error(`endpointslice mirroring controller: syncing endpoints ${key}: ${(err as Error).message}`),
    });
    this.starter = new StartWhenAuthorized(this.client, ENDPOINTS, 'endpointslice mirroring controller', () => this.run());
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
    this.services.addHandler({
      onAdd: (s) => {
        if (!selectorOf(s as Service)) enqueue(keyOf(s));
      },
      // only a selector appearing or going changes what is mirrored
      onUpdate: (o, s) => {
        if (!selectorOf(o as Service) !== !selectorOf(s as Service)) enqueue(keyOf(s));
      },
      onDelete: (s) => {
        if (!selectorOf(s as Service)) enqueue(keyOf(s));
      },
    });
    this.endpoints.addHandler({ onAdd: (e) => enqueue(keyOf(e)), onUpdate: (_, e) => enqueue(keyOf(e)), onDelete: (e) => enqueue(keyOf(e)) });
    this.slices.addHandler({
      onAdd: (s) => this.onSlice(s as EndpointSlice),
      onUpdate: (o, s) => {
        // a slice moved to another service, or stopped or started being ours: both sides are synced
        const before = this.keyOf(o as EndpointSlice);
        const now = this.keyOf(s as EndpointSlice);
        if (before !== now) {
          if (before) enqueue(before);
          if (now) enqueue(now);
          return;
        }
        this.onSlice(s as EndpointSlice);
      },
      onDelete: (s) => {
        const key = this.keyOf(s as EndpointSlice);
        if (!key) return;
        this.tracker.deleted(key, s as EndpointSlice);
        enqueue(key);
      },
    });
    await this.ctx.informers.start();
    await Promise.all([this.services, this.endpoints, this.slices].map((i) => i.waitForSync()));
    this.synced();
  }

  private keyOf(slice: EndpointSlice): string | undefined {
    const labels = slice.metadata.labels ?? {};
    if (labels[LABEL_MANAGED_BY] !== CONTROLLER_NAME || !labels[LABEL_SERVICE_NAME]) return undefined;
    return `${slice.metadata.namespace}/${labels[LABEL_SERVICE_NAME]}`;
  }

  private onSlice(slice: EndpointSlice): void {
    const key = this.keyOf(slice);
    if (key && !this.tracker.expected(key, slice)) this.queue.add(key, key);
  }

  private mirrored(namespace: string, name: string): EndpointSlice[] {
    return (this.slices.list(namespace) as EndpointSlice[]).filter((s) =>
      s.metadata.labels?.[LABEL_SERVICE_NAME] === name && s.metadata.labels?.[LABEL_MANAGED_BY] === CONTROLLER_NAME);
  }

  private async sync(key: string): Promise<boolean> {
    await this.ready;
    const [namespace, name] = splitKey(key);
    const ep = this.endpoints.get(namespace, name) as Endpoints | undefined;
    const svc = this.services.get(namespace, name) as Service | undefined;
    if (!shouldMirror(ep) || !svc || selectorOf(svc)) {
      this.tracker.forget(key);
      await this.deleteMirrored(namespace, name);
      return true;
    }
    const slices = this.mirrored(namespace, name);
    if (this.tracker.isStale(key, slices)) return false;
    const plan = planMirror(ep, slices, this.opts.maxEndpointsPerSubset ?? MAX_ENDPOINTS_PER_SUBSET);
    if (plan.invalid > 0) {
      await this.recorder.event(ep, 'Warning', 'InvalidIPAddress', `Skipped ${plan.invalid} invalid IP addresses when mirroring to EndpointSlices`);
    }
    if (plan.skipped > plan.invalid) {
      await this.recorder.event(ep, 'Warning', 'TooManyAddressesToMirror',
        `A max of ${this.opts.maxEndpointsPerSubset ?? MAX_ENDPOINTS_PER_SUBSET} addresses can be mirrored to EndpointSlices per Endpoints subset. ${plan.skipped} addresses were skipped`);
    }
    await this.finalize(key, ep, plan);
    return true;
  }

  private async deleteMirrored(namespace: string, name: string): Promise<void> {
    const errs: string[] = [];
    for (const s of this.mirrored(namespace, name)) {
      try {
        await this.client.delete(ENDPOINT_SLICES, namespace, s.metadata.name!);
      } catch (err) {
        if (!isReason(err, 'NotFound')) errs.push((err as Error).message);
      }
    }
    if (errs.length > 0) throw new Error(`error(s) deleting ${errs.length} EndpointSlice(s) for Service ${namespace}/${name}: ${aggregate(errs)}`);
  }

  private async finalize(key: string, ep: Endpoints, plan: MirrorPlan): Promise<void> {
    const ns = ep.metadata.namespace!;
    const what = `for Endpoints ${ns}/${ep.metadata.name}`;
    // no new slices for Endpoints being deleted
    if (!ep.metadata.deletionTimestamp) {
      for (const slice of plan.create) {
        try {
          this.tracker.written(key, await this.client.create(ENDPOINT_SLICES, ns, slice) as EndpointSlice);
        } catch (err) {
          if (isNamespaceTerminating(err)) return;
          throw new Error(`failed to create EndpointSlice ${what}: ${(err as Error).message}`);
        }
      }
    }
    for (const slice of plan.update) {
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

/** kube-controller-manager's `endpointslicemirroring` controller. */
export function startEndpointSliceMirroringController(ctx: ControllerContext, opts?: EndpointSliceMirroringOptions): Controller {
  return new EndpointSliceMirroringController(ctx, opts);
}
