// The API Priority and Fairness configuration every server starts with
// (kube v1.27's bootstrap/default.go, v1beta3): the mandatory priority levels
// and flow schemas (exempt, catch-all) that are always restored, and the
// suggested ones an operator may take over. kube's identities are spelled as
// the RBAC bootstrap spells them here (system:svc-controller-manager,
// system:svc-scheduler, the svc-system namespace), and the three schemas named
// after them follow (svc-controller-manager, svc-scheduler,
// svc-system-service-accounts).
import type { ApiObject } from '../registry/object.js';
import { AUTHENTICATED, MASTERS, UNAUTHENTICATED } from '../authn/user.js';
import { CONTROLLER_MANAGER_USER, CONTROLLER_NAMESPACE } from '../controllers/client.js';
import { SCHEDULER_USER } from '../scheduler/scheduler.js';

export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.svc.io';
export const FLOWCONTROL_API_VERSION = `${FLOWCONTROL_GROUP}/v1beta3`;
/** kube's key first (what kubectl users know), then ours; the server writes both, a "false" in either protects. */
export const AUTOUPDATE_ANNOTATIONS = ['apf.kubernetes.io/autoupdate-spec', 'apf.svc.io/autoupdate-spec'] as const;

const SYSTEM_NAMESPACE = CONTROLLER_NAMESPACE;
const CONTROLLER_MANAGER = CONTROLLER_MANAGER_USER.name;
const SCHEDULER = SCHEDULER_USER.name;
const NODES = 'system:nodes';
const SERVICE_ACCOUNTS = 'system:serviceaccounts';
const COORDINATION = 'coordination.svc.io';

type Subject = Record<string, unknown>;
type Rule = Record<string, unknown>;

const annotations = () => Object.fromEntries(AUTOUPDATE_ANNOTATIONS.map((k) => [k, 'true']));
const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const systemServiceAccounts = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: SYSTEM_NAMESPACE, name } }));
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): Rule =>
  ({ verbs, apiGroups, resources, clusterScope, namespaces });
const ALL_RESOURCES = [resourceRule(['*'], ['*'], ['*'], ['*'], true)];
const ALL_NON_RESOURCES = [{ verbs: ['*'], nonResourceURLs: ['*'] }];

function flowSchema(name: string, pl: string, precedence: number, distinguisher: 'ByUser' | 'ByNamespace' | '', rule: Record<string, unknown>): ApiObject {
  return {
    apiVersion: FLOWCONTROL_API_VERSION, kind: 'FlowSchema', metadata: { name, annotations: annotations() },
    spec: {
      priorityLevelConfiguration: { name: pl }, matchingPrecedence: precedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}), rules: [rule],
    },
  } as ApiObject;
}

/** A schema matching every request of the subjects. */
const allOf = (name: string, pl: string, precedence: number, distinguisher: 'ByUser' | 'ByNamespace' | '', subjects: Subject[]) =>
  flowSchema(name, pl, precedence, distinguisher, { subjects, resourceRules: ALL_RESOURCES, nonResourceRules: ALL_NON_RESOURCES });

function limited(name: string, shares: number, lendablePercent: number, queuing?: { queues: number; handSize: number; queueLengthLimit: number }): ApiObject {
  return {
    apiVersion: FLOWCONTROL_API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name, annotations: annotations() },
    spec: {
      type: 'Limited',
      limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: queuing ? { type: 'Queue', queuing } : { type: 'Reject' } },
    },
  } as ApiObject;
}
const queuing = (queues: number, handSize: number, queueLengthLimit: number) => ({ queues, handSize, queueLengthLimit });

export const MANDATORY_PRIORITY_LEVELS: readonly ApiObject[] = [
  limited('catch-all', 5, 0),
  { apiVersion: FLOWCONTROL_API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name: 'exempt', annotations: annotations() }, spec: { type: 'Exempt' } } as ApiObject,
];

export const MANDATORY_FLOW_SCHEMAS: readonly ApiObject[] = [
  allOf('exempt', 'exempt', 1, '', groups(MASTERS)),
  allOf('catch-all', 'catch-all', 10000, 'ByUser', groups(UNAUTHENTICATED, AUTHENTICATED)),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly ApiObject[] = [
  limited('system', 30, 33, queuing(64, 6, 50)),
  limited('node-high', 40, 25, queuing(64, 6, 50)),
  limited('leader-election', 10, 0, queuing(16, 4, 50)),
  limited('workload-high', 40, 50, queuing(128, 6, 50)),
  limited('workload-low', 100, 90, queuing(128, 6, 50)),
  limited('global-default', 20, 50, queuing(128, 6, 50)),
];

const getCreateUpdate = ['get', 'create', 'update'];

export const SUGGESTED_FLOW_SCHEMAS: readonly ApiObject[] = [
  allOf('system-nodes', 'system', 500, 'ByUser', groups(NODES)),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups(NODES),
    resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], ['*'], true), resourceRule(['*'], [COORDINATION], ['leases'], ['*'], false)],
  }),
  flowSchema('probes', 'exempt', 2, '', {
    subjects: groups(UNAUTHENTICATED, AUTHENTICATED),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(CONTROLLER_MANAGER, SCHEDULER), ...systemServiceAccounts('*')],
    resourceRules: [resourceRule(getCreateUpdate, [COORDINATION], ['leases'], ['*'], false)],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: systemServiceAccounts('*'),
    resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints', 'configmaps'], ['*'], false), resourceRule(getCreateUpdate, [COORDINATION], ['leases'], ['*'], false)],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [...users(CONTROLLER_MANAGER), ...systemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
    resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints'], ['*'], false)],
  }),
  allOf('svc-controller-manager', 'workload-high', 800, 'ByNamespace', users(CONTROLLER_MANAGER)),
  allOf('svc-scheduler', 'workload-high', 800, 'ByNamespace', users(SCHEDULER)),
  allOf('svc-system-service-accounts', 'workload-high', 900, 'ByNamespace', systemServiceAccounts('*')),
  allOf('service-accounts', 'workload-low', 9000, 'ByUser', groups(SERVICE_ACCOUNTS)),
  allOf('global-default', 'global-default', 9900, 'ByUser', groups(UNAUTHENTICATED, AUTHENTICATED)),
];

/** The names of the mandatory objects (the config controller adds them in memory while they are missing). */
export const MANDATORY_NAMES = { exempt: 'exempt', catchAll: 'catch-all' } as const;
