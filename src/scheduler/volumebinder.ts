// The scheduler's volume binder (kube's SchedulerVolumeBinder in
// pkg/scheduler/framework/plugins/volumebinding/binder.go), for claims of
// WaitForFirstConsumer classes:
//   find    (Filter, per node): each unbound claim, smallest first, takes the
//           smallest available volume fitting it on the node, else must be
//           provisionable there (the class has a provisioner and its
//           allowedTopologies match the node); a claim already given a
//           selected-node fits that node only
//   assume  (Reserve): the chosen volumes' claimRef and the claims'
//           selected-node annotation are kept in an assume cache over the
//           informers, so the next pods see them taken
//   bind    (PreBind): the volumes and claims written through the API, then
//           a wait until the PersistentVolume binder (and a provisioner) bound
//           every claim — kube's bindTimeoutSeconds (600 s) at most
//   revert  (Unreserve): the assumed objects dropped.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_SELECTED_NODE, NOT_SUPPORTED_PROVISIONER, YES, annotation, withAnnotation } from '../controllers/volume/annotations.js';
import { claimClass, claimReference, claimRefOf, claimVolumeName, findMatchingVolume, isVolumeBoundToClaim, requestedStorage, specOf, volumeFitsNode } from '../controllers/volume/match.js';
import type { VolumeListers } from './volumes.js';

export type ListerSet = VolumeListers & { volumes(): readonly ApiObject[] };

/** Writes of the binder (the scheduler's client: PUTs carrying the resourceVersion read). */
export interface VolumeWriter {
  updateVolume(pv: ApiObject): Promise<ApiObject>;
  updateClaim(claim: ApiObject): Promise<ApiObject>;
}

const rv = (o: ApiObject): number => Number(o.metadata.resourceVersion ?? 0);
const claimKey = (c: ApiObject): string => `${c.metadata.namespace ?? ''}/${c.metadata.name}`;

/**
 * Volumes and claims as the informers have them, with assumed versions laid
 * over: an assumed object is dropped once the informer's copy is newer than
 * the one it was made from (the write landed, or someone else wrote first).
 */
export class AssumeCache implements ListerSet {
  private readonly pvs = new Map<string, ApiObject>();
  private readonly pvcs = new Map<string, ApiObject>();

  constructor(private readonly base: ListerSet) {}

  private live<T extends Map<string, ApiObject>>(m: T, key: string, seen: ApiObject | undefined): ApiObject | undefined {
    const mine = m.get(key);
    if (!mine) return seen;
    if (!seen || seen.metadata.uid !== mine.metadata.uid || rv(seen) > rv(mine)) {
      m.delete(key);
      return seen;
    }
    return mine;
  }

  volume(name: string): ApiObject | undefined {
    return this.live(this.pvs, name, this.base.volume(name));
  }

  claim(namespace: string, name: string): ApiObject | undefined {
    return this.live(this.pvcs, `${namespace}/${name}`, this.base.claim(namespace, name));
  }

  storageClass(name: string): ApiObject | undefined {
    return this.base.storageClass(name);
  }

  volumes(): readonly ApiObject[] {
    return this.base.volumes().map((v) => this.volume(v.metadata.name!) ?? v);
  }

  assumeVolume(pv: ApiObject): void {
    this.pvs.set(pv.metadata.name!, pv);
  }

  assumeClaim(claim: ApiObject): void {
    this.pvcs.set(claimKey(claim), claim);
  }

  restoreVolume(name: string): void {
    this.pvs.delete(name);
  }

  restoreClaim(key: string): void {
    this.pvcs.delete(key);
  }
}

/** One node's plan for a pod's unbound WaitForFirstConsumer claims. */
export interface PodVolumes {
  /** Static bindings: the volume as it will be written (claimRef set). */
  readonly bindings: readonly { readonly volume: ApiObject; readonly claim: ApiObject }[];
  /** Claims to provision: as they will be written (selected-node set). */
  readonly provisions: readonly ApiObject[];
}

export type FindResult = { readonly ok: true; readonly volumes: PodVolumes } | { readonly ok: false };

/** MatchTopologySelectorTerms: no terms match every node; otherwise one term's every expression. */
export function topologyMatches(terms: unknown, node: ApiObject): boolean {
  if (!Array.isArray(terms) || terms.length === 0) return true;
  const labels = node.metadata.labels ?? {};
  return terms.some((t) => {
    const exprs = isObject(t) && Array.isArray(t.matchLabelExpressions) ? t.matchLabelExpressions.filter(isObject) : [];
    return exprs.every((e) => Array.isArray(e.values) && e.values.map(String).includes(labels[String(e.key)] ?? '\u0000'));
  });
}

/** checkVolumeProvisions for one claim on one node. */
function provisionable(claim: ApiObject, node: ApiObject, listers: ListerSet): boolean {
  const name = claimClass(claim);
  const cls = name ? listers.storageClass(name) : undefined;
  const provisioner = typeof cls?.provisioner === 'string' ? cls.provisioner : '';
  if (!cls || provisioner === '' || provisioner === NOT_SUPPORTED_PROVISIONER) return false;
  return topologyMatches((cls as ApiObject & { allowedTopologies?: unknown }).allowedTopologies, node);
}

