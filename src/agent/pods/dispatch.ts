// Where the agent's pods come from and what each change does (kube's
// syncLoop over its config sources): the pods the API binds to this node
// (mirror pods are the API's copies of static pods and are never run), and
// the static pods of the manifest folder or URL. A new pod is admitted once
// against allocatable, then handed to its worker; a deletion timestamp is a
// kill with the deletion's grace period; a pod gone from its source is
// killed and, once stopped, cleaned out of the runtime.
import { deepEqual, type ApiObject } from '../../registry/object.js';
import { isMirrorPod } from '../sources/staticpod.js';
import type { PodAdmission } from './admission.js';
import type { RuntimePort } from './ports.js';
import type { StatusManager } from './statusmanager.js';
import type { PodWorkers } from './workers.js';
import type { ResourceList } from '../../quota/resources.js';

export interface DispatchDeps {
  readonly workers: PodWorkers;
  readonly admission: PodAdmission;
  readonly status: StatusManager;
  readonly runtime: RuntimePort;
  /** The node's allocatable now. */
  readonly allocatable: () => ResourceList;
  readonly log: (msg: string) => void;
}

const TERMINAL = new Set(['Succeeded', 'Failed']);
const phaseOf = (p: ApiObject): string => String((p.status as { phase?: unknown } | undefined)?.phase ?? '');

/**
 * Whether a change of a known pod calls for a sync (kube's
 * podsDifferSemantically and HandlePodReconcile): its spec, labels,
 * annotations or deletion changed, it has readiness gates (whose conditions
 * others write to the status), or it turned terminal. A change of the status
 * alone — most often the agent's own status write coming back — does not.
 */
export function needsSync(before: ApiObject, after: ApiObject): boolean {
  const m0 = before.metadata;
  const m1 = after.metadata;
  if (m0.deletionTimestamp !== m1.deletionTimestamp || m0.deletionGracePeriodSeconds !== m1.deletionGracePeriodSeconds) return true;
  if (!deepEqual(m0.labels ?? {}, m1.labels ?? {}) || !deepEqual(m0.annotations ?? {}, m1.annotations ?? {}) || !deepEqual(before.spec, after.spec)) return true;
  const gates = (after.spec as { readinessGates?: unknown[] } | undefined)?.readinessGates;
  if (Array.isArray(gates) && gates.length > 0) return true;
  return TERMINAL.has(phaseOf(after)) && phaseOf(after) !== phaseOf(before);
}

export class PodDispatch {
  /** Every pod the agent is responsible for, by UID. */
  private readonly pods = new Map<string, ApiObject>();

  constructor(private readonly d: DispatchDeps) {}

  /** The pods the agent runs (for its server's /pods). */
  list(): ApiObject[] {
    return [...this.pods.values()];
  }

  get(uid: string): ApiObject | undefined {
    return this.pods.get(uid);
  }

  /** By namespace and name (logs are asked for by name). */
  byName(namespace: string, name: string): ApiObject | undefined {
    for (const p of this.pods.values()) if (p.metadata.namespace === namespace && p.metadata.name === name) return p;
    return undefined;
  }

  /** A pod added or changed in a source. */
  upsert(pod: ApiObject): void {
    if (isMirrorPod(pod)) return;
    const uid = pod.metadata.uid ?? '';
    if (!uid) return;
    const before = this.pods.get(uid);
    const known = before !== undefined;
    this.pods.set(uid, pod);
    if (before && !needsSync(before, pod)) return this.d.workers.reconcile(pod);
    if (!known && !TERMINAL.has(phaseOf(pod)) && !pod.metadata.deletionTimestamp) {
      const rejection = this.d.admission.admit(pod, this.d.allocatable());
      if (rejection) this.d.log(`pod ${pod.metadata.namespace}/${pod.metadata.name} refused: ${rejection.reason}: ${rejection.message}`);
    }
    if (pod.metadata.deletionTimestamp) {
      const grace = pod.metadata.deletionGracePeriodSeconds;
      this.d.workers.update({ pod, type: 'kill', ...(typeof grace === 'number' ? { gracePeriodSeconds: grace } : {}) });
    } else {
      this.d.workers.update({ pod, type: 'sync' });
    }
  }

  /** A pod gone from its source: killed (now), then removed from the runtime. */
  remove(pod: ApiObject): void {
    if (isMirrorPod(pod)) return;
    const uid = pod.metadata.uid ?? '';
    const known = this.pods.get(uid) ?? pod;
    this.pods.delete(uid);
    this.d.workers.forget({ ...known, metadata: { ...known.metadata, deletionGracePeriodSeconds: 0 } } as ApiObject);
    this.d.admission.forget(uid);
  }

  /**
   * kube's HandlePodCleanups: the runtime's pods that no source has (left
   * from before a restart, or whose removal was missed) are stopped and
   * removed; terminated pods free their admitted resources.
   */
  async cleanup(): Promise<void> {
    for (const uid of this.d.workers.uids()) {
      if (this.d.workers.stageOf(uid) === 'terminated') this.d.admission.release(uid);
    }
    for (const uid of await this.d.runtime.podUids()) {
      if (this.pods.has(uid)) continue;
      if (this.d.workers.stageOf(uid) !== undefined && this.d.workers.stageOf(uid) !== 'terminated') continue;
      try {
        await this.d.runtime.remove(uid);
        this.d.status.forget(uid);
      } catch (err) {
        this.d.log(`removing the containers of pod ${uid}: ${(err as Error).message}`);
      }
    }
  }
}
