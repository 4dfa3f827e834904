// Keeps the node authorizer's graph up to date from watches (kube v1.27
// graph_populator.go): pods, persistent volumes and volume attachments.
// A pod enters the graph once bound (spec.nodeName) and is added again only
// when its node or uid changes — every reference in a bound pod's spec is
// immutable, as kube relies on. PVs are re-added on every change; an
// attachment when its node changes. ResourceClaims need no watch: v1.27 draws
// their edges from the pods. A relist after a broken watch drops what is gone.
import type { Store } from '../../storage/interface.js';
import type { Registry } from '../../registry/registry.js';
import type { ApiObject } from '../../registry/object.js';
import { Informer, type InformerHandlers } from '../../controllers/informer.js';
import { Graph, type PodEdges, type PVEdges } from './graph.js';
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, pvSecretNames } from './references.js';

/** The annotation marking a mirror pod (kube's `kubernetes.io/config.mirror`). */
export const MIRROR_POD_ANNOTATION = 'svc.io/config.mirror';

type Obj = Record<string, unknown>;
const spec = (o: ApiObject): Obj => (o.spec !== null && typeof o.spec === 'object' ? (o.spec as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function podEdges(pod: ApiObject): PodEdges {
  return {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name ?? '',
    nodeName: str(spec(pod).nodeName),
    mirror: pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined,
    serviceAccountName: str(spec(pod).serviceAccountName),
    secrets: podSecretNames(pod),
    configMaps: podConfigMapNames(pod),
    claims: podClaimNames(pod),
    resourceClaims: podResourceClaimNames(pod),
  };
}

export function pvEdges(pv: ApiObject): PVEdges {
  const ref = spec(pv).claimRef as Obj | null | undefined;
  return {
    name: pv.metadata.name ?? '',
    claimRef: ref && typeof ref === 'object' ? { namespace: str(ref.namespace), name: str(ref.name) } : undefined,
    secrets: pvSecretNames(pv).filter((s) => s.kubeletVisible),
  };
}

/** The watch handlers, separate from the watches so that tests can feed them directly. */
export class GraphPopulator {
  /** Bound pods in the graph: the uid and node they were added with. */
  private readonly pods = new Map<string, { uid: string; nodeName: string }>();
  private readonly attachments = new Map<string, string>();
  private readonly pvs = new Set<string>();

  constructor(readonly graph: Graph) {}

  onPod(pod: ApiObject): void {
    const nodeName = str(spec(pod).nodeName);
    if (nodeName === '') return; // not bound: nothing to authorize yet
    const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    const uid = pod.metadata.uid ?? '';
    const seen = this.pods.get(key);
    if (seen && seen.uid === uid && seen.nodeName === nodeName) return;
    this.pods.set(key, { uid, nodeName });
    this.graph.addPod(podEdges(pod));
  }

  onPodDelete(pod: ApiObject): void {
    if (str(spec(pod).nodeName) === '') return;
    this.pods.delete(`${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`);
    this.graph.deletePod(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
  }

  onPV(pv: ApiObject): void {
    this.pvs.add(pv.metadata.name ?? '');
    this.graph.addPV(pvEdges(pv));
  }

  onPVDelete(pv: ApiObject): void {
    this.pvs.delete(pv.metadata.name ?? '');
    this.graph.deletePV(pv.metadata.name ?? '');
  }

  onVolumeAttachment(va: ApiObject): void {
    const name = va.metadata.name ?? '';
    const nodeName = str(spec(va).nodeName);
    if (this.attachments.get(name) === nodeName) return;
    this.attachments.set(name, nodeName);
    this.graph.addVolumeAttachment(name, nodeName);
  }

  onVolumeAttachmentDelete(va: ApiObject): void {
    const name = va.metadata.name ?? '';
    this.attachments.delete(name);
    this.graph.deleteVolumeAttachment(name);
  }

  /** A (re)list of pods: pods gone while the watch was down leave the graph. */
  onPodList(pods: readonly ApiObject[]): void {
    const present = new Set(pods.map((p) => `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`));
    for (const key of [...this.pods.keys()]) {
      if (present.has(key)) continue;
      const slash = key.indexOf('/');
      this.pods.delete(key);
      this.graph.deletePod(key.slice(0, slash), key.slice(slash + 1));
    }
  }

  onPVList(pvs: readonly ApiObject[]): void {
    const present = new Set(pvs.map((p) => p.metadata.name ?? ''));
    for (const name of [...this.pvs]) if (!present.has(name)) this.onPVDelete({ metadata: { name } });
  }

  onVolumeAttachmentList(vas: readonly ApiObject[]): void {
    const present = new Set(vas.map((v) => v.metadata.name ?? ''));
    for (const name of [...this.attachments.keys()]) if (!present.has(name)) this.onVolumeAttachmentDelete({ metadata: { name } });
  }
}

/** The graph and the watches that keep it current (start lists, then watches; stop ends the watches). */
export class NodeGraph {
  readonly graph = new Graph();
  private readonly informers: Informer[];

  constructor(registry: Registry, storage: Store) {
    const p = new GraphPopulator(this.graph);
    const watched: [string, string, InformerHandlers][] = [
      ['', 'pods', { onObject: (o) => p.onPod(o), onDelete: (o) => p.onPodDelete(o), onList: (os) => p.onPodList(os) }],
      ['', 'persistentvolumes', { onObject: (o) => p.onPV(o), onDelete: (o) => p.onPVDelete(o), onList: (os) => p.onPVList(os) }],
      ['storage.svc.io', 'volumeattachments', {
        onObject: (o) => p.onVolumeAttachment(o), onDelete: (o) => p.onVolumeAttachmentDelete(o), onList: (os) => p.onVolumeAttachmentList(os),
      }],
    ];
    this.informers = watched
      .filter(([group, resource]) => registry.has(group, resource))
      .map(([group, resource, handlers]) => new Informer(registry, storage, { group, resource }, handlers, 'node-authorizer'));
  }

  async start(): Promise<void> {
    for (const i of this.informers) await i.start();
  }

  stop(): void {
    for (const i of this.informers) i.stop();
  }
}

/** Builds the graph from the current pods, PVs and attachments and keeps it current until stop(). */
export async function startNodeGraph(registry: Registry, storage: Store): Promise<NodeGraph> {
  const g = new NodeGraph(registry, storage);
  try {
    await g.start();
  } catch (err) {
    g.stop();
    throw err;
  }
  return g;
}
