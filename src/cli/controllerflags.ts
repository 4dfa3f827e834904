// The flags of what `svc server` runs beside the API server, as
// kube-controller-manager v1.27 and kube-scheduler take them: --controllers
// (kube's selection syntax and help; an unknown name fails with kube's
// message), --leader-elect and its three durations (client-go's checks),
// --concurrent-*-syncs (kube's names and defaults), --scheduler-config and
// --simulated-nodes.
import { FlagError, type FlagSpec, type FlagValue } from './flags.js';
import { DEFAULT_GATES, type FeatureGates } from '../features/gates.js';
import { controllersFlagHelp, controllerTable, selectControllers, type ControlPlaneOptions } from '../controllers/manager.js';
import { LEADER_ELECTION_DEFAULTS, validateTiming } from '../controllers/leaderelection/config.js';
import type { ControllerSettings } from '../controllers/context.js';

/** --concurrent-<flag>-syncs → the controller name its value is for, kube's default. */
const CONCURRENT_SYNCS: readonly (readonly [flag: string, controller: string, fallback: number, what: string])[] = [
  ['daemonset', 'daemonset', 2, 'daemonset objects'],
  ['deployment', 'deployment', 5, 'deployment objects'],
  ['gc', 'garbagecollector', 20, 'garbage collector workers'],
  ['namespace', 'namespace', 10, 'namespace objects'],
  ['replicaset', 'replicaset', 5, 'replica sets'],
  ['resource-quota', 'resourcequota', 5, 'resource quotas'],
  ['serviceaccount-token', 'serviceaccount-token', 5, 'service account token objects'],
  ['statefulset', 'statefulset', 5, 'statefulset objects'],
  ['ttl-after-finished', 'ttl-after-finished', 5, 'ttl-after-finished-controller workers'],
];

const LE_NOTE = 'This is only applicable if leader election is enabled.';

export const CONTROLLER_FLAGS: FlagSpec[] = [
  { name: 'controllers', type: 'strings', default: ['*'], help: controllersFlagHelp(controllerTable(DEFAULT_GATES)) },
  {
    name: 'leader-elect', type: 'bool', default: LEADER_ELECTION_DEFAULTS.leaderElect,
    help: 'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
  },
  {
    name: 'leader-elect-lease-duration', type: 'duration', default: LEADER_ELECTION_DEFAULTS.leaseDurationMs,
    help: 'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. ' +
      `This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate. ${LE_NOTE}`,
  },
  {
    name: 'leader-elect-renew-deadline', type: 'duration', default: LEADER_ELECTION_DEFAULTS.renewDeadlineMs,
    help: `The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than the lease duration. ${LE_NOTE}`,
  },
  {
    name: 'leader-elect-retry-period', type: 'duration', default: LEADER_ELECTION_DEFAULTS.retryPeriodMs,
    help: `The duration the clients should wait between attempting acquisition and renewal of a leadership. ${LE_NOTE}`,
  },
  ...CONCURRENT_SYNCS.map(([flag, , fallback, what]): FlagSpec => ({
    name: `concurrent-${flag}-syncs`, type: 'int', default: fallback,
    help: `The number of ${what} that are allowed to sync concurrently. Larger number = more responsive, but more CPU (and network) load.`,
  })),
  { name: 'node-monitor-period', type: 'duration', default: 5_000, help: 'The period for syncing NodeStatus in NodeController.' },
  {
    name: 'node-monitor-grace-period', type: 'duration', default: 40_000,
    help: "Amount of time which we allow running Node to be unresponsive before marking it unhealthy. Must be N times more than kubelet's nodeStatusUpdateFrequency, where N means number of retries allowed for kubelet to post node status.",
  },
  { name: 'node-startup-grace-period', type: 'duration', default: 60_000, help: 'Amount of time which we allow starting Node to be unresponsive before marking it unhealthy.' },
  {
    name: 'node-eviction-rate', type: 'string', default: '0.1',
    help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters.',
  },
  {
    name: 'secondary-node-eviction-rate', type: 'string', default: '0.01',
    help: 'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy (see --unhealthy-zone-threshold for definition of healthy/unhealthy). Zone refers to entire cluster in non-multizone clusters. This value is implicitly overridden to 0 if the cluster size is smaller than --large-cluster-size-threshold.',
  },
  { name: 'unhealthy-zone-threshold', type: 'string', default: '0.55', help: 'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy.' },
  {
    name: 'large-cluster-size-threshold', type: 'int', default: 50,
    help: 'Number of nodes from which node-lifecycle-controller treats the cluster as large for the eviction logic purposes. --secondary-node-eviction-rate is implicitly overridden to 0 for clusters this size or smaller.',
  },
  {
    name: 'terminated-pod-gc-threshold', type: 'int', default: 12_500,
    help: 'Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled.',
  },
  { name: 'scheduler-config', type: 'string', help: 'The path to the scheduler\'s configuration file (KubeSchedulerConfiguration).' },
  { name: 'simulated-nodes', type: 'int', default: 0, help: 'How many simulated nodes (kubelets that run no containers) join the cluster.' },
];

