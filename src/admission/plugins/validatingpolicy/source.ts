// Where the plugin finds policies and bindings: both lists read through the
// stores' shared lists (the watch cache, kube's informers) on every request,
// so a change applies to the next request; a policy is compiled once per
// stored version (uid + resourceVersion), and the pairing of policies with
// their bindings is redone only when either list changed. Policies in name
// order, each with its bindings in name order (kube walks maps: any order).
import type { ApiObject } from '../../../registry/object.js';
import type { AdmissionCelEngine } from '../../matchconditions/engine.js';
import { matchResourcesOf, type MatchResources } from './matching.js';
import { compilePolicy, type CompiledPolicy } from './policy.js';

export type Lister = () => Promise<readonly ApiObject[]>;

export interface Binding {
  readonly name: string;
  readonly policyName: string;
  /** Absent: every request the policy matches. */
  readonly matchResources: MatchResources | undefined;
  readonly paramRef: { readonly name: string; readonly namespace: string } | undefined;
  readonly validationActions: readonly string[];
}

export interface PolicyEntry {
  readonly policy: CompiledPolicy;
  readonly bindings: readonly Binding[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function bindingOf(o: ApiObject): Binding {
  const spec = obj((o as unknown as Obj).spec);
  const ref = spec.paramRef !== undefined && spec.paramRef !== null ? obj(spec.paramRef) : undefined;
  return {
    name: o.metadata.name ?? '',
    policyName: str(spec.policyName),
    matchResources: spec.matchResources !== undefined && spec.matchResources !== null ? matchResourcesOf(spec.matchResources) : undefined,
    paramRef: ref ? { name: str(ref.name), namespace: str(ref.namespace) } : undefined,
    validationActions: (Array.isArray(spec.validationActions) ? spec.validationActions : []).filter((x): x is string => typeof x === 'string'),
  };
}

export class PolicySource {
  private compiled = new Map<string, { version: string; policy: CompiledPolicy }>();
  private seenPolicies: readonly ApiObject[] = [];
  private seenBindings: readonly ApiObject[] = [];
  private entries: readonly PolicyEntry[] = [];

  constructor(private readonly policies: Lister, private readonly bindings: Lister, private readonly engine: AdmissionCelEngine) {}

  async load(): Promise<readonly PolicyEntry[]> {
    const [policies, bindings] = await Promise.all([this.policies(), this.bindings()]);
    if (policies === this.seenPolicies && bindings === this.seenBindings) return this.entries;
    if (sameItems(policies, this.seenPolicies) && sameItems(bindings, this.seenBindings)) return this.entries;
    const next = new Map<string, { version: string; policy: CompiledPolicy }>();
    const compiled = policies.map((p) => {
      const uid = p.metadata.uid ?? p.metadata.name ?? '';
      const version = p.metadata.resourceVersion ?? '';
      let c = this.compiled.get(uid);
      if (!c || c.version !== version) c = { version, policy: compilePolicy(this.engine, p as unknown as Obj) };
      next.set(uid, c);
      return c.policy;
    });
    const byPolicy = new Map<string, Binding[]>();
    for (const b of bindings.map(bindingOf)) {
      const list = byPolicy.get(b.policyName);
      if (list) list.push(b);
      else byPolicy.set(b.policyName, [b]);
    }
    this.entries = compiled.sort(byName).map((policy) => ({ policy, bindings: (byPolicy.get(policy.name) ?? []).sort(byName) }));
    this.compiled = next;
    this.seenPolicies = policies;
    this.seenBindings = bindings;
    return this.entries;
  }
}

function sameItems(a: readonly ApiObject[], b: readonly ApiObject[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
