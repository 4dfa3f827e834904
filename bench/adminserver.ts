// One `svc server` process for a benchmark: a fresh data directory, a token
// file with an admin (system:masters) token, and a keep-alive HTTPS client
// authenticated with it. stop() ends the process and removes the directory.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { freePort } from '../src/testing/ports.js';
import { startServerProcess, stopProcess } from './report.js';
import { client, type Call } from './httpclient.js';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');

export interface AdminServer {
  readonly call: Call;
  readonly pid: number;
  readonly dataDir: string;
  /** The admin svcconfig (kubeconfig) of the server. */
  readonly kubeconfig: string;
  /** What a client of its own (a watch) needs: port, CA, admin token. */
  readonly connection: { readonly port: number; readonly ca: Buffer; readonly token: string };
  /** A request that must answer one of `want`; throws with the answer otherwise. */
  must(method: string, path: string, body?: unknown, want?: number[]): Promise<{ status: number; body: string }>;
  stop(): Promise<void>;
}

/** Binds cluster-admin to a user or group of the token file (the benchmarks' ordinary users). */
export async function bindClusterAdmin(server: AdminServer, subject: { kind: 'User' | 'Group'; name: string }): Promise<void> {
  await server.must('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    metadata: { name: `bench-${subject.kind.toLowerCase()}-${subject.name}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
  });
}

/** `users`: more token-file lines (`token,user,uid,"groups"`) beside the admin's. */
export async function startAdminServer(name: string, extraArgs: string[] = [], users: string[] = []): Promise<AdminServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
  try {
    const port = await freePort();
    const tokens = join(dataDir, 'tokens.csv');
    writeFileSync(tokens, ['admin-token,admin,admin-uid,"system:masters"', ...users].join('\n') + '\n');
    const server = await startServerProcess(main, dataDir, port, [`--token-auth-file=${tokens}`, ...extraArgs]);
    const kubeconfig = join(dataDir, 'admin.svcconfig');
    const cfg = parse(readFileSync(kubeconfig, 'utf8'));
    const ca = Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64');
    const call = client(port, { ca }, 'admin-token');
    return {
      call, pid: server.pid!, dataDir, kubeconfig, connection: { port, ca, token: 'admin-token' },
      async must(method, path, body, want = [200, 201]) {
        const r = await call(method, path, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
        if (!want.includes(r.status)) throw new Error(`${method} ${path} answered ${r.status}: ${r.body.slice(0, 300)}`);
        return r;
      },
      async stop() {
        await stopProcess(server);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
