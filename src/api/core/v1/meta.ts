// meta/v1 Condition, the standard condition type that ServiceStatus uses.
// It belongs beside ObjectMeta in src/schema/common.ts; it lives here until
// that module takes it (other groups should import it from this index).
// Protobuf numbers are left out: they are not confirmed against apimachinery.
import { int64, obj, ref, str } from '../../../schema/dsl.js';
import { Time } from '../../../schema/common.js';

export const Condition = obj({
  lastTransitionTime: ref(Time).required().desc('When the condition last changed status.'),
  message: str().required().desc('A human-readable message about the last transition.'),
  observedGeneration: int64().desc('The metadata.generation the condition was set for.'),
  reason: str().required().desc('A programmatic CamelCase reason for the last transition.'),
  status: str().required().desc('True, False or Unknown.'),
  type: str().required().desc('The condition type, in CamelCase or domain-prefixed.'),
})
  .id('io.k8s.apimachinery.pkg.apis.meta.v1.Condition')
  .desc('A condition of an object (meta/v1).');
