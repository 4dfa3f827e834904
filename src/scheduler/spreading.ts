// What spreading knows of a pod beyond its own spec (kube's
// helper.DefaultSelector): the label selector of the Services selecting it,
// merged with its controller's (ReplicationController, ReplicaSet,
// StatefulSet) — the pods a default spread constraint counts as its peers.
import type { ApiObject } from '../registry/object.js';
import { isObject } from '../registry/object.js';
import { selectorMatches } from '../api/meta/checks.js';

/** A label matcher; `empty` when it selects nothing to spread against. */
export interface PodSelector {
  readonly empty: boolean;
  matches(labels: Record<string, string>): boolean;
}

export interface SpreadSelectors {
  /** The default selector of the pod; empty when no service or controller selects it. */
  defaultSelector(pod: ApiObject): PodSelector;
}

/** Where the objects come from (shared informers' listers). */
export interface SelectorSources {
  services(namespace: string): readonly ApiObject[];
  get(kind: 'ReplicationController' | 'ReplicaSet' | 'StatefulSet', namespace: string, name: string): ApiObject | undefined;
}

/** A metav1.LabelSelector as a matcher (empty when it has no requirements). */
export function labelSelector(sel: unknown): PodSelector {
  const s = isObject(sel) ? sel : {};
  const empty = Object.keys(isObject(s.matchLabels) ? s.matchLabels : {}).length === 0 && !(Array.isArray(s.matchExpressions) && s.matchExpressions.length > 0);
  return { empty, matches: (labels) => selectorMatches(s, labels) };
}

const MATCH_NOTHING: PodSelector = { empty: true, matches: () => false };

export function spreadSelectors(src: SelectorSources): SpreadSelectors {
  return {
    defaultSelector(pod) {
      const ns = pod.metadata.namespace ?? '';
      const labels = pod.metadata.labels ?? {};
      const matchLabels: Record<string, string> = {};
      for (const svc of src.services(ns)) {
        const sel = isObject(svc.spec) && isObject(svc.spec.selector) ? (svc.spec.selector as Record<string, string>) : {};
        if (Object.keys(sel).length === 0) continue;
        if (Object.entries(sel).every(([k, v]) => labels[k] === v)) Object.assign(matchLabels, sel);
      }
      const parts: unknown[] = [{ matchLabels }];
      const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller === true);
      if (owner) {
        const group = owner.apiVersion.includes('/') ? owner.apiVersion.split('/')[0] : '';
        if (owner.kind === 'ReplicationController' && group === '') {
          const rc = src.get('ReplicationController', ns, owner.name);
          const sel = rc && isObject(rc.spec) && isObject(rc.spec.selector) ? rc.spec.selector : undefined;
          if (sel) Object.assign(matchLabels, sel);
        } else if ((owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet') && group === 'apps') {
          const ctl = src.get(owner.kind, ns, owner.name);
          if (ctl && isObject(ctl.spec) && isObject(ctl.spec.selector)) parts.push(ctl.spec.selector);
        }
      }
      const selectors = parts.map(labelSelector);
      if (selectors.every((s) => s.empty)) return MATCH_NOTHING;
      return { empty: false, matches: (l) => selectors.every((s) => s.matches(l)) };
    },
  };
}

/** No services or controllers (tests). */
export const NO_SELECTORS: SpreadSelectors = { defaultSelector: () => MATCH_NOTHING };
