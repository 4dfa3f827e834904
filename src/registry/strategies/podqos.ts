// A pod's QoS class (status.qosClass), computed on create as Kubernetes does:
//   no cpu/memory requests or limits anywhere → BestEffort
//   every container limits cpu and memory, and requests equal limits → Guaranteed
//   otherwise → Burstable
// Pod totals are summed per resource over init and app containers (zero
// quantities do not count), in nano-units.
import { quantityOf } from '../../api/meta/quantity.js';
import { isObject, type ApiObject } from '../object.js';

/** Running totals of cpu and memory (undefined: none seen). */
class Totals {
  cpu: bigint | undefined = undefined;
  memory: bigint | undefined = undefined;
  /** Adds the non-zero cpu and memory of a resource list; returns how many of the two it had. */
  add(list: unknown): number {
    if (!isObject(list)) return 0;
    let seen = 0;
    const cpu = quantityOf(list.cpu)?.nanos;
    if (cpu !== undefined && cpu !== 0n) {
      seen++;
      this.cpu = this.cpu === undefined ? cpu : this.cpu + cpu;
    }
    const memory = quantityOf(list.memory)?.nanos;
    if (memory !== undefined && memory !== 0n) {
      seen++;
      this.memory = this.memory === undefined ? memory : this.memory + memory;
    }
    return seen;
  }
  get empty(): boolean {
    return this.cpu === undefined && this.memory === undefined;
  }
}

export function podQOSClass(pod: ApiObject): 'BestEffort' | 'Guaranteed' | 'Burstable' {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const requests = new Totals();
  const limits = new Totals();
  let guaranteed = true;
  for (const list of [spec.initContainers, spec.containers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      const res = isObject(c) && isObject(c.resources) ? c.resources : undefined;
      requests.add(res?.requests);
      if (limits.add(res?.limits) !== 2) guaranteed = false;
    }
  }
  if (requests.empty && limits.empty) return 'BestEffort';
  if (!guaranteed) return 'Burstable';
  // Every request must have an equal limit.
  if (requests.cpu !== undefined && requests.cpu !== limits.cpu) return 'Burstable';
  if (requests.memory !== undefined && requests.memory !== limits.memory) return 'Burstable';
  return 'Guaranteed';
}
