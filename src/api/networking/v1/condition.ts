// meta/v1 Condition, the standard status condition, used by NetworkPolicy
// status here and by other groups' statuses.
// TODO(schema): move to src/schema/common.ts beside the other meta/v1 pieces.
import { int64, obj, ref, str, Time } from '../../../schema/index.js';

export const Condition = obj({
  type: str().required().desc('The kind of condition, in CamelCase.'),
  status: str().required().desc('True, False or Unknown.'),
  observedGeneration: int64().desc('The metadata.generation the condition was computed from.'),
  lastTransitionTime: ref(Time).required().desc('When the status last changed.'),
  reason: str().required().desc('A CamelCase, machine-readable cause of the last transition.'),
  message: str().required().desc('A human-readable explanation of the last transition; may be empty.'),
})
  .id('io.k8s.apimachinery.pkg.apis.meta.v1.Condition')
  .desc('One aspect of an object\'s current state.');
