// `svc certs user NAME --group G …`: a client certificate for a user (CN=NAME,
// one O per group) signed by the data directory's CA, written with the CA and
// the server's address as a ready-to-use svcconfig (kubeconfig) — the way to
// give someone an identity before the certificates API has a signer. What the
// user may do is then up to RBAC (README "Users").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { FlagError, parseFlags, usage, type FlagSpec } from './flags.js';
import { issueClientCertificate, loadCertificateAuthority, writeAtomic } from '../server/pki.js';
import { ADMIN_KUBECONFIG, buildKubeconfig, renderKubeconfig } from '../server/kubeconfig.js';

const FLAGS: FlagSpec[] = [
  { name: 'group', type: 'stringArray', help: 'A group of the user (the certificate\'s O). Repeatable.' },
  { name: 'data-dir', type: 'string', help: 'The server\'s data directory (its CA is in <data-dir>/pki).', default: process.env.SVC_DATA_DIR ?? './data' },
  { name: 'server', type: 'string', help: 'The API server URL written into the svcconfig. Default: the one in <data-dir>/admin.svcconfig.' },
  { name: 'out', type: 'string', help: 'Where to write the svcconfig (mode 0600). Default: <data-dir>/<name>.svcconfig.' },
  { name: 'help', type: 'bool', help: 'Show this help.' },
];

const USAGE = 'Usage: svc certs user NAME [--group GROUP]... [flags]';

/** The server URL the admin svcconfig names, if there is one. */
function adminServer(dataDir: string): string | undefined {
  const file = join(dataDir, ADMIN_KUBECONFIG);
  if (!existsSync(file)) return undefined;
  const cfg = parseYaml(readFileSync(file, 'utf8')) as { clusters?: { cluster?: { server?: string } }[] };
  return cfg.clusters?.[0]?.cluster?.server;
}

export async function certsCommand(_cmd: string, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'user') throw new FlagError(`${sub ? `unknown certs command ${JSON.stringify(sub)}; ` : ''}${USAGE}`);
  const { values, args } = parseFlags(FLAGS, rest);
  if (values.get('help')) {
    console.log(`${USAGE}\n\nMints a client certificate for a user from the data directory's CA and writes a svcconfig for it.\n\nFlags:\n${usage(FLAGS)}`);
    return 0;
  }
  if (args.length !== 1 || args[0] === '') throw new FlagError(`exactly one user name is required; ${USAGE}`);
  const name = args[0]!;
  const groups = (values.get('group') as string[] | undefined) ?? [];
  if (groups.some((g) => g === '')) throw new FlagError('--group must not be empty');
  const dataDir = values.get('data-dir') as string;
  const server = (values.get('server') as string | undefined) ?? adminServer(dataDir) ?? 'https://127.0.0.1:6443';
  const ca = await loadCertificateAuthority(dataDir);
  const client = await issueClientCertificate(ca, name, groups);
  const out = (values.get('out') as string | undefined) ?? join(dataDir, `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.svcconfig`);
  await writeAtomic(out, renderKubeconfig(buildKubeconfig({ server, caCert: ca.cert, client, userName: name })), 0o600);
  console.log(`svc certs: wrote ${out} for user ${JSON.stringify(name)}${groups.length ? ` in groups ${groups.map((g) => JSON.stringify(g)).join(', ')}` : ''} (certificate valid for a year)`);
  console.log(`svc certs: grant it rights with RBAC, e.g. kubectl create rolebinding ${name.replace(/[^a-z0-9-]/g, '-')}-view --clusterrole=view --user=${name} -n <namespace>`);
  return 0;
}
