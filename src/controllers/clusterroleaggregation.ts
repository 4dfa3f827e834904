// The ClusterRole aggregation controller (kube's
// pkg/controller/clusterroleaggregation): a ClusterRole with an
// aggregationRule gets as rules the union of the rules of every other
// ClusterRole its selectors match — per selector, the matching roles in name
// order, each rule appended unless an equal one is already there. Any
// ClusterRole change requeues every aggregated role (kube does the same:
// cheaper than working out which selectors the change affects). Only .rules
// is written, as an update by the field manager kube's controller uses, as
// its service account (clusterrole-aggregation-controller in svc-system):
// authorized like any client, and allowed to grant what it does not hold only
// through the `escalate` verb its bootstrap role gives it.
import type { Store } from '../storage/interface.js';
import type { Registry } from '../registry/registry.js';
import type { ApiObject } from '../registry/object.js';
import { schemaFor } from '../api/schemas.js';
import { trackWrite } from '../endpoints/fieldmanager.js';
import { selectorMatches } from '../api/meta/checks.js';
import { WorkQueue } from './workqueue.js';
import { RBAC_GROUP } from '../api/rbac/v1/validation.js';
import { Informer, isReason } from './informer.js';
import { StartWhenAuthorized, type ControllerClient } from './client.js';

const GROUP = RBAC_GROUP;
export const AGGREGATION_MANAGER = 'clusterrole-aggregation-controller';

const selectorsOf = (role: ApiObject): unknown[] | undefined => {
  const rule = role.aggregationRule as { clusterRoleSelectors?: unknown[] | null } | null | undefined;
  if (!rule || typeof rule !== 'object') return undefined;
  return rule.clusterRoleSelectors ?? [];
};
const rulesOf = (role: ApiObject): unknown[] => (Array.isArray(role.rules) ? role.rules : []);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The rules an aggregated role should have, given every ClusterRole (kube's syncClusterRole). */
export function aggregatedRules(role: ApiObject, all: Iterable<ApiObject>): unknown[] {
  const roles = [...all].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
  const rules: unknown[] = [];
  for (const selector of selectorsOf(role) ?? []) {
    for (const other of roles) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!selectorMatches(selector, other.metadata.labels ?? {})) continue;
      for (const r of rulesOf(other)) if (!rules.some((have) => same(have, r))) rules.push(r);
    }
  }
  return rules;
}

const CLUSTERROLES = { group: GROUP, version: 'v1', resource: 'clusterroles' };

export class ClusterRoleAggregationController {
  private readonly queue: WorkQueue<string>;
  private readonly informer: Informer;
  /** Every ClusterRole as last seen (kube's lister). */
  private readonly roles = new Map<string, ApiObject>();
  private readonly starter: StartWhenAuthorized;

  constructor(registry: Registry, storage: Store, private readonly client: ControllerClient, opts: { retryMs?: number } = {}) {
    this.queue = new WorkQueue((name) => this.sync(name), {
      retryMs: opts.retryMs ?? 1000,
      onError: (name, err) => console.error(`clusterrole-aggregation controller: ${name} failed; will retry`, err),
    });
    this.informer = new Informer(registry, storage, { group: GROUP, resource: 'clusterroles' }, {
      onObject: (o) => {
        this.roles.set(o.metadata.name!, o);
        this.enqueueAggregated();
      },
      onDelete: (o) => {
        this.roles.delete(o.metadata.name!);
        this.enqueueAggregated();
      },
    }, 'clusterrole-aggregation controller');
    this.starter = new StartWhenAuthorized(client, CLUSTERROLES, 'clusterrole-aggregation controller', () => this.informer.start());
  }

  /** Starts watching once the controller may list and watch ClusterRoles (StartWhenAuthorized). */
  start(): Promise<void> {
    return this.starter.start();
  }

  stop(): void {
    this.starter.stop();
    this.queue.stop();
    this.informer.stop();
  }

  private enqueueAggregated(): void {
    for (const [name, role] of this.roles) if (selectorsOf(role)) this.queue.add(name, name);
  }

  private async sync(name: string): Promise<boolean> {
    const role = this.roles.get(name);
    if (!role || !selectorsOf(role)) return true;
    const want = aggregatedRules(role, this.roles.values());
    if (same(rulesOf(role), want)) return true;
    const schema = schemaFor(GROUP, 'v1', 'ClusterRole');
    const track = (live: ApiObject | undefined, next: ApiObject) =>
      trackWrite({ manager: AGGREGATION_MANAGER, apiVersion: `${GROUP}/v1`, kind: 'ClusterRole', schema }, live, next);
    try {
      await this.client.update(CLUSTERROLES, '', name, (cur) => {
        if (!selectorsOf(cur)) return cur;
        // computed again from the latest of every role: the informer may lag the stored object
        return { ...cur, rules: aggregatedRules(cur, this.roles.values()) };
      }, { track });
    } catch (err) {
      if (isReason(err, 'NotFound')) return true;
      throw err;
    }
    return true;
  }
}
