// Server-side defaulting for scheduling.svc.io/v1 as kube-apiserver v1.27
// applies it: a PriorityClass preempts lower priorities unless told otherwise.
import { orSet, type Gates, type Json } from '../../core/v1/defaults.js';

export function defaultPriorityClass(pc: Json): void {
  orSet(pc, 'preemptionPolicy', 'PreemptLowerPriority');
}

/** The scheduling.svc.io/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  PriorityClass: defaultPriorityClass,
};
