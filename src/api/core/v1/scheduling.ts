// Scheduling: node and pod (anti-)affinity, node selectors, taints and
// tolerations, topology spread constraints, and the topology selector terms
// that storage classes use. NodeSelector and its terms are atomic.
import { int32, int64, list, obj, ref, str } from '../../../schema/dsl.js';
import { LabelSelector, Time } from '../../../schema/common.js';
import { core } from './names.js';

export const NodeSelectorRequirement = obj({
  key: str().required().proto(1, { keepZero: true }).desc('The label or field key.'),
  operator: str().required().proto(2, { keepZero: true }).desc('In, NotIn, Exists, DoesNotExist, Gt or Lt.'),
  values: list(str()).proto(3).desc('The values; one integer for Gt and Lt, none for Exists and DoesNotExist.'),
})
  .id(core('NodeSelectorRequirement'))
  .desc('A requirement on a node label or field.');

export const NodeSelectorTerm = obj({
  matchExpressions: list(ref(NodeSelectorRequirement)).proto(1).desc('Requirements on node labels.'),
  matchFields: list(ref(NodeSelectorRequirement)).proto(2).desc('Requirements on node fields.'),
})
  .atomic()
  .id(core('NodeSelectorTerm'))
  .desc('Requirements that must all hold; an empty term matches no nodes.');

export const NodeSelector = obj({
  nodeSelectorTerms: list(ref(NodeSelectorTerm)).required().proto(1).desc('The terms, ORed.'),
})
  .atomic()
  .id(core('NodeSelector'))
  .desc('Node selector terms; a node matches when any term matches.');

export const PreferredSchedulingTerm = obj({
  weight: int32().required().proto(1, { keepZero: true }).desc('The weight, 1 to 100.'),
  preference: ref(NodeSelectorTerm).required().proto(2).desc('The node selector term.'),
})
  .id(core('PreferredSchedulingTerm'))
  .desc('A weighted node selector term.');

export const NodeAffinity = obj({
  requiredDuringSchedulingIgnoredDuringExecution: ref(NodeSelector).proto(1).desc('Nodes the pod may run on; checked only at scheduling time.'),
  preferredDuringSchedulingIgnoredDuringExecution: list(ref(PreferredSchedulingTerm)).proto(2).desc('Weighted preferences for nodes; the node with the highest total weight wins.'),
})
  .id(core('NodeAffinity'))
  .desc('Node affinity rules of a pod.');

export const PodAffinityTerm = obj({
  labelSelector: ref(LabelSelector).proto(1).desc('A label query over pods; matches nothing when null.'),
  namespaces: list(str()).proto(2).desc("Namespaces to look in, together with namespaceSelector; the pod's namespace when both are empty."),
  topologyKey: str().required().proto(3, { keepZero: true }).desc('The node label whose value defines a topology domain.'),
  namespaceSelector: ref(LabelSelector).proto(4).desc('A label query over namespaces to look in; {} selects all.'),
})
  .id(core('PodAffinityTerm'))
  .desc('A set of pods, by label and namespace, and a topology key defining "near".');

export const WeightedPodAffinityTerm = obj({
  weight: int32().required().proto(1, { keepZero: true }).desc('The weight, 1 to 100.'),
  podAffinityTerm: ref(PodAffinityTerm).required().proto(2).desc('The pod affinity term.'),
})
  .id(core('WeightedPodAffinityTerm'))
  .desc('A weighted pod affinity term.');

export const PodAffinity = obj({
  requiredDuringSchedulingIgnoredDuringExecution: list(ref(PodAffinityTerm)).proto(1).desc('Terms that must all hold at scheduling time.'),
  preferredDuringSchedulingIgnoredDuringExecution: list(ref(WeightedPodAffinityTerm)).proto(2).desc('Weighted preferences; the node with the highest total weight wins.'),
})
  .id(core('PodAffinity'))
  .desc('Rules placing a pod near matching pods.');

export const PodAntiAffinity = obj({
  requiredDuringSchedulingIgnoredDuringExecution: list(ref(PodAffinityTerm)).proto(1).desc('Terms that must all hold at scheduling time.'),
  preferredDuringSchedulingIgnoredDuringExecution: list(ref(WeightedPodAffinityTerm)).proto(2).desc('Weighted preferences; the node with the highest total weight wins.'),
})
  .id(core('PodAntiAffinity'))
  .desc('Rules keeping a pod away from matching pods.');

export const Affinity = obj({
  nodeAffinity: ref(NodeAffinity).proto(1).desc('Rules about which nodes the pod may or prefers to run on.'),
  podAffinity: ref(PodAffinity).proto(2).desc('Rules for placing the pod near pods that match given selectors.'),
  podAntiAffinity: ref(PodAntiAffinity).proto(3).desc('Rules for keeping the pod away from pods that match given selectors.'),
})
  .id(core('Affinity'))
  .desc('Scheduling constraints of a pod: node affinity, pod affinity and pod anti-affinity.');

export const Toleration = obj({
  key: str().proto(1).desc('The taint key to match; all keys when empty (with Exists).'),
  operator: str().proto(2).desc('Exists or Equal; Equal by default.'),
  value: str().proto(3).desc('The taint value to match.'),
  effect: str().proto(4).desc('The taint effect to match; all effects when empty.'),
  tolerationSeconds: int64().proto(5, { keepZero: true }).desc('How long a NoExecute taint is tolerated; forever when unset.'),
})
  .id(core('Toleration'))
  .desc('Lets a pod tolerate matching taints.');

export const Taint = obj({
  key: str().required().proto(1, { keepZero: true }).desc('The taint key.'),
  value: str().proto(2).desc('The taint value.'),
  effect: str().required().proto(3, { keepZero: true }).desc('NoSchedule, PreferNoSchedule or NoExecute.'),
  timeAdded: ref(Time).proto(4).desc('When the taint was added, for NoExecute taints.'),
})
  .id(core('Taint'))
  .desc('A mark on a node that repels pods that do not tolerate it.');

export const TopologySpreadConstraint = obj({
  maxSkew: int32().required().proto(1, { keepZero: true }).desc('The largest allowed difference in matching pods between domains.'),
  topologyKey: str().required().proto(2, { keepZero: true }).desc('The node label whose value defines a domain.'),
  whenUnsatisfiable: str().required().proto(3, { keepZero: true }).desc('DoNotSchedule or ScheduleAnyway.'),
  labelSelector: ref(LabelSelector).proto(4).desc('The pods to count.'),
  minDomains: int32().proto(5, { keepZero: true }).desc('The least number of eligible domains.'),
  nodeAffinityPolicy: str().proto(6, { keepZero: true }).desc("Honor or Ignore the pod's node affinity when counting."),
  nodeTaintsPolicy: str().proto(7, { keepZero: true }).desc('Honor or Ignore node taints when counting.'),
  matchLabelKeys: list(str()).atomic().proto(8).desc('Pod label keys whose values further select the pods to count.'),
})
  .id(core('TopologySpreadConstraint'))
  .desc('How a group of pods spreads across topology domains.');

export const TopologySelectorLabelRequirement = obj({
  key: str().required().proto(1, { keepZero: true }).desc('The label key.'),
  values: list(str()).required().proto(2).desc('The allowed values.'),
})
  .id(core('TopologySelectorLabelRequirement'))
  .desc('A requirement that a label has one of some values.');

export const TopologySelectorTerm = obj({
  matchLabelExpressions: list(ref(TopologySelectorLabelRequirement)).proto(1).desc('The requirements.'),
})
  .atomic()
  .id(core('TopologySelectorTerm'))
  .desc('Label requirements that must all hold.');