/** FindPodVolumes for the unbound delayed claims on one node. */
export function findPodVolumes(claims: readonly ApiObject[], node: ApiObject, listers: ListerSet): FindResult {
  const nodeName = node.metadata.name!;
  const toMatch: ApiObject[] = [];
  const toProvision: ApiObject[] = [];
  for (const c of claims) {
    const selected = annotation(c, ANN_SELECTED_NODE);
    if (selected !== undefined) {
      if (selected !== nodeName) return { ok: false };
      toProvision.push(c);
    } else toMatch.push(c);
  }
  const bindings: { volume: ApiObject; claim: ApiObject }[] = [];
  const chosen = new Set<string>();
  const all = listers.volumes();
  for (const claim of [...toMatch].sort((a, b) => (requestedStorage(a) < requestedStorage(b) ? -1 : requestedStorage(a) > requestedStorage(b) ? 1 : 0))) {
    const pv = findMatchingVolume(claim, all, { node, delayBinding: true, exclude: chosen });
    if (!pv) {
      toProvision.push(claim);
      continue;
    }
    chosen.add(pv.metadata.name!);
    const bound = isVolumeBoundToClaim(pv, claim) ? pv : withAnnotation(pv, ANN_BOUND_BY_CONTROLLER, YES);
    bindings.push({ claim, volume: { ...bound, spec: { ...specOf(pv), claimRef: claimReference(claim) } } });
  }
  for (const c of toProvision) if (!provisionable(c, node, listers)) return { ok: false };
  return { ok: true, volumes: { bindings, provisions: toProvision.map((c) => withAnnotation(c, ANN_SELECTED_NODE, nodeName)) } };
}

export const isEmpty = (v: PodVolumes): boolean => v.bindings.length === 0 && v.provisions.length === 0;

/** AssumePodVolumes. */
export function assumePodVolumes(cache: AssumeCache, v: PodVolumes): void {
  for (const b of v.bindings) cache.assumeVolume(b.volume);
  for (const c of v.provisions) cache.assumeClaim(c);
}

export function revertAssumed(cache: AssumeCache, v: PodVolumes): void {
  for (const b of v.bindings) cache.restoreVolume(b.volume.metadata.name!);
  for (const c of v.provisions) cache.restoreClaim(claimKey(c));
}

/** bindAPIUpdate: the volumes' claimRefs and the claims' selected-node through the API; the objects as written. */
export async function writePodVolumes(writer: VolumeWriter, v: PodVolumes): Promise<PodVolumes> {
  const bindings: { volume: ApiObject; claim: ApiObject }[] = [];
  for (const b of v.bindings) bindings.push({ claim: b.claim, volume: await writer.updateVolume(b.volume) });
  const provisions: ApiObject[] = [];
  for (const c of v.provisions) provisions.push(await writer.updateClaim(c));
  return { bindings, provisions };
}

const fullyBound = (c: ApiObject): boolean => claimVolumeName(c) !== '' && annotation(c, ANN_BIND_COMPLETED) !== undefined;

/** checkBindings: true when every claim is bound; a string when binding can no longer succeed (kube's texts). */
export function checkBindings(v: PodVolumes, node: ApiObject, listers: ListerSet): boolean | string {
  const nodeName = node.metadata.name!;
  for (const b of v.bindings) {
    const pv = listers.volume(b.volume.metadata.name!);
    if (!pv) return `failed to check binding: PersistentVolume ${JSON.stringify(b.volume.metadata.name)} not found`;
    const claim = listers.claim(b.claim.metadata.namespace ?? '', b.claim.metadata.name!);
    if (!claim) return `failed to check binding: PersistentVolumeClaim ${JSON.stringify(claimKey(b.claim))} not found`;
    if (rv(b.volume) > rv(pv)) return false;
    if (!volumeFitsNode(pv, node)) return `pv ${JSON.stringify(pv.metadata.name)} node affinity doesn't match node ${JSON.stringify(nodeName)}`;
    const ref = claimRefOf(pv);
    if (!ref || !ref.uid) return `ClaimRef got reset for pv ${JSON.stringify(pv.metadata.name)}`;
    if (!fullyBound(claim)) return false;
  }
  for (const c of v.provisions) {
    const claim = listers.claim(c.metadata.namespace ?? '', c.metadata.name!);
    if (!claim) return `failed to check provisioning pvc: PersistentVolumeClaim ${JSON.stringify(claimKey(c))} not found`;
    if (rv(c) > rv(claim)) return false;
    const selected = annotation(claim, ANN_SELECTED_NODE);
    if (selected === undefined) return `selectedNode annotation reset for PVC ${JSON.stringify(claim.metadata.name)}`;
    if (selected !== nodeName) return `provisioning failed for PVC ${JSON.stringify(claim.metadata.name)}`;
    const volumeName = claimVolumeName(claim);
    if (volumeName !== '') {
      const pv = listers.volume(volumeName);
      if (!pv) return false;
      if (!volumeFitsNode(pv, node)) return `pv ${JSON.stringify(pv.metadata.name)} node affinity doesn't match node ${JSON.stringify(nodeName)}`;
    }
    if (!fullyBound(claim)) return false;
  }
  return true;
}

/** Polls checkBindings until done; throws kube's timeout error or the reason binding failed. */
export async function waitForBindings(v: PodVolumes, node: () => ApiObject | undefined, listers: ListerSet, o: { timeoutMs: number; pollMs: number; stopped?: () => boolean }): Promise<void> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    const n = node();
    if (!n) throw new Error('node was deleted');
    const r = checkBindings(v, n, listers);
    if (r === true) return;
    if (typeof r === 'string') throw new Error(r);
    if (o.stopped?.()) throw new Error('the scheduler stopped');
    if (Date.now() >= deadline) throw new Error('timed out waiting for the condition');
    await new Promise((res) => setTimeout(res, o.pollMs));
  }
}
