// Server-side defaulting for autoscaling/v2 as kube-apiserver v1.27 applies
// it: minReplicas 1, a CPU utilization target of 80% when no metric is
// given, and — only when spec.behavior is present — every unset part of the
// scale-up and scale-down rules filled from the HPA's historical behaviour.
// In place.
import { at, orSet, struct, unset, type Gates, type Json } from '../../core/v1/defaults.js';

/** The HPA controller's CPU target when none is given. */
export const DEFAULT_CPU_UTILIZATION = 80;

const scaleUpRules = (): Json => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
});
/** No stabilizationWindowSeconds: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies. */
const scaleDownRules = (): Json => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** The rules given, with every unset field taken from the defaults (a present policies list, even empty, is kept). */
function fillRules(given: Json | undefined, defaults: Json): Json {
  if (!given) return defaults;
  for (const k of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) if (!unset(given, k)) defaults[k] = given[k];
  return defaults;
}

export function defaultHorizontalPodAutoscaler(hpa: Json): void {
  const spec = struct(hpa, 'spec');
  if (!spec) return;
  orSet(spec, 'minReplicas', 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  const behavior = at(spec, 'behavior');
  if (behavior) {
    behavior.scaleUp = fillRules(at(behavior, 'scaleUp'), scaleUpRules());
    behavior.scaleDown = fillRules(at(behavior, 'scaleDown'), scaleDownRules());
  }
}

/** The autoscaling/v2 defaulters by kind. */
export const defaulters: Readonly<Record<string, (obj: Json, gates: Gates) => void>> = {
  HorizontalPodAutoscaler: defaultHorizontalPodAutoscaler,
};
