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

export function priorityPlugin(priorityClasses: () => GenericStore): AdmissionPlugin {
  return {
    name: 'Priority',
    phase: 'mutating',
    async admit(a) {
      if (!isPodCreate(a)) return;
      const spec = isObject(a.object!.spec) ? a.object!.spec : undefined;
      const name = typeof spec?.priorityClassName === 'string' ? spec.priorityClassName : '';
      let resolved = { priorityClassName: '', value: 0, preemptionPolicy: 'PreemptLowerPriority' as string | undefined };
      if (name !== '') {
        if (SYSTEM_CLASSES[name] !== undefined) resolved = { priorityClassName: name, value: SYSTEM_CLASSES[name]!, preemptionPolicy: 'PreemptLowerPriority' };
        else {
          try {
            const pc = await priorityClassStore(priorityClasses).getShared('', name);
            resolved = { priorityClassName: name, value: Number(pc.value ?? 0), preemptionPolicy: typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : 'PreemptLowerPriority' };
          } catch (err) {
            if (isStatusError(err) && err.status.code === 404) throw newForbidden({ group: '', resource: 'pods' }, a.name, `no PriorityClass with name ${name} was found`);
            throw err;
          }
        }
      }
      const problem = defaultPodPriority(a.object!, resolved);
      if (problem) throw newForbidden({ group: '', resource: 'pods' }, a.name, problem);
    },
  };
}
