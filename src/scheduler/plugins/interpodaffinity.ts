// InterPodAffinity: the pod's required podAffinity terms need a matching pod
// in the node's topology domain (a pod matching its own terms may start a
// group); its required podAntiAffinity terms and the existing pods' required
// anti-affinity toward it forbid domains. Preferred terms (both ways, and the
// existing pods' required affinity at weight 1) score the domains,
// normalized min..max to 0..100.
import type { ApiObject } from '../../registry/object.js';
import { isObject } from '../../registry/object.js';
import type { CycleState, Plugin } from '../framework.js';
import { MAX_NODE_SCORE, unresolvable, unschedulable } from '../framework.js';
import type { NodeInfo } from '../nodeinfo.js';
import { spec } from '../pods.js';
import { labelSelector, type PodSelector } from '../spreading.js';

export const ERR_AFFINITY = "node(s) didn't match pod affinity rules";
export const ERR_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const ERR_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

/** Labels of a namespace (undefined when unknown), for namespaceSelector. */
export type NamespaceLabels = (name: string) => Record<string, string> | undefined;

interface Term {
  readonly topologyKey: string;
  readonly selector: PodSelector | undefined;
  readonly namespaces: ReadonlySet<string>;
  readonly namespaceSelector: PodSelector | undefined;
  readonly weight: number;
}

function term(raw: Record<string, unknown>, owner: ApiObject, weight: number): Term {
  const namespaces = Array.isArray(raw.namespaces) ? raw.namespaces.map(String) : [];
  const nsSel = isObject(raw.namespaceSelector) ? labelSelector(raw.namespaceSelector) : undefined;
  return {
    topologyKey: String(raw.topologyKey ?? ''),
    // A nil labelSelector selects nothing; an empty one everything.
    selector: isObject(raw.labelSelector) ? labelSelector(raw.labelSelector) : undefined,
    namespaces: new Set(namespaces.length === 0 && !nsSel ? [owner.metadata.namespace ?? ''] : namespaces),
    namespaceSelector: nsSel,
    weight,
  };
}

function terms(pod: ApiObject, kind: 'podAffinity' | 'podAntiAffinity', which: 'required' | 'preferred'): Term[] {
  const aff = isObject(spec(pod).affinity) ? (spec(pod).affinity as Record<string, unknown>) : {};
  const a = isObject(aff[kind]) ? (aff[kind] as Record<string, unknown>) : {};
  if (which === 'required') {
    const list = a.requiredDuringSchedulingIgnoredDuringExecution;
    return Array.isArray(list) ? list.filter(isObject).map((t) => term(t, pod, 1)) : [];
  }
  const list = a.preferredDuringSchedulingIgnoredDuringExecution;
  return Array.isArray(list) ? list.filter(isObject).filter((w) => isObject(w.podAffinityTerm)).map((w) => term(w.podAffinityTerm as Record<string, unknown>, pod, typeof w.weight === 'number' ? w.weight : 0)) : [];
}

/** A pod's four lists of terms, made once per pod object (kube keeps them in its PodInfo). */
interface PodTerms {
  readonly requiredAffinity: Term[];
  readonly requiredAnti: Term[];
  readonly preferredAffinity: Term[];
  readonly preferredAnti: Term[];
  /** Any of the four. */
  readonly any: boolean;
}

const termsCache = new WeakMap<ApiObject, PodTerms>();

/** The pod's terms; objects from the informers are frozen, so a pod's terms never change under its object. */
function podTerms(pod: ApiObject): PodTerms {
  let t = termsCache.get(pod);
  if (!t) {
    const requiredAffinity = terms(pod, 'podAffinity', 'required');
    const requiredAnti = terms(pod, 'podAntiAffinity', 'required');
    const preferredAffinity = terms(pod, 'podAffinity', 'preferred');
    const preferredAnti = terms(pod, 'podAntiAffinity', 'preferred');
    const any = requiredAffinity.length + requiredAnti.length + preferredAffinity.length + preferredAnti.length > 0;
    t = { requiredAffinity, requiredAnti, preferredAffinity, preferredAnti, any };
    termsCache.set(pod, t);
  }
  return t;
}

function termMatches(t: Term, pod: ApiObject, nsLabels: NamespaceLabels): boolean {
  if (!t.selector) return false;
  const ns = pod.metadata.namespace ?? '';
  const inNamespace = t.namespaces.has(ns) || (t.namespaceSelector !== undefined && t.namespaceSelector.matches(nsLabels(ns) ?? {}));
  return inNamespace && t.selector.matches(pod.metadata.labels ?? {});
}

const pair = (key: string, value: string) => `${key}\u0000${value}`;

function add(m: Map<string, number>, node: NodeInfo, key: string, by: number): void {
  const value = node.node.metadata.labels?.[key];
  if (value === undefined) return;
  m.set(pair(key, value), (m.get(pair(key, value)) ?? 0) + by);
}

interface FilterState {
  readonly affinity: Term[];
  readonly antiAffinity: Term[];
  readonly affinityCounts: Map<string, number>;
  readonly antiAffinityCounts: Map<string, number>;
  readonly existingAntiAffinityCounts: Map<string, number>;
}