export type ControllerFlagOptions = ControlPlaneOptions & { readonly concurrentSyncs: Readonly<Record<string, number>>; readonly settings: ControllerSettings };

/** A float flag (kube's float32 flags), with pflag's message for what does not parse. */
function float(v: Map<string, FlagValue>, name: string): number {
  const raw = String(v.get(name));
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) throw new FlagError(`invalid argument ${JSON.stringify(raw)} for "--${name}" flag: strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
  return n;
}

/** The controller manager's options from the flags; an unknown controller or bad timing is an error with kube's message. */
export function controllerOptions(v: Map<string, FlagValue>, gates: FeatureGates): ControllerFlagOptions {
  const controllers = ((v.get('controllers') as string[] | undefined) ?? ['*']).map((s) => s.trim()).filter((s) => s !== '');
  selectControllers(controllers, controllerTable(gates)); // throws kube's "… is not in the list of known controllers"
  const leaderElection = {
    leaderElect: v.get('leader-elect') as boolean,
    leaseDurationMs: v.get('leader-elect-lease-duration') as number,
    renewDeadlineMs: v.get('leader-elect-renew-deadline') as number,
    retryPeriodMs: v.get('leader-elect-retry-period') as number,
  };
  if (leaderElection.leaderElect) validateTiming(leaderElection);
  const concurrentSyncs: Record<string, number> = {};
  for (const [flag, controller] of CONCURRENT_SYNCS) {
    const n = v.get(`concurrent-${flag}-syncs`) as number;
    if (n < 1) throw new FlagError(`invalid value ${n} for --concurrent-${flag}-syncs: must be at least 1`);
    concurrentSyncs[controller] = n;
  }
  const nodes = v.get('simulated-nodes') as number;
  if (nodes < 0) throw new FlagError(`invalid value ${nodes} for --simulated-nodes: must not be negative`);
  const schedulerConfig = (v.get('scheduler-config') as string | undefined) || undefined;
  const settings: ControllerSettings = {
    nodeMonitorPeriodMs: v.get('node-monitor-period') as number,
    nodeMonitorGracePeriodMs: v.get('node-monitor-grace-period') as number,
    nodeStartupGracePeriodMs: v.get('node-startup-grace-period') as number,
    nodeEvictionRate: float(v, 'node-eviction-rate'),
    secondaryNodeEvictionRate: float(v, 'secondary-node-eviction-rate'),
    unhealthyZoneThreshold: float(v, 'unhealthy-zone-threshold'),
    largeClusterSizeThreshold: v.get('large-cluster-size-threshold') as number,
    terminatedPodGCThreshold: v.get('terminated-pod-gc-threshold') as number,
  };
  return { controllers, leaderElection, concurrentSyncs, settings, simulatedNodes: nodes, ...(schedulerConfig ? { schedulerConfig } : {}) };
}
