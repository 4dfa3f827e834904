// Strategies by resource. Kinds without special rules get the default for
// their scope; what differs (names, generation, status, deletion) is listed here.
import { baseStrategy, type Strategy } from '../strategy.js';
import { validatorFor, type ObjectValidator, type ValidatorRegistry } from '../../api/validation.js';
import { namespaces } from './namespaces.js';
import { pods } from './pods.js';
import { jobs } from './jobs.js';
import { daemonsets } from './daemonsets.js';
import { certificateSigningRequests } from './csrs.js';
import { customResourceDefinitions } from './crds.js';
import { clusterTrustBundleName, dns1035Name, labelName, pathSegmentName, subdomainName } from './names.js';
import { schemaFor } from '../../api/schemas.js';
import { defaulterFor } from '../../api/defaults.js';
import { fillGoStatus } from '../../schema/gozero.js';
import type { Schema } from '../../schema/model.js';
import type { ApiObject } from '../object.js';
import { canonicalGroup } from '../../endpoints/requestinfo.js';
import { convert } from '../../conversion/index.js';

const SPECIAL: Record<string, Strategy> = {
  '/namespaces': namespaces, '/pods': pods, 'batch/jobs': jobs, 'apps/daemonsets': daemonsets,
  'certificates.svc.io/certificatesigningrequests': certificateSigningRequests,
  'apiextensions.svc.io/customresourcedefinitions': customResourceDefinitions,
};

/** metadata.generation is maintained for these (group/resource). */
const GENERATION = new Set([
  'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets', '/replicationcontrollers',
  'batch/jobs', 'batch/cronjobs', 'policy/poddisruptionbudgets',
  'networking.svc.io/ingresses', 'networking.svc.io/networkpolicies', 'apiextensions.svc.io/customresourcedefinitions',
  'admissionregistration.svc.io/validatingwebhookconfigurations', 'admissionregistration.svc.io/mutatingwebhookconfigurations',
  'admissionregistration.svc.io/validatingadmissionpolicies', 'admissionregistration.svc.io/validatingadmissionpolicybindings',
  'flowcontrol.apiserver.svc.io/flowschemas', 'flowcontrol.apiserver.svc.io/prioritylevelconfigurations',
]);

/** DELETE answers with the object rather than a Success Status. */
/** Stores built with ReturnDeletedObject: true in kube (a DELETE answers the object, not a Status). */
const RETURN_DELETED = new Set(['/services', '/serviceaccounts', 'storage.svc.io/storageclasses', 'apiextensions.svc.io/customresourcedefinitions']);

/** PUT on a missing object creates it for these, as in Kubernetes. */
const CREATE_ON_UPDATE = new Set([
  '/services', '/endpoints', '/events', '/limitranges', 'events.svc.io/events', 'coordination.svc.io/leases',
  'discovery.svc.io/endpointslices', 'rbac.authorization.svc.io/roles', 'rbac.authorization.svc.io/clusterroles',
  'rbac.authorization.svc.io/rolebindings', 'rbac.authorization.svc.io/clusterrolebindings',
]);

/**
 * metadata a /status write keeps from the live object, as the kinds' v1.27
 * status strategies reset it (ResetObjectMetaForStatus keeps labels,
 * annotations, finalizers and ownerReferences; deletionTimestamp and
 * generation no update changes anyway).
 */
const RESET_META_FOR_STATUS = ['labels', 'annotations', 'finalizers', 'ownerReferences'];
const STATUS_KEEPS_METADATA: Record<string, readonly string[]> = {
  'apps/deployments': ['labels'],
  '/pods': ['ownerReferences'],
  'apiregistration.svc.io/apiservices': RESET_META_FOR_STATUS,
  'storage.svc.io/volumeattachments': RESET_META_FOR_STATUS,
  'admissionregistration.svc.io/validatingadmissionpolicies': RESET_META_FOR_STATUS,
  'internal.apiserver.svc.io/storageversions': RESET_META_FOR_STATUS,
  'resource.svc.io/resourceclaims': RESET_META_FOR_STATUS,
};

/** Names validated as DNS labels, RFC 1035 labels or path segments instead of DNS subdomains. */
const NAME_RULES: Record<string, typeof subdomainName> = {
  '/services': dns1035Name,
  'rbac.authorization.svc.io/roles': pathSegmentName,
  'rbac.authorization.svc.io/clusterroles': pathSegmentName,
  'rbac.authorization.svc.io/rolebindings': pathSegmentName,
  'rbac.authorization.svc.io/clusterrolebindings': pathSegmentName,
  'apps/statefulsets': labelName,
  'batch/cronjobs': subdomainName,
  'certificates.svc.io/clustertrustbundles': clusterTrustBundleName,
};

/**
 * Kinds with a status subresource whose create keeps the status sent: kube's
 * node strategy lets a kubelet register its node with a status. Every other
 * one resets it (PrepareForCreate: `Status = XStatus{}`, or the kind's own
 * starting status: pods, namespaces).
 */
