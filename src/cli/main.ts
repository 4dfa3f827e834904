#!/usr/bin/env node
// The `svc` command: `svc server` (all-in-one, what `npm start` runs) and
// `svc apiserver` (the API server alone), with kube-apiserver-style flags
// (serve.ts), `svc certs`, `svc simulate-nodes` and `svc agent`. Each
// command's code is loaded when it runs: a `svc agent` process does not hold
// the API server's modules in memory.
import { FlagError } from './flags.js';

type Command = (cmd: string, argv: string[]) => Promise<number>;
const serve: Command = async (cmd, argv) => (await import('./serve.js')).serve(cmd === 'server' ? 'server' : 'apiserver', argv);
const COMMANDS: Record<string, Command> = {
  server: serve, apiserver: serve,
  certs: async (cmd, argv) => (await import('./certs.js')).certsCommand(cmd, argv),
  'simulate-nodes': async (cmd, argv) => (await import('../simnodes/command.js')).simulateNodesCommand(cmd, argv),
  agent: async (cmd, argv) => (await import('./agent.js')).agentCommand(cmd, argv),
};

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const run = cmd ? COMMANDS[cmd] : undefined;
  if (!run) {
    console.error(`${cmd ? `unknown command ${JSON.stringify(cmd)}\n` : ''}Usage: svc <command> [flags]\n\nCommands:\n  server      all-in-one control plane on the embedded store\n  apiserver   the API server alone\n  certs user  a client certificate and svcconfig for a user, from the data directory's CA\n  simulate-nodes  simulated nodes (kwok-like) against any API server over HTTPS\n  agent       the node agent: registers this machine and runs its pods in containers (containerd over CRI)`);
    return 1;
  }
  try {
    return await run(cmd!, rest);
  } catch (err) {
    if (err instanceof FlagError) console.error(`Error: ${err.message}\nRun 'svc ${cmd} --help' for usage.`);
    else console.error(`Error: ${(err as Error).message}`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
