// What the apps/v1 workloads share: their package, their condition types (one
// named copy per workload, in core/v1's classic shape) and the shape of an
// update strategy (a type, and the limits of a rolling update).
import { obj, ref, str, type S } from '../../../schema/index.js';
import { classicCondition, type ConditionShape } from '../../core/v1/index.js';

export const APPS = 'io.k8s.api.apps.v1';

/** `<Kind>Condition` of an apps/v1 workload; `extra` adds or renumbers fields. */
export function workloadCondition(owner: string, extra?: ConditionShape['extra']): S {
  return classicCondition({ id: `${APPS}.${owner}Condition`, of: `a ${owner}`, ...(extra ? { extra } : {}) });
}

/** An update strategy: `type` (whose values `types` names) and, for RollingUpdate, `rollingUpdate`. */
export function updateStrategy(name: string, opts: { rolling: S; types: string; desc: string }): S {
  return obj({
    type: str().proto(1).desc(opts.types),
    rollingUpdate: ref(opts.rolling).proto(2).desc('The limits of a rolling update; only with type RollingUpdate.'),
  })
    .id(`${APPS}.${name}`)
    .desc(opts.desc);
}
