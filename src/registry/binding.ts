// pods/binding (kube's BindingREST, pkg/registry/core/pod/storage): a POST of
// a Binding assigns the pod to the Binding's target node. The Binding is
// checked (target.kind Node or empty, target.name set, the URL's name and
// namespace), admitted as a CREATE of pods/binding, and then the pod is
// written straight to storage — no pod strategy, validation or admission,
// as kube's GuaranteedUpdate: spec.nodeName set when it was empty, the
// Binding's annotations copied onto the pod, the PodScheduled condition
// True. The Binding's uid and resourceVersion are preconditions on the pod.
// The answer is a Success Status (code 201, as kube's create handler fills it).
// The legacy POST of the `bindings` collection does the same for the pod the
// Binding names (admitted as a create of `bindings`).
import { errorBody, fieldPath, newBadRequest, newConflict, notSupported, required, type FieldError } from '../api/meta/index.js';
import { type ApiObject, isObject, nowTimestamp } from './object.js';
import type { Registry } from './registry.js';
import type { WriteContext } from './store.js';

const PODS = { group: '', resource: 'pods' };
const BINDING = { group: '', resource: 'pods/binding' };

/** A refusal inside the pod write that kube reports as a Conflict on the given resource. */
class BindRefusal extends Error {
  constructor(readonly on: { group: string; resource: string }, message: string) {
    super(message);
  }
}

/** kube's ValidatePodBinding. */
export function validateBinding(binding: ApiObject): FieldError[] {
  const target = isObject(binding.target) ? binding.target : {};
  const errs: FieldError[] = [];
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind !== '' && kind !== 'Node') errs.push(notSupported(fieldPath('target.kind'), kind, ['Node', '<empty>']));
  if (typeof target.name !== 'string' || target.name === '') errs.push(required(fieldPath('target.name'), ''));
  return errs;
}

/** The PodScheduled condition set True as kube's UpdatePodCondition sets it (the transition time kept when it was True already). */
export function withScheduledCondition(status: Record<string, unknown>, now: string): Record<string, unknown> {
  const conditions = Array.isArray(status.conditions) ? [...status.conditions] as Record<string, unknown>[] : [];
  const i = conditions.findIndex((c) => c.type === 'PodScheduled');
  const old = i >= 0 ? conditions[i] : undefined;
  const next = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : now };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  return { ...status, conditions };
}

/** The pod once bound to `node` (throws BindRefusal when it cannot be). */
export function assignPod(pod: ApiObject, node: string, annotations: Record<string, string>, now: string): ApiObject {
  const name = pod.metadata.name!;
  const spec = isObject(pod.spec) ? pod.spec : {};
  if (pod.metadata.deletionTimestamp) throw new BindRefusal(BINDING, `pod ${name} is being deleted, cannot be assigned to a host`);
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') throw new BindRefusal(BINDING, `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
  if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) throw new BindRefusal(BINDING, `pod ${name} has non-empty .spec.schedulingGates`);
  return {
    ...pod,
    metadata: { ...pod.metadata, annotations: { ...(pod.metadata.annotations ?? {}), ...annotations } },
    spec: { ...spec, nodeName: node },
    status: withScheduledCondition(isObject(pod.status) ? pod.status : {}, now),
  };
}

/** storage.Preconditions.Check's refusal, as InterpretUpdateError reports it (a Conflict on pods). */
function checkPreconditions(pod: ApiObject, namespace: string, uid: string, resourceVersion: string): void {
  const key = `/registry/pods/${namespace}/${pod.metadata.name}`;
  const invalid = (msg: string) => new BindRefusal(PODS, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${msg}`);
  if (uid && uid !== pod.metadata.uid) throw invalid(`Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid ?? ''}`);
  if (resourceVersion && resourceVersion !== pod.metadata.resourceVersion) {
    throw invalid(`Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${pod.metadata.resourceVersion ?? ''}`);
  }
}

/** POST pods/<name>/binding. */
export function createBinding(registry: Registry, namespace: string, name: string, body: ApiObject, ctx: WriteContext): Promise<ApiObject> {
  return bind(registry, namespace, name, body, ctx, 'binding');
}

/** POST the legacy `bindings` collection (kube's LegacyBindingREST): the pod named by the Binding. */
export function createLegacyBinding(registry: Registry, namespace: string, body: ApiObject, ctx: WriteContext): Promise<ApiObject> {
  const name = isObject(body.metadata) && typeof body.metadata.name === 'string' ? body.metadata.name : '';
  return bind(registry, namespace, name, body, ctx, '');
}

async function bind(registry: Registry, namespace: string, name: string, body: ApiObject, ctx: WriteContext, subresource: 'binding' | ''): Promise<ApiObject> {
  const binding: ApiObject = { ...body, metadata: { ...(isObject(body.metadata) ? body.metadata : {}) } };
  const meta = binding.metadata;
  if (meta.namespace && meta.namespace !== namespace) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  meta.namespace = namespace;
  if ((meta.name ?? '') !== name) throw newBadRequest('name in URL does not match name in Binding object');
  const errs = validateBinding(binding);
  // kube returns the aggregate as a plain error (a 500); the same text, as the client's mistake it is.
  if (errs.length > 0) throw newBadRequest(aggregate(errs));
  const pods = registry.store('', 'pods');
  if (name === '') throw newBadRequest('Name parameter required.');
  await pods.admitSubresourceCreate(namespace, name, subresource, 'Binding', binding, ctx, subresource ? 'pods' : 'bindings');
  const target = binding.target as { name: string };
  const annotations = isObject(meta.annotations) ? (meta.annotations as Record<string, string>) : {};
  const now = nowTimestamp();
  try {
    await pods.storageUpdate(namespace, name, (pod) => {
      checkPreconditions(pod, namespace, meta.uid ?? '', meta.resourceVersion ?? '');
      return assignPod(pod, target.name, annotations, now);
    }, { dryRun: ctx.dryRun });
  } catch (err) {
    if (err instanceof BindRefusal) throw newConflict(err.on, name, err.message);
    throw err;
  }
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}

/** A field.ErrorList's ToAggregate().Error(). */
function aggregate(errs: readonly FieldError[]): string {
  const list = errs.map((e) => `${e.field}: ${errorBody(e)}`);
  return list.length === 1 ? list[0]! : `[${list.join(', ')}]`;
}
