#!/usr/bin/env node
// The `svc` command: dispatches to subcommands. Until the API server lands,
// `svc server` / `svc apiserver` open the configured store, print where it is
// and keep it open until SIGINT/SIGTERM.
import { FlagError, parseFlags, usage, type FlagSpec } from './flags.js';
import { describeStore, openStore, type StorageConfig } from '../storage/open.js';

const STORAGE_FLAGS: FlagSpec[] = [
  { name: 'data-dir', type: 'string', help: 'Directory for the embedded store and generated files.', default: process.env.SVC_DATA_DIR ?? './data' },
  { name: 'storage-backend', type: 'string', help: 'Storage backend: sqlite (embedded) or etcd3.', default: 'sqlite' },
  { name: 'etcd-servers', type: 'strings', help: 'Comma-separated etcd client URLs (with --storage-backend=etcd3).' },
  { name: 'etcd-prefix', type: 'string', help: 'Prefix for every key in etcd.', default: '' },
  { name: 'etcd-cafile', type: 'string', help: 'CA file for TLS to etcd.' },
  { name: 'etcd-certfile', type: 'string', help: 'Client certificate for TLS to etcd.' },
  { name: 'etcd-keyfile', type: 'string', help: 'Client key for TLS to etcd.' },
  { name: 'storage-history', type: 'duration', help: 'History kept by automatic compaction of the embedded store.', default: 5 * 60_000 },
  { name: 'help', type: 'bool', help: 'Show this help.' },
];

function storageConfig(v: Map<string, unknown>): StorageConfig {
  return {
    backend: v.get('storage-backend') as string,
    dataDir: v.get('data-dir') as string,
    etcdServers: (v.get('etcd-servers') as string[] | undefined) ?? [],
    etcdPrefix: v.get('etcd-prefix') as string,
    etcdCaFile: v.get('etcd-cafile') as string | undefined,
    etcdCertFile: v.get('etcd-certfile') as string | undefined,
    etcdKeyFile: v.get('etcd-keyfile') as string | undefined,
    compaction: { retentionMs: v.get('storage-history') as number },
  };
}

async function serve(cmd: string, argv: string[]): Promise<number> {
  const { values } = parseFlags(STORAGE_FLAGS, argv);
  if (values.get('help')) {
    console.log(`Usage: svc ${cmd} [flags]\n\nFlags:\n${usage(STORAGE_FLAGS)}`);
    return 0;
  }
  const config = storageConfig(values);
  const store = await openStore(config);
  console.log(`svc ${cmd}: storage ${describeStore(config)}, revision ${await store.currentRevision()}`);
  console.log('svc: the API server is not built yet (issue 3); holding the store open until SIGINT/SIGTERM');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await store.close();
  return 0;
}

const COMMANDS: Record<string, (cmd: string, argv: string[]) => Promise<number>> = {
  server: serve,
  apiserver: serve,
};

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const run = cmd ? COMMANDS[cmd] : undefined;
  if (!run) {
    console.error(`${cmd ? `unknown command ${JSON.stringify(cmd)}\n` : ''}Usage: svc <command> [flags]\n\nCommands:\n  server      all-in-one control plane on the embedded store\n  apiserver   the API server alone`);
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
