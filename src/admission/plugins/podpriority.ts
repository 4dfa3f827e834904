// Priority and DefaultTolerationSeconds, the two default-on admission plugins
// that complete a pod on create: priority and preemptionPolicy from its
// PriorityClass (system classes built in; a missing class is 403), and
// NoExecute tolerations of 300 s for the not-ready and unreachable taints.
import { isStatusError, newForbidden, newNotFound } from '../../api/meta/index.js';
import { defaultPodPriority, defaultTolerationSeconds } from '../../api/core/v1/defaults.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { GenericStore } from '../../registry/store.js';
import { isObject } from '../../registry/object.js';

/** A pod written as itself: kube's two plugins ignore subresources (a pods/binding's object is a Binding). */
const isPod = (a: AdmissionAttributes) => a.resource.group === '' && a.resource.resource === 'pods' && !a.subresource && a.object !== undefined && (a.operation === 'CREATE' || a.operation === 'UPDATE');
const isPodCreate = (a: AdmissionAttributes) => isPod(a) && a.operation === 'CREATE';

/** On create and on update (a patch replacing the tolerations gets them back), as Kubernetes does. */
export function defaultTolerationSecondsPlugin(): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    phase: 'mutating',
    admit(a) {
      if (isPod(a)) defaultTolerationSeconds(a.object!);
    },
  };
}

/** The classes every cluster has, as Kubernetes creates them. */
const SYSTEM_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/** The PriorityClass store; with scheduling.svc.io turned off (--runtime-config) no class exists but the built-in ones. */
function priorityClassStore(priorityClasses: () => GenericStore): Pick<GenericStore, 'getShared'> {
  try {
    return priorityClasses();
  } catch {
    return { getShared: (_ns: string, name: string) => Promise.reject(newNotFound({ group: 'scheduling.svc.io', resource: 'priorityclasses' }, name)) };
  }
}

type Resolved = { priorityClassName: string; value: number; preemptionPolicy: string | undefined };

export function priorityPlugin(priorityClasses: () => GenericStore): AdmissionPlugin {
  async function resolveClass(a: AdmissionAttributes, name: string): Promise<Resolved> {
    try {
      const pc = await priorityClassStore(priorityClasses).getShared('', name);
      return { priorityClassName: name, value: Number(pc.value ?? 0), preemptionPolicy: typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : 'PreemptLowerPriority' };
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) throw newForbidden({ group: '', resource: 'pods' }, a.name, `no PriorityClass with name ${name} was found`);
      throw err;
    }
  }
  return {
    name: 'Priority',
    phase: 'mutating',
    // a pod naming no class, or a built-in one, is decided at once (no promise for the chain to await)
    admit(a) {
      if (!isPodCreate(a)) return;
      const spec = isObject(a.object!.spec) ? a.object!.spec : undefined;
      const name = typeof spec?.priorityClassName === 'string' ? spec.priorityClassName : '';
      const apply = (resolved: Resolved) => {
        const problem = defaultPodPriority(a.object!, resolved);
        if (problem) throw newForbidden({ group: '', resource: 'pods' }, a.name, problem);
      };
      if (name === '') return apply({ priorityClassName: '', value: 0, preemptionPolicy: 'PreemptLowerPriority' });
      if (SYSTEM_CLASSES[name] !== undefined) return apply({ priorityClassName: name, value: SYSTEM_CLASSES[name]!, preemptionPolicy: 'PreemptLowerPriority' });
      return resolveClass(a, name).then(apply);
    },
  };
}
