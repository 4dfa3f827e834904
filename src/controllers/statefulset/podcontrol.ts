// The StatefulPodControl as API writes (kube's stateful_pod_control.go): pods
// and claims written as statefulset-controller, claims read from the shared
// informer, and kube's Events:
//   SuccessfulCreate "create Claim <claim> Pod <pod> in StatefulSet <set> success"
//   FailedCreate     "create Claim <claim> for Pod <pod> in StatefulSet <set> failed error: <err>"
//   Successful<Verb> "<verb> Pod <pod> in StatefulSet <set> successful"   (create, update, delete)
//   Failed<Verb>     "<verb> Pod <pod> in StatefulSet <set> failed error: <err>"
import type { ApiObject } from '../../registry/object.js';
import type { ControllerClient } from '../client.js';
import type { EventRecorder } from '../events.js';
import type { SharedInformer } from '../shared.js';
import { isNamespaceTerminating, isReason } from '../informer.js';
import type { StatefulPodControl } from './control.js';
import { claimName, identityMatches, ordinalOf, podClaims, specOf, storageMatches, updateIdentity, updateStorage, inOrdinalRange } from './identity.js';
import { claimOwnerMatches, claimWithPolicyRefs, hasStaleOwnerRef, retentionPolicy } from './retention.js';

export const PODS = { group: '', version: 'v1', resource: 'pods' };
export const CLAIMS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };

const title = (verb: string) => verb[0]!.toUpperCase() + verb.slice(1);
const message = (err: unknown) => (err as Error).message;

/** Errors joined as kube's utilerrors.NewAggregate prints them. */
function aggregate(errs: Error[]): Error | undefined {
  if (errs.length === 0) return undefined;
  return errs.length === 1 ? errs[0] : new Error(`[${errs.map((e) => e.message).join(', ')}]`);
}

export interface PodControlOptions {
  readonly client: ControllerClient;
  readonly recorder: EventRecorder;
  readonly claims: SharedInformer;
  readonly startOrdinalGate: boolean;
}

export class ApiStatefulPodControl implements StatefulPodControl {
  constructor(private readonly o: PodControlOptions) {}

  event(set: ApiObject, type: 'Normal' | 'Warning', reason: string, msg: string): void {
    void this.o.recorder.event(set, type, reason, msg);
  }

