// Which services a pod change concerns (kube's GetPodServiceMemberships and
// GetServicesToUpdateOnPodChange): the services of the pod's namespace whose
// selector matches its labels, before and after the change.
import type { SharedInformer } from '../shared.js';
import { podChangeMatters, selectorOf, selects } from './pods.js';
import type { Pod, Service } from './types.js';

export function servicesSelecting(services: SharedInformer, pod: Pod): string[] {
  const ns = pod.metadata.namespace!;
  const keys: string[] = [];
  for (const svc of services.list(ns) as Service[]) {
    const sel = selectorOf(svc);
    if (sel && selects(sel, pod.metadata.labels)) keys.push(`${ns}/${svc.metadata.name}`);
  }
  return keys;
}

export function servicesOnPodChange(services: SharedInformer, old: Pod, cur: Pod): string[] {
  if (!podChangeMatters(old, cur)) return [];
  return [...new Set([...servicesSelecting(services, old), ...servicesSelecting(services, cur)])];
}

/** namespace/name of a key. */
export function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

/** Go's aggregate error text: one error as it is, several in brackets. */
export function aggregate(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

/** The handlers both pod-driven controllers add: a service's own changes, and the pods' changes to the services selecting them. */
export function enqueueServicesAndPods(services: SharedInformer, pods: SharedInformer, enqueue: (key: string) => void): void {
  const keyOf = (o: { metadata: { namespace?: string; name?: string } }) => `${o.metadata.namespace}/${o.metadata.name}`;
  services.addHandler({ onAdd: (s) => enqueue(keyOf(s)), onUpdate: (_, s) => enqueue(keyOf(s)), onDelete: (s) => enqueue(keyOf(s)) });
  pods.addHandler({
    onAdd: (p) => servicesSelecting(services, p as Pod).forEach(enqueue),
    onUpdate: (o, p) => servicesOnPodChange(services, o as Pod, p as Pod).forEach(enqueue),
    onDelete: (p) => servicesSelecting(services, p as Pod).forEach(enqueue),
  });
}
