// scheduling/v1: PriorityClass, a named pod priority.
import { bool, int32, kind, str, type S } from '../../../schema/index.js';

const PKG = 'io.k8s.api.scheduling.v1';

export const PriorityClass = kind(
  {
    value: int32().proto(2, { keepZero: true }).desc('The priority of pods of this class; higher goes first.'),
    globalDefault: bool().proto(3).desc('Whether pods without a priority class get this one; at most one class may set it.'),
    description: str().proto(4).desc('When to use this class, for people.'),
    preemptionPolicy: str().proto(5, { keepZero: true }).desc('PreemptLowerPriority (the default) or Never.'),
  },
  { required: ['value'] },
)
  .id(`${PKG}.PriorityClass`)
  .desc('A name for a pod priority value.');

export const kinds: Readonly<Record<string, S>> = { PriorityClass };
