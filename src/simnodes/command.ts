// `svc simulate-nodes --kubeconfig F --count N`: simulated nodes against any
// API server over HTTPS, until SIGINT or SIGTERM (the nodes stay registered;
// a later run adopts them). The kubeconfig's user must be allowed to
// impersonate nodes (system:masters is): each kubelet acts as
// system:node:<name> in system:nodes.
import { FlagError, parseFlags, usage, type FlagSpec } from '../cli/flags.js';
import { NODE_LEASE_NAMESPACE } from '../authz/node/authorizer.js';
import { ConnectionFileError, loadConnectionFile } from '../webhook/connfile.js';
import { remoteCluster } from './remote/index.js';
import { SimulatedNodes, type SimulatedNodesOptions } from './index.js';

const FLAGS: FlagSpec[] = [
  { name: 'kubeconfig', type: 'string', help: 'The kubeconfig (svcconfig) of a user that may impersonate nodes. Required.' },
  { name: 'count', type: 'int', help: 'How many nodes to simulate. Required.' },
  { name: 'prefix', type: 'string', help: 'Node names are <prefix><index>.', default: 'sim-node-' },
  { name: 'first-index', type: 'int', help: 'The index of the first node.', default: 0 },
  { name: 'node-lease-namespace', type: 'string', help: 'Where the nodes\' Leases are (kube-node-lease on Kubernetes).', default: NODE_LEASE_NAMESPACE },
  { name: 'kubelet-version', type: 'string', help: 'status.nodeInfo.kubeletVersion.', default: 'v1.27.3' },
  { name: 'help', type: 'bool', help: 'Show this help.' },
];

const USAGE = 'Usage: svc simulate-nodes --kubeconfig FILE --count N [flags]';

/** The options a command line asks for; FlagError with the reason otherwise. */
export function simulateNodesOptions(argv: readonly string[]): { kubeconfig: string; options: SimulatedNodesOptions } | 'help' {
  const { values, args } = parseFlags(FLAGS, argv);
  if (values.get('help')) return 'help';
  if (args.length > 0) throw new FlagError(`unexpected argument ${JSON.stringify(args[0])}; ${USAGE}`);
  const kubeconfig = values.get('kubeconfig') as string | undefined;
  if (!kubeconfig) throw new FlagError(`--kubeconfig is required; ${USAGE}`);
  const count = values.get('count') as number | undefined;
  if (count === undefined) throw new FlagError(`--count is required; ${USAGE}`);
  if (count < 0) throw new FlagError(`--count must not be negative, got ${count}`);
  const firstIndex = values.get('first-index') as number;
  if (firstIndex < 0) throw new FlagError(`--first-index must not be negative, got ${firstIndex}`);
  const prefix = values.get('prefix') as string;
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9-.])?$/.test(prefix)) throw new FlagError(`--prefix ${JSON.stringify(prefix)} does not start a DNS subdomain name`);
  return {
    kubeconfig,
    options: {
      count, prefix, firstIndex,
      leaseNamespace: values.get('node-lease-namespace') as string,
      kubeletVersion: values.get('kubelet-version') as string,
    },
  };
}

export async function simulateNodesCommand(_cmd: string, argv: string[]): Promise<number> {
  const parsed = simulateNodesOptions(argv);
  if (parsed === 'help') {
    console.log(`${USAGE}\n\nRegisters simulated nodes (Ready, heartbeating, running the pods bound to them) on any API server.\n\nFlags:\n${usage(FLAGS)}`);
    return 0;
  }
  let conn;
  try {
    conn = loadConnectionFile(parsed.kubeconfig);
  } catch (err) {
    if (err instanceof ConnectionFileError) throw new FlagError(err.message);
    throw err;
  }
  const cluster = remoteCluster(conn);
  const sim = new SimulatedNodes(cluster, parsed.options);
  try {
    await sim.start();
  } catch (err) {
    cluster.close();
    throw err;
  }
  console.log(`svc simulate-nodes: ${parsed.options.count} nodes (${parsed.options.prefix}${parsed.options.firstIndex ?? 0}…) registered on ${cluster.url}; Ctrl-C stops them`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  sim.stop();
  cluster.close();
  console.log('svc simulate-nodes: stopped (the nodes stay registered)');
  return 0;
}
