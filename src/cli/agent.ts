// `svc agent`: the node agent (kubelet v1.27's flags and --config file, see
// src/agent/config/). With --svcconfig it runs in API-server mode as
// system:node:<name> (after TLS bootstrap when --bootstrap-svcconfig is
// given and the svcconfig is missing); without it, standalone (static pods).
// Also the agent that `svc server --agent` runs in the server's process.
import { hostname as machineHostname } from 'node:os';
import { AGENT_FLAGS, AgentConfigError, agentUsage, parseAgentArgs, type AgentConfig } from '../agent/config/index.js';
import type { RunningAgent } from '../agent/agent.js';
import { nodeHostname } from '../agent/node/index.js';
import type { Controller, ControllerContext } from '../controllers/context.js';
import { KUBELET_VERSION } from '../agent/node/index.js';
import { keepYoungGenerationSmall } from '../agent/process/heap.js';
import { HeapCollector } from '../agent/process/collector.js';

const log = (m: string) => console.error(`svc agent: ${m}`);

/** Parses the agent's command line; prints the warnings; undefined after --help/--version (printed). */
export function agentConfig(argv: string[]): AgentConfig | undefined {
  const { config, warnings } = parseAgentArgs(argv, { cwd: process.cwd() });
  for (const w of warnings) console.error(w);
  if (config.help) {
    console.log(agentUsage());
    return undefined;
  }
  if (config.version) {
    console.log(config.version === 'raw' ? JSON.stringify({ gitVersion: KUBELET_VERSION }) : `Kubernetes ${KUBELET_VERSION} (svc agent)`);
    return undefined;
  }
  return config;
}

export async function agentCommand(_cmd: string, argv: string[]): Promise<number> {
  // before the agent's modules load (their loading alone would grow the young generation)
  keepYoungGenerationSmall();
  let config: AgentConfig | undefined;
  try {
    config = agentConfig(argv);
  } catch (err) {
    if (err instanceof AgentConfigError) {
      console.error(`Error: ${err.message}`);
      return 1;
    }
    throw err;
  }
  if (!config) return 0;
  const [{ AgentStartError, startAgent }, { connectAgent }] = await Promise.all([import('../agent/agent.js'), import('../agent/api/connect.js')]);
  // full collections paced as Go's runtime paces the kubelet's (collector.ts)
  const collector = new HeapCollector();
  collector.start();
  const hostname = nodeHostname(config.hostnameOverride || undefined);
  const nodeName = hostname;
  if (!config.svcconfig && config.bootstrapSvcconfig) {
    console.error('Error: --bootstrap-svcconfig needs --svcconfig: the path where the node\'s connection file is written');
    return 1;
  }
  if (!config.svcconfig && (config.authentication.webhook.enabled || config.authorization.mode === 'Webhook')) {
    console.error('Error: standalone mode (no --svcconfig) cannot use webhook authentication or authorization: set authentication.webhook.enabled=false and authorization.mode=AlwaysAllow');
    return 1;
  }
  let connected;
  let agent: RunningAgent;
  try {
    if (config.svcconfig) {
      connected = await connectAgent({
        svcconfigPath: config.svcconfig, ...(config.bootstrapSvcconfig ? { bootstrapSvcconfigPath: config.bootstrapSvcconfig } : {}),
        certDir: config.certDir, nodeName, rotateCertificates: config.rotateCertificates, log,
      });
    }
    agent = await startAgent({ config, nodeName, hostname, ...(connected ? { api: connected.api } : {}), log });
  } catch (err) {
    connected?.close();
    if (err instanceof AgentStartError) {
      console.error(`Error: ${err.message}`);
      return 1;
    }
    throw err;
  }
  log(`node ${nodeName} ${connected ? 'registered with the API server' : 'running standalone (static pods only)'}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log('shutting down');
  collector.stop();
  await agent.stop();
  connected?.close();
  return 0;
}

/** The agent of `svc server --agent`, on the server's shared informers, as system:node:<name>. */
export function inProcessAgent(ctx: ControllerContext, config: AgentConfig): Controller {
  let agent: RunningAgent | undefined;
  return {
    async start() {
      const hostname = nodeHostname(config.hostnameOverride || machineHostname());
      // loaded here: a `svc agent` process never needs the in-process API (nor the controllers' client it uses)
      const [{ inProcessAgentApi }, { startAgent }] = await Promise.all([import('../agent/api/inprocess.js'), import('../agent/agent.js')]);
      agent = await startAgent({ config, nodeName: hostname, hostname, api: inProcessAgentApi(ctx, hostname), log });
    },
    async stop() {
      await agent?.stop();
    },
  };
}

/**
 * `svc server --agent`'s command line: flags the server knows stay the
 * server's; the agent's other flags (and their values) go to the agent.
 */
export function splitAgentArgs(argv: readonly string[], serverFlags: readonly { readonly name: string; readonly type: string }[]): { server: string[]; agent: string[] } {
  const serverBool = new Map(serverFlags.map((f) => [f.name, f.type === 'bool']));
  const agentBool = new Map(AGENT_FLAGS.flatMap((f) => [f.name, ...(f.aliases ?? [])].map((n) => [n, f.kind === 'bool' || f.kind === 'version'] as const)));
  const server: string[] = [];
  const agent: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--([^=]+)(=.*)?$/.exec(arg);
    const name = m?.[1] ?? '';
    const toAgent = m !== null && !serverBool.has(name) && agentBool.has(name);
    const dest = toAgent ? agent : server;
    dest.push(arg);
    const isBool = toAgent ? agentBool.get(name) : serverBool.get(name);
    if (m && m[2] === undefined && isBool === false && i + 1 < argv.length) dest.push(argv[++i]!);
  }
  return { server, agent };
}
