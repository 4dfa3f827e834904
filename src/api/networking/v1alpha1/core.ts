// Core v1 node selection types, used by ClusterCIDR here and by
// resource/v1alpha2.
// TODO(core): use src/api/core/v1 once it lands (NodeSelectorRequirement, NodeSelectorTerm, NodeSelector).
import { list, obj, str } from '../../../schema/index.js';

export const NodeSelectorRequirement = obj({
  key: str().required().desc('The label or field key.'),
  operator: str().required().desc('In, NotIn, Exists, DoesNotExist, Gt or Lt.'),
  values: list(str()).desc('The values to compare with; one integer for Gt and Lt, none for Exists and DoesNotExist.'),
})
  .id('io.k8s.api.core.v1.NodeSelectorRequirement')
  .desc('A requirement on a node label or field.');

export const NodeSelectorTerm = obj({
  matchExpressions: list(NodeSelectorRequirement).desc('Requirements on node labels, all of which must hold.'),
  matchFields: list(NodeSelectorRequirement).desc('Requirements on node fields, all of which must hold.'),
})
  .atomic()
  .id('io.k8s.api.core.v1.NodeSelectorTerm')
  .desc('Requirements that must all hold for a node to match.');

export const NodeSelector = obj({
  nodeSelectorTerms: list(NodeSelectorTerm).required().desc('Terms of which at least one must match.'),
})
  .atomic()
  .id('io.k8s.api.core.v1.NodeSelector')
  .desc('A selection of nodes: the union of its terms.');
