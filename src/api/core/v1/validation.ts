// Per-kind validation of core/v1 beyond the schema, with kube-apiserver
// v1.27's field paths and messages (pkg/apis/core/validation). Objects arrive
// decoded and defaulted; ObjectMeta basics are the store's (api/meta). Every
// function is pure and returns the causes in Kubernetes' order; Go map
// iteration is replaced by sorted keys so the order is stable.
//
// This file holds the registry entries (kind → validator); the validators live
// in validation/, one file per concept: podspec (the pod spec, shared by every
// workload template), pod, configmap-secret, service, namespace-node, event,
// common.
import { type FieldError, FieldPath } from '../../meta/field.js';
import { type Obj, obj } from '../../meta/checks.js';
import { resourceQuotaValidator } from './resourcequota.js';
import { validateLimitRange } from './limitrange.js';
import { DEFAULT_NODE_PORT_RANGE, type ServiceValidationOptions, validateService, validateServiceUpdate } from './validation/service.js';
import { validateConfigMap, validateConfigMapUpdate, validateSecret, validateSecretUpdate } from './validation/configmap-secret.js';
import { validateEvent, validateEventUpdate } from './validation/event.js';
import { validateNamespace, validateNode, validateNodeUpdate } from './validation/namespace-node.js';
import { validatePod, validatePodTemplate, validatePodUpdate } from './validation/pod.js';
export interface KindValidator {
  validate(obj: Obj): FieldError[];
  /** `subresource`: the one the update came through ('status', 'approval' …), undefined for the main resource. */
  validateUpdate(obj: Obj, old: Obj, subresource?: string): FieldError[];
}
export interface CoreValidationOptions {
  readonly service?: ServiceValidationOptions;
}
export function coreValidators(opts: CoreValidationOptions = {}): Record<string, KindValidator> {
  const svc = opts.service ?? { nodePortRange: DEFAULT_NODE_PORT_RANGE };
  return {
    // pods/status: kube's ValidatePodStatusUpdate leaves the spec alone (the status strategy keeps the stored one)
    Pod: { validate: validatePod, validateUpdate: (o, old, subresource) => (subresource === 'status' ? [] : validatePodUpdate(o, old)) },
    PodTemplate: { validate: validatePodTemplate, validateUpdate: (o) => validatePodTemplate(o) },
    ConfigMap: { validate: validateConfigMap, validateUpdate: validateConfigMapUpdate },
    Secret: { validate: validateSecret, validateUpdate: validateSecretUpdate },
    Service: { validate: (o) => validateService(o, svc), validateUpdate: (o, old) => validateServiceUpdate(o, old, svc) },
    Namespace: { validate: validateNamespace, validateUpdate: () => [] },
    Node: { validate: validateNode, validateUpdate: validateNodeUpdate },
    Event: { validate: validateEvent, validateUpdate: (o) => validateEventUpdate(o) },
    ResourceQuota: resourceQuotaValidator,
    LimitRange: { validate: validateLimitRange, validateUpdate: (o) => validateLimitRange(o) },
  };
}

export { FieldPath };
// the validators, for the other groups' validation and the admission plugins
export { validateResources, validateTolerations, validatePodSpec, validatePodTemplateSpec } from './validation/podspec.js';
export { validatePod, POD_UPDATABLE_FIELDS, POD_UPDATE_FORBIDDEN, validatePodUpdate, validatePodTemplate } from './validation/pod.js';
export { MAX_SECRET_SIZE, validateConfigMap, validateConfigMapUpdate, validateSecret, validateSecretUpdate } from './validation/configmap-secret.js';
export { DEFAULT_NODE_PORT_RANGE, validateService, validateServiceUpdate } from './validation/service.js';
export type { ServiceValidationOptions } from './validation/service.js';
export { validateNamespace, validateTaints, validateNode, validateNodeUpdate } from './validation/namespace-node.js';
export { EVENT_LIMITS, coreEventToInternal, legacyValidateEvent, validateEvent, validateEventUpdate } from './validation/event.js';
export type { InternalEvent } from './validation/event.js';
