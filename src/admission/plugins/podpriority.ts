// Priority and DefaultTolerationSeconds, the two default-on admission plugins
// that complete a pod on create: priority and preemptionPolicy from its
// PriorityClass or the cluster's default one (system classes built in; a
// missing class is 403), and NoExecute tolerations of 300 s for the not-ready
// and unreachable taints.
import { isStatusError, newForbidden, newNotFound } from '../../api/meta/index.js';
import { defaultPodPriority, defaultTolerationSeconds } from '../../api/core/v1/defaults.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.js';
import type { GenericStore } from '../../registry/store.js';
import { isObject, type ApiObject } from '../../registry/object.js';
import { andThen, type MutatingAndValidatingPlugin } from './common.js';

/** A pod written as itself: kube's two plugins ignore subresources (a pods/binding's object is a Binding). */
const isPod = (a: AdmissionAttributes) => a.resource.group === '' && a.resource.resource === 'pods' && !a.subresource && a.object !== undefined && (a.operation === 'CREATE' || a.operation === 'UPDATE');

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

/** Reads of the PriorityClass store (at once where the watch cache knows, GenericStore.getSharedNow/listSharedNow). */
type ClassReads = Pick<GenericStore, 'getShared' | 'listShared' | 'getSharedNow' | 'listSharedNow'>;

/** The PriorityClass store; with scheduling.svc.io turned off (--runtime-config) no class exists but the built-in ones. */
function priorityClassStore(priorityClasses: () => GenericStore): ClassReads {
  try {
    return priorityClasses();
  } catch {
    return {
      getShared: (_ns: string, name: string) => Promise.reject(newNotFound({ group: 'scheduling.svc.io', resource: 'priorityclasses' }, name)),
      listShared: async () => [],
      getSharedNow: () => undefined,
      listSharedNow: () => [],
    };
  }
}

type Resolved = { priorityClassName: string; value: number; preemptionPolicy: string | undefined };

const resolvedOf = (pc: ApiObject): Resolved => ({
  priorityClassName: pc.metadata.name ?? '',
  value: Number(pc.value ?? 0),
  preemptionPolicy: typeof pc.preemptionPolicy === 'string' ? pc.preemptionPolicy : undefined,
});

/** kube's getDefaultPriorityClass: the class marked globalDefault, the lowest value if a race left several. */
export function defaultPriorityClass(classes: readonly ApiObject[]): ApiObject | undefined {
  let found: ApiObject | undefined;
  for (const pc of classes) {
    if (pc.globalDefault === true && (found === undefined || Number(found.value ?? 0) > Number(pc.value ?? 0))) found = pc;
  }
  return found;
}

/** A pod without a class: the default class's, else priority 0 and PreemptLowerPriority (kube's getDefaultPriority). */
function defaultPriority(classes: readonly ApiObject[]): Resolved {
  const pc = defaultPriorityClass(classes);
  return pc ? resolvedOf(pc) : { priorityClassName: '', value: 0, preemptionPolicy: 'PreemptLowerPriority' };
}

const isClassWrite = (a: AdmissionAttributes) =>
  a.resource.group === 'scheduling.svc.io' && a.resource.resource === 'priorityclasses' && !a.subresource && a.object !== undefined && (a.operation === 'CREATE' || a.operation === 'UPDATE');

/**
 * kube's Priority plugin, mutating for pods and validating for PriorityClasses:
 * a created pod gets the priority and preemptionPolicy of its class (system
 * classes built in; a missing class is 403), or of the cluster's default class
 * (globalDefault) when it names none — whose name it then takes; an update
 * keeps the values the create set; and only one class may be the default.
 */
export function priorityPlugin(priorityClasses: () => GenericStore): MutatingAndValidatingPlugin {
  const store = () => priorityClassStore(priorityClasses);
  async function resolveClass(a: AdmissionAttributes, name: string): Promise<Resolved> {
    try {
      return resolvedOf(await store().getShared('', name));
    } catch (err) {
      if (isStatusError(err) && err.status.code === 404) throw newForbidden({ group: '', resource: 'pods' }, a.name, `no PriorityClass with name ${name} was found`);
      throw err;
    }
  }
  /** The classes, at once when the watch cache knows them. */
  const classes = (): readonly ApiObject[] | Promise<readonly ApiObject[]> => {
    const s = store();
    return s.listSharedNow('') ?? s.listShared('');
  };
  function admitCreate(a: AdmissionAttributes): void | Promise<void> {
    const spec = isObject(a.object!.spec) ? a.object!.spec : undefined;
    const name = typeof spec?.priorityClassName === 'string' ? spec.priorityClassName : '';
    const apply = (resolved: Resolved) => {
      const problem = defaultPodPriority(a.object!, resolved);
      if (problem) throw newForbidden({ group: '', resource: 'pods' }, a.name, problem);
    };
    if (name === '') return andThen(classes(), (all) => apply(defaultPriority(all)));
    if (SYSTEM_CLASSES[name] !== undefined) return apply({ priorityClassName: name, value: SYSTEM_CLASSES[name]!, preemptionPolicy: 'PreemptLowerPriority' });
    const known = store().getSharedNow('', name);
    return known ? apply(resolvedOf(known)) : resolveClass(a, name).then(apply);
  }
  /** kube: the create set priority and preemptionPolicy; an update that drops them gets the old values back. */
  function admitUpdate(a: AdmissionAttributes): void {
    const spec = isObject(a.object!.spec) ? a.object!.spec : undefined;
    const old = isObject(a.oldObject?.spec) ? a.oldObject!.spec : undefined;
    if (!spec || !old) return;
    if (old.priority !== undefined && old.priority !== null && (spec.priority === undefined || spec.priority === null)) spec.priority = old.priority;
    if (old.preemptionPolicy !== undefined && old.preemptionPolicy !== null && (spec.preemptionPolicy === undefined || spec.preemptionPolicy === null)) spec.preemptionPolicy = old.preemptionPolicy;
  }
  return {
    name: 'Priority',
    phase: 'mutating',
    // decided at once unless a class must be read (no promise for the chain to await)
    admit(a) {
      if (!isPod(a)) return;
      return a.operation === 'CREATE' ? admitCreate(a) : admitUpdate(a);
    },
    validate(a) {
      if (!isClassWrite(a) || a.object!.globalDefault !== true) return;
      const name = a.object!.metadata.name ?? a.name;
      return andThen(classes(), (all) => {
        const current = defaultPriorityClass(all);
        if (current && (a.operation === 'CREATE' || current.metadata.name !== name)) {
          throw newForbidden({ group: 'scheduling.svc.io', resource: 'priorityclasses' }, name, `PriorityClass ${name} is marked as default, but another default PriorityClass ${current.metadata.name} already exists`);
        }
      });
    },
  };
}
