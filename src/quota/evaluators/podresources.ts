// A pod's effective requests and limits (kube's pkg/api/v1/resource PodRequests
// and PodLimits, v1.27): per resource, the larger of the app containers' sum
// and each init container's own value (init containers run one at a time,
// before the app containers), then the pod's spec.overhead added — to every
// request, and to a limit only where the pod has that limit.
import type { ApiObject } from '../../registry/object.js';
import { addInto, addLists, maxLists, parseResourceList, type ResourceList } from '../resources.js';
import { rec } from './common.js';

type Field = 'requests' | 'limits';

/** One container's requests or limits. */
export const containerList = (c: unknown, field: Field): ResourceList => parseResourceList(rec(rec(c).resources)[field]);

const containersOf = (spec: Record<string, unknown>, key: 'containers' | 'initContainers'): unknown[] =>
  Array.isArray(spec[key]) ? (spec[key] as unknown[]) : [];

function podTotal(pod: ApiObject, field: Field): ResourceList {
  const spec = rec(pod.spec);
  // each container's list is a new object: the first one is the sum so far, the others add into it
  let out: ResourceList | undefined;
  for (const c of containersOf(spec, 'containers')) out = out ? addInto(out, containerList(c, field)) : containerList(c, field);
  out ??= {};
  for (const c of containersOf(spec, 'initContainers')) out = maxLists(out, containerList(c, field));
  return out;
}

/** The pod's effective requests, overhead included. */
export function podRequests(pod: ApiObject): ResourceList {
  const overhead = rec(pod.spec).overhead;
  const total = podTotal(pod, 'requests');
  return overhead === undefined ? total : addLists(total, parseResourceList(overhead));
}

/** The pod's effective limits; overhead is added only to the limits the pod has. */
export function podLimits(pod: ApiObject): ResourceList {
  const limits = podTotal(pod, 'limits');
  const overhead = parseResourceList(rec(pod.spec).overhead);
  for (const [k, q] of Object.entries(overhead)) {
    const have = limits[k];
    if (have) limits[k] = { nanos: have.nanos + q.nanos, format: have.format };
  }
  return limits;
}
