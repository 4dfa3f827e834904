// Server-side defaulting for autoscaling/v1 as kube-apiserver v1.27 applies
// it: minReplicas 1. A missing targetCPUUtilizationPercentage stays missing
// (the controller uses 80%); objects are stored as autoscaling/v2, whose
// defaults then apply when they are read back.
import { orSet, struct, type Gates, type Json } from '../../core/v1/defaults.js';

export function defaultHorizontalPodAutoscaler(hpa: Json): void {
  const spec = struct(hpa, 'spec');
  if (spec) orSet(spec, 'minReplicas', 1);
}

/** The autoscaling/v1 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  HorizontalPodAutoscaler: defaultHorizontalPodAutoscaler,
};