const FILTER_KEY = 'InterPodAffinity/filter';
const SCORE_KEY = 'InterPodAffinity/score';

export function interPodAffinity(args: { readonly hardPodAffinityWeight?: number }, nsLabels: NamespaceLabels): Plugin {
  const hardWeight = args.hardPodAffinityWeight ?? 1;
  return {
    name: 'InterPodAffinity',
    preFilter(state: CycleState, pod) {
      const own = podTerms(pod);
      const s: FilterState = {
        affinity: own.requiredAffinity, antiAffinity: own.requiredAnti,
        affinityCounts: new Map(), antiAffinityCounts: new Map(), existingAntiAffinityCounts: new Map(),
      };
      const ownRequired = s.affinity.length > 0 || s.antiAffinity.length > 0;
      for (const node of state.snapshot.nodes) {
        if (!ownRequired && node.podsWithAffinity === 0) continue;
        for (const { pod: existing } of node.pods.values()) {
          const theirs = podTerms(existing);
          for (const t of theirs.requiredAnti) if (termMatches(t, pod, nsLabels)) add(s.existingAntiAffinityCounts, node, t.topologyKey, 1);
          if (!ownRequired) continue;
          for (const t of s.affinity) if (termMatches(t, existing, nsLabels)) add(s.affinityCounts, node, t.topologyKey, 1);
          for (const t of s.antiAffinity) if (termMatches(t, existing, nsLabels)) add(s.antiAffinityCounts, node, t.topologyKey, 1);
        }
      }
      // nothing to check on any node: kube's PreFilter answers Skip
      if (ownRequired || s.existingAntiAffinityCounts.size > 0) state.write(FILTER_KEY, s);
      return undefined;
    },
    filter(state, pod, node) {
      const s = state.read<FilterState>(FILTER_KEY);
      if (!s) return undefined;
      const labels = node.node.metadata.labels ?? {};
      let podsExist = true;
      for (const t of s.affinity) {
        const v = labels[t.topologyKey];
        if (v === undefined) return unresolvable(ERR_AFFINITY);
        if ((s.affinityCounts.get(pair(t.topologyKey, v)) ?? 0) <= 0) podsExist = false;
      }
      if (!podsExist && !(s.affinityCounts.size === 0 && s.affinity.every((t) => termMatches(t, pod, nsLabels)))) return unresolvable(ERR_AFFINITY);
      for (const t of s.antiAffinity) {
        const v = labels[t.topologyKey];
        if (v !== undefined && (s.antiAffinityCounts.get(pair(t.topologyKey, v)) ?? 0) > 0) return unschedulable(ERR_ANTI_AFFINITY);
      }
      if (s.existingAntiAffinityCounts.size > 0) {
        for (const [k, v] of Object.entries(labels)) if ((s.existingAntiAffinityCounts.get(pair(k, v)) ?? 0) > 0) return unschedulable(ERR_EXISTING_ANTI_AFFINITY);
      }
      return undefined;
    },
    preScore(state, pod) {
      const own = podTerms(pod);
      const scores = new Map<string, number>();
      const ownPreferred = own.preferredAffinity.length > 0 || own.preferredAnti.length > 0;
      for (const node of state.snapshot.nodes) {
        if (!ownPreferred && node.podsWithAffinity === 0) continue;
        for (const { pod: existing } of node.pods.values()) {
          const theirs = podTerms(existing);
          if (!theirs.any && own.preferredAffinity.length === 0 && own.preferredAnti.length === 0) continue;
          for (const t of own.preferredAffinity) if (termMatches(t, existing, nsLabels)) add(scores, node, t.topologyKey, t.weight);
          for (const t of own.preferredAnti) if (termMatches(t, existing, nsLabels)) add(scores, node, t.topologyKey, -t.weight);
          if (!theirs.any) continue;
          if (hardWeight > 0) for (const t of theirs.requiredAffinity) if (termMatches(t, pod, nsLabels)) add(scores, node, t.topologyKey, hardWeight);
          for (const t of theirs.preferredAffinity) if (termMatches(t, pod, nsLabels)) add(scores, node, t.topologyKey, t.weight);
          for (const t of theirs.preferredAnti) if (termMatches(t, pod, nsLabels)) add(scores, node, t.topologyKey, -t.weight);
        }
      }
      state.write(SCORE_KEY, scores);
    },
    score(state, _pod, node) {
      const scores = state.read<Map<string, number>>(SCORE_KEY);
      if (!scores || scores.size === 0) return 0;
      let total = 0;
      for (const [k, v] of Object.entries(node.node.metadata.labels ?? {})) total += scores.get(pair(k, v)) ?? 0;
      return total;
    },
    normalizeScore(_state, _pod, scores) {
      let min = Infinity;
      let max = -Infinity;
      for (const v of scores.values()) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
      for (const [k, v] of scores) scores.set(k, max - min > 0 ? Math.trunc(MAX_NODE_SCORE * ((v - min) / (max - min))) : 0);
    },
  };
}
