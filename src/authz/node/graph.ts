// The node authorizer's graph (kube v1.27 plugin/pkg/auth/authorizer/node/graph.go):
// objects as vertices, edges pointing towards the node that may read them.
//
//   pod → node                     (spec.nodeName)
//   secret, configmap, pvc, serviceaccount, resourceclaim → pod → node
//   pv → pvc (claimRef)            secret → pv (the PV's kubelet-visible secrets)
//   volumeattachment → node        (spec.nodeName)
//
// An edge out of a pod-referenced object carries the node its pod is bound
// to (a "destination edge"), and every vertex counts its destination edges per
// node, so "may node N read object X" is one map lookup on X, plus a walk of
// X's few plain edges (secret → pv → pvc) — never a walk over the pods that
// share X. Updates are per object: a pod's vertex and edges are removed and
// added again; neighbours left without any edge go with it.

export type VertexType = 'configmap' | 'node' | 'pod' | 'pvc' | 'pv' | 'resourceclaim' | 'secret' | 'volumeattachment' | 'serviceAccount';

class Vertex {
  /** Edges to the pod or node this vertex leads to, with the node at the end of each. */
  readonly destinationOut = new Map<Vertex, string>();
  /** Edges without a node (secret → pv, pv → pvc). */
  readonly plainOut = new Set<Vertex>();
  readonly in = new Set<Vertex>();
  /** How many destination edges end at each node. */
  readonly destinations = new Map<string, number>();

  constructor(readonly key: string, readonly type: VertexType, readonly namespace: string, readonly name: string) {}

  get degree(): number {
    return this.destinationOut.size + this.plainOut.size + this.in.size;
  }
}

const vertexKey = (type: VertexType, namespace: string, name: string) => `${type}\u0000${namespace}\u0000${name}`;

/** What the graph reads of a pod (see references.ts for how it is taken from a Pod object). */
export interface PodEdges {
  readonly namespace: string;
  readonly name: string;
  readonly nodeName: string;
  /** A mirror pod (created by a node from a static manifest) grants nothing but itself. */
  readonly mirror: boolean;
  readonly serviceAccountName: string;
  readonly secrets: readonly string[];
  readonly configMaps: readonly string[];
  readonly claims: readonly string[];
  readonly resourceClaims: readonly string[];
}

export interface PVEdges {
  readonly name: string;
  readonly claimRef?: { readonly namespace: string; readonly name: string } | undefined;
  /** Kubelet-visible secrets only. */
  readonly secrets: readonly { readonly namespace: string; readonly name: string }[];
}

export class Graph {
  private readonly vertices = new Map<string, Vertex>();

  /** Number of vertices (tests check that removals leave nothing behind). */
  get size(): number {
    return this.vertices.size;
  }

  has(type: VertexType, namespace: string, name: string): boolean {
    return this.vertices.has(vertexKey(type, namespace, name));
  }

  /** Replaces the pod's edges (kube's AddPod). */
  addPod(pod: PodEdges): void {
    this.deleteVertex('pod', pod.namespace, pod.name);
    const podVertex = this.getOrCreate('pod', pod.namespace, pod.name);
    const nodeVertex = this.getOrCreate('node', '', pod.nodeName);
    this.setEdge(podVertex, nodeVertex, pod.nodeName);
    // Defense in depth: a node must not gain access to anything by creating a mirror pod.
    if (pod.mirror) return;
    const link = (type: VertexType, name: string) => this.setEdge(this.getOrCreate(type, pod.namespace, name), podVertex, pod.nodeName);
    if (pod.serviceAccountName) link('serviceAccount', pod.serviceAccountName);
    for (const s of pod.secrets) link('secret', s);
    for (const c of pod.configMaps) link('configmap', c);
    for (const c of pod.claims) link('pvc', c);
    for (const c of pod.resourceClaims) link('resourceclaim', c);
  }

  deletePod(namespace: string, name: string): void {
    this.deleteVertex('pod', namespace, name);
  }

  /** Replaces the PV's edges (kube's AddPV): pv → its claim, its kubelet-visible secrets → pv. */
  addPV(pv: PVEdges): void {
    this.deleteVertex('pv', '', pv.name);
    if (!pv.claimRef) return;
    const pvVertex = this.getOrCreate('pv', '', pv.name);
    this.setEdge(pvVertex, this.getOrCreate('pvc', pv.claimRef.namespace, pv.claimRef.name));
    for (const s of pv.secrets) this.setEdge(this.getOrCreate('secret', s.namespace, s.name), pvVertex);
  }

  deletePV(name: string): void {
    this.deleteVertex('pv', '', name);
  }

  /** Replaces the attachment's edge to its node (none when nodeName is empty). */
  addVolumeAttachment(name: string, nodeName: string): void {
    this.deleteVertex('volumeattachment', '', name);
    if (nodeName === '') return;
    this.setEdge(this.getOrCreate('volumeattachment', '', name), this.getOrCreate('node', '', nodeName), nodeName);
  }

  deleteVolumeAttachment(name: string): void {
    this.deleteVertex('volumeattachment', '', name);
  }

  /**
   * Whether a path leads from the object to the node (kube's hasPathFrom): an edge to
   * the node counted on the vertex, or one through the plain edges (secret → pv → pvc).
   * Edges towards other nodes are not followed.
   */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): boolean {
    if (!this.vertices.has(vertexKey('node', '', nodeName))) return false;
    const start = this.vertices.get(vertexKey(type, namespace, name));
    if (!start) return false;
    const seen = new Set<Vertex>([start]);
    const stack = [start];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if ((v.destinations.get(nodeName) ?? 0) > 0) return true;
      for (const next of v.plainOut) {
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    return false;
  }

  private getOrCreate(type: VertexType, namespace: string, name: string): Vertex {
    const key = vertexKey(type, namespace, name);
    let v = this.vertices.get(key);
    if (!v) {
      v = new Vertex(key, type, namespace, name);
      this.vertices.set(key, v);
    }
    return v;
  }

  /** Sets the edge from → to (replacing one between them); `destination` names the node it leads to. */
  private setEdge(from: Vertex, to: Vertex, destination?: string): void {
    this.removeEdge(from, to);
    if (destination === undefined) from.plainOut.add(to);
    else {
      from.destinationOut.set(to, destination);
      from.destinations.set(destination, (from.destinations.get(destination) ?? 0) + 1);
    }
    to.in.add(from);
  }

  private removeEdge(from: Vertex, to: Vertex): void {
    const destination = from.destinationOut.get(to);
    if (destination !== undefined) {
      from.destinationOut.delete(to);
      const n = (from.destinations.get(destination) ?? 0) - 1;
      if (n > 0) from.destinations.set(destination, n);
      else from.destinations.delete(destination);
    }
    from.plainOut.delete(to);
    to.in.delete(from);
  }

  /** Removes a vertex with its edges, and the neighbours whose only edge was to or from it. */
  private deleteVertex(type: VertexType, namespace: string, name: string): void {
    const v = this.vertices.get(vertexKey(type, namespace, name));
    if (!v) return;
    const neighbours = new Set<Vertex>([...v.destinationOut.keys(), ...v.plainOut, ...v.in]);
    for (const to of [...v.destinationOut.keys(), ...v.plainOut]) this.removeEdge(v, to);
    for (const from of [...v.in]) this.removeEdge(from, v);
    this.vertices.delete(v.key);
    for (const n of neighbours) if (n.degree === 0) this.vertices.delete(n.key);
  }
}
