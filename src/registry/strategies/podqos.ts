// A pod's QoS class (status.qosClass), computed on create as Kubernetes does:
//   no cpu/memory requests or limits anywhere → BestEffort
//   every container limits cpu and memory, and requests equal limits → Guaranteed
//   otherwise → Burstable
import { compareQuantities, quantityOf, type Quantity } from '../../api/meta/quantity.js';
import { isObject, type ApiObject } from '../object.js';

const COMPUTE = ['cpu', 'memory'];

export function podQOSClass(pod: ApiObject): 'BestEffort' | 'Guaranteed' | 'Burstable' {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const containers = [...(Array.isArray(spec.initContainers) ? spec.initContainers : []), ...(Array.isArray(spec.containers) ? spec.containers : [])];
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  for (const c of containers) {
    const res = isObject(c) && isObject(c.resources) ? c.resources : {};
    const add = (into: Map<string, Quantity>, list: unknown) => {
      const seen = new Set<string>();
      for (const name of COMPUTE) {
        const q = isObject(list) ? quantityOf(list[name]) : undefined;
        if (!q || compareQuantities(q, ZERO) === 0) continue;
        seen.add(name);
        const prev = into.get(name);
        into.set(name, prev ? add2(prev, q) : q);
      }
      return seen;
    };
    add(requests, res.requests);
    if (add(limits, res.limits).size !== COMPUTE.length) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, q] of requests) {
      const l = limits.get(name);
      if (!l || compareQuantities(l, q) !== 0) return 'Burstable';
    }
    return 'Guaranteed';
  }
  return 'Burstable';
}

const ZERO = quantityOf('0')!;

/** Sums two quantities (the QoS check compares pod totals). */
const add2 = (a: Quantity, b: Quantity): Quantity => ({ nanos: a.nanos + b.nanos, format: a.format });