  private podEvent(verb: string, set: ApiObject, pod: ApiObject, err?: unknown): void {
    if (err === undefined) this.event(set, 'Normal', `Successful${title(verb)}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
    else this.event(set, 'Warning', `Failed${title(verb)}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${message(err)}`);
  }

  private claimEvent(set: ApiObject, pod: ApiObject, claim: string, err?: unknown): void {
    if (err === undefined) this.event(set, 'Normal', 'SuccessfulCreate', `create Claim ${claim} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`);
    else this.event(set, 'Warning', 'FailedCreate', `create Claim ${claim} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${message(err)}`);
  }

  private claim(namespace: string, name: string): ApiObject | undefined {
    return this.o.claims.get(namespace, name);
  }

  /** kube's createPersistentVolumeClaims: each missing claim created; one being deleted is an error. */
  private async createClaims(set: ApiObject, pod: ApiObject): Promise<Map<string, ApiObject>> {
    const created = new Map<string, ApiObject>();
    const errs: Error[] = [];
    for (const claim of podClaims(set, pod).values()) {
      const name = claim.metadata.name!;
      const existing = this.claim(claim.metadata.namespace!, name);
      if (existing) {
        if (existing.metadata.deletionTimestamp) errs.push(new Error(`pvc ${name} is being deleted`));
        continue;
      }
      try {
        created.set(name, await this.o.client.create(CLAIMS, claim.metadata.namespace!, claim));
        this.claimEvent(set, pod, name);
      } catch (err) {
        // created meanwhile (our informer had not seen it yet): the claim is there, which is what we want
        if (isReason(err, 'AlreadyExists')) continue;
        errs.push(new Error(`failed to create PVC ${name}: ${message(err)}`));
        this.claimEvent(set, pod, name, err);
      }
    }
    const err = aggregate(errs);
    if (err) throw err;
    return created;
  }

  async createMissingClaims(set: ApiObject, pod: ApiObject): Promise<void> {
    await this.createClaims(set, pod);
  }

  async createPod(set: ApiObject, pod: ApiObject): Promise<void> {
    let claims: Map<string, ApiObject>;
    try {
      claims = await this.createClaims(set, pod);
    } catch (err) {
      this.podEvent('create', set, pod, err);
      throw err;
    }
    let created: ApiObject;
    try {
      created = await this.o.client.create(PODS, set.metadata.namespace!, pod);
    } catch (err) {
      if (isReason(err, 'AlreadyExists')) throw err;
      if (!isNamespaceTerminating(err)) this.podEvent('create', set, pod, err);
      throw err;
    }
    try {
      await this.updateClaimsForRetentionPolicy(set, created, claims);
    } catch (err) {
      this.podEvent('update', set, pod, err);
      throw err;
    }
    this.podEvent('create', set, pod);
  }

  async updatePod(set: ApiObject, pod: ApiObject): Promise<void> {
    let attempted = false;
    try {
      if (!storageMatches(set, pod)) await this.createClaims(set, pod);
      await this.updateClaimsForRetentionPolicy(set, pod);
      await this.o.client.update(PODS, set.metadata.namespace!, pod.metadata.name!, (latest) => {
        const next = structuredClone(latest) as ApiObject;
        if (!identityMatches(set, next)) updateIdentity(set, next);
        if (!storageMatches(set, next)) updateStorage(set, next);
        attempted = true;
        return next;
      });
    } catch (err) {
      this.podEvent('update', set, pod, err);
      throw err;
    }
    if (attempted) this.podEvent('update', set, pod);
  }

  async deletePod(set: ApiObject, pod: ApiObject): Promise<void> {
    try {
      await this.o.client.delete(PODS, set.metadata.namespace!, pod.metadata.name!);
    } catch (err) {
      this.podEvent('delete', set, pod, err);
      throw err;
    }
    this.podEvent('delete', set, pod);
  }

  private scaledDown(set: ApiObject, pod: ApiObject): boolean {
    return !inOrdinalRange(pod, set, this.o.startOrdinalGate);
  }

  claimsMatchRetentionPolicy(set: ApiObject, pod: ApiObject): boolean {
    const ordinal = ordinalOf(pod);
    for (const t of specOf(set).volumeClaimTemplates ?? []) {
      const claim = this.claim(set.metadata.namespace!, claimName(set, t, ordinal));
      if (!claim) return true;
      if (!claimOwnerMatches(claim, set, pod, this.scaledDown(set, pod))) return false;
    }
    return true;
  }

  /** kube's UpdatePodClaimForRetentionPolicy: each existing claim's references as the policy wants; a missing one waits for the next pass. */
  async updateClaimsForRetentionPolicy(set: ApiObject, pod: ApiObject, created?: ReadonlyMap<string, ApiObject>): Promise<void> {
    const ordinal = ordinalOf(pod);
    for (const t of specOf(set).volumeClaimTemplates ?? []) {
      const name = claimName(set, t, ordinal);
      const claim = this.claim(set.metadata.namespace!, name) ?? created?.get(name);
      if (!claim) continue;
      if (claimOwnerMatches(claim, set, pod, this.scaledDown(set, pod))) continue;
      try {
        await this.o.client.update(CLAIMS, set.metadata.namespace!, name, (latest) => claimWithPolicyRefs(latest, set, pod, this.scaledDown(set, pod)) ?? latest);
      } catch (err) {
        throw new Error(`could not update claim ${name} for delete policy ownerRefs: ${message(err)}`);
      }
    }
  }

  podClaimIsStale(set: ApiObject, pod: ApiObject): boolean {
    if (retentionPolicy(set).whenScaled === 'Retain') return false;
    for (const claim of podClaims(set, pod).values()) {
      const existing = this.claim(claim.metadata.namespace!, claim.metadata.name!);
      if (existing && hasStaleOwnerRef(existing, pod)) return true;
    }
    return false;
  }
}
