// Namespace and the per-namespace policy kinds: LimitRange and ResourceQuota
// (with its scope selector).
import { list, mapOf, obj, ref, str } from '../../../schema/dsl.js';
import { Quantity, kind } from '../../../schema/common.js';
import { classicCondition } from './condition.js';
import { core } from './names.js';

export const NamespaceSpec = obj({
  finalizers: list(str()).proto(1).desc('Values that must all be removed before the namespace is deleted.'),
})
  .id(core('NamespaceSpec'))
  .desc('The desired state of a namespace.');

export const NamespaceCondition = classicCondition({ id: core('NamespaceCondition'), of: 'a namespace', transition: 4 });

export const NamespaceStatus = obj({
  phase: str().proto(1).desc('Active or Terminating.'),
  conditions: list(ref(NamespaceCondition)).patch('merge', 'type').proto(2).desc('The observed conditions of the namespace.'),
})
  .id(core('NamespaceStatus'))
  .desc('The observed state of a namespace.');

export const Namespace = kind({
  spec: ref(NamespaceSpec).proto(2).desc('The desired state of the namespace.'),
  status: ref(NamespaceStatus).proto(3).desc('The observed state of the namespace.'),
})
  .id(core('Namespace'))
  .desc('A scope for names.');

export const LimitRangeItem = obj({
  type: str().required().proto(1, { keepZero: true }).desc('The kind of object the limits apply to.'),
  max: mapOf(ref(Quantity)).proto(2).desc('The largest allowed amount per resource.'),
  min: mapOf(ref(Quantity)).proto(3).desc('The smallest allowed amount per resource.'),
  default: mapOf(ref(Quantity)).proto(4).desc('The limit applied per resource when none is set.'),
  defaultRequest: mapOf(ref(Quantity)).proto(5).desc('The request applied per resource when none is set.'),
  maxLimitRequestRatio: mapOf(ref(Quantity)).proto(6).desc('The largest allowed limit/request ratio per resource.'),
})
  .id(core('LimitRangeItem'))
  .desc('Limits for one kind of object (Pod, Container or PersistentVolumeClaim).');

export const LimitRangeSpec = obj({
  limits: list(ref(LimitRangeItem)).required().proto(1).desc('The limits, by kind of object.'),
})
  .id(core('LimitRangeSpec'))
  .desc('The limits of a LimitRange.');

export const LimitRange = kind({
  spec: ref(LimitRangeSpec).proto(2).desc('The limits to enforce.'),
})
  .id(core('LimitRange'))
  .desc('Default and allowed resource amounts for objects in a namespace.');

export const ScopedResourceSelectorRequirement = obj({
  scopeName: str().required().proto(1, { keepZero: true }).desc('The scope, such as BestEffort or PriorityClass.'),
  operator: str().required().proto(2, { keepZero: true }).desc('In, NotIn, Exists or DoesNotExist.'),
  values: list(str()).proto(3).desc('The values for In and NotIn.'),
})
  .id(core('ScopedResourceSelectorRequirement'))
  .desc('A requirement on a quota scope.');

export const ScopeSelector = obj({
  matchExpressions: list(ref(ScopedResourceSelectorRequirement)).proto(1).desc('The requirements.'),
})
  .atomic()
  .id(core('ScopeSelector'))
  .desc('Scope requirements that must all hold.');

export const ResourceQuotaSpec = obj({
  hard: mapOf(ref(Quantity)).proto(1).desc('The hard limit per named resource.'),
  scopes: list(str()).proto(2).desc('Filters that tracked objects must all match.'),
  scopeSelector: ref(ScopeSelector).proto(3).desc('Scope filters written as selector requirements.'),
})
  .id(core('ResourceQuotaSpec'))
  .desc('The desired quota.');

export const ResourceQuotaStatus = obj({
  hard: mapOf(ref(Quantity)).proto(1).desc('The enforced hard limit per named resource.'),
  used: mapOf(ref(Quantity)).proto(2).desc('The current usage per named resource.'),
})
  .id(core('ResourceQuotaStatus'))
  .desc('The enforced quota and usage.');

export const ResourceQuota = kind({
  spec: ref(ResourceQuotaSpec).proto(2).desc('The desired quota.'),
  status: ref(ResourceQuotaStatus).proto(3).desc('The enforced quota and current usage.'),
})
  .id(core('ResourceQuota'))
  .desc('Limits on the aggregate resources a namespace uses.');
