// Core v1 types storage/v1 kinds refer to.
// TODO(core): use src/api/core/v1 once it lands.
import { freeform, list, obj, str } from '../../../schema/index.js';

export const TopologySelectorLabelRequirement = obj({
  key: str().required().desc('The topology label key.'),
  values: list(str()).required().desc('The label values any of which matches.'),
})
  .id('io.k8s.api.core.v1.TopologySelectorLabelRequirement')
  .desc('A topology label and the values that match it.');

export const TopologySelectorTerm = obj({
  matchLabelExpressions: list(TopologySelectorLabelRequirement).desc('Requirements on topology labels, all of which must hold.'),
})
  .atomic()
  .id('io.k8s.api.core.v1.TopologySelectorTerm')
  .desc('A topology domain, by label requirements that must all hold.');

/**
 * A whole PersistentVolume spec, kept as is until core/v1 describes it
 * (its two dozen volume sources belong there); parity defers it to core/v1.
 * TODO(core): replace with core/v1's PersistentVolumeSpec.
 */
export const PersistentVolumeSpec = freeform()
  .id('io.k8s.api.core.v1.PersistentVolumeSpec')
  .desc('The spec of a PersistentVolume.');