const KEEPS_STATUS_ON_CREATE = new Set(['/nodes']);

/**
 * Kinds whose status has defaults (phase Pending): kube-apiserver applies
 * them again when it reads the stored object back, so the reset status of a
 * create answers and reads with them. Here they run after the reset.
 */
const STATUS_DEFAULTS = new Set(['/persistentvolumes', '/persistentvolumeclaims']);

/** A resource as its strategy knows it: `version` is the storage version (its schema). */
export interface StrategyKey {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
}

/**
 * The strategy of a resource, with its kind's validation added to the
 * strategy's own: from `validators` (built from the server's flags, such as
 * the node-port range) or else the defaults of src/api/validation.ts. A kind
 * with a status subresource starts a create from the zero status (see
 * withStatusReset).
 */
export function strategyFor(key: StrategyKey, namespaced: boolean, hasStatus = false, validators?: ValidatorRegistry): Strategy {
  const { group, resource, kind } = key;
  let s = baseFor(group, resource, namespaced, hasStatus);
  const schema = s.hasStatus && !KEEPS_STATUS_ON_CREATE.has(`${group}/${resource}`) ? schemaFor(group, key.version, kind) : undefined;
  if (schema) s = withStatusReset(s, schema, STATUS_DEFAULTS.has(`${group}/${resource}`) ? defaulterFor(group, key.version, kind) : undefined);
  const v = withKindValidation(s, validators ? validators.get(group, kind) : validatorFor(group, kind));
  return group === '' && resource === 'events' ? withEventsV1Validation(v, s, validators) : v;
}

/**
 * Core Events are also served as events.svc.io/v1 Events (one store): a write
 * through that group is validated as kube validates it — the events/v1 rules
 * (eventTime required, the deprecated fields unset…) on the object seen in
 * events/v1 (the store validates the stored core/v1 form), an update against
 * the stored Event seen the same way.
 */
function withEventsV1Validation(core: Strategy, base: Strategy, validators?: ValidatorRegistry): Strategy {
  const v1 = validators ? validators.get(EVENTS_V1.group, 'Event') : validatorFor(EVENTS_V1.group, 'Event');
  if (!v1) return core;
  const isV1 = (group: string | undefined) => group !== undefined && canonicalGroup(group) === EVENTS_V1.group;
  const asV1 = (o: ApiObject) => convert(o as unknown as Record<string, unknown>, EVENTS_V1) as unknown as ApiObject;
  return {
    ...core,
    validate: (obj, version, group) => (isV1(group) ? [...base.validate(obj), ...v1.validate(asV1(obj))] : core.validate(obj, version, group)),
    validateUpdate: (obj, old, subresource, version, group) => (isV1(group)
      ? [...base.validateUpdate(obj, old, subresource), ...v1.validateUpdate(asV1(obj), asV1(old), subresource)]
      : core.validateUpdate(obj, old, subresource, version, group)),
  };
}

const EVENTS_V1 = { group: 'events.svc.io', version: 'v1', kind: 'Event' };

/**
 * Kube's PrepareForCreate of a kind with a status subresource: the status
 * sent is dropped (a create starts from the zero status, which the kind's
 * own prepare may replace), the status defaults run again where the kind has
 * them, and the status is written as Go writes it — with its always-written
 * fields (ReplicaSetStatus `{"replicas": 0}`). Only the status is walked.
 * Nothing here reaches managedFields: the status is a reset field of the
 * main resource, never owned through it.
 */
function withStatusReset(s: Strategy, schema: Schema, defaults: ((obj: Record<string, unknown>) => void) | undefined): Strategy {
  const prepare = s.prepareForCreate;
  return {
    ...s,
    prepareForCreate(obj: ApiObject, user) {
      obj.status = {};
      prepare(obj, user);
      defaults?.(obj);
      fillGoStatus(schema, obj);
    },
  };
}

function withKindValidation(s: Strategy, v: ObjectValidator | undefined): Strategy {
  if (!v) return s;
  return {
    ...s,
    validate: (obj) => [...s.validate(obj), ...v.validate(obj)],
    validateUpdate: (obj, old, subresource) => [...s.validateUpdate(obj, old, subresource), ...v.validateUpdate(obj, old, subresource)],
  };
}

function baseFor(group: string, resource: string, namespaced: boolean, hasStatus: boolean): Strategy {
  const key = `${group}/${resource}`;
  const keeps = STATUS_KEEPS_METADATA[key];
  const special = SPECIAL[key];
  if (special) return keeps ? { ...special, statusKeepsMetadata: keeps } : special;
  return baseStrategy({
    namespaced,
    validateName: NAME_RULES[key] ?? subdomainName,
    tracksGeneration: GENERATION.has(key),
    allowCreateOnUpdate: CREATE_ON_UPDATE.has(key),
    hasStatus,
    returnDeletedObject: RETURN_DELETED.has(key),
    ...(keeps ? { statusKeepsMetadata: keeps } : {}),
  });
}
